"""`check_player` (players/conformance.py), the conformance check for agent authors: every
built-in design and the example plug-in pass it, and a deliberately broken agent is caught
for each kind of fault."""

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from autowerewolf.backends.simulated import SimulatedChatModel
from autowerewolf.players.agents.pool import ExperiencePool, PoolConfig
from autowerewolf.players.agents.registry import AgentContext, build_agent
from autowerewolf.players.base import Answer, DecisionRequest, Player, plain_record
from autowerewolf.players.conformance import check_player
from autowerewolf.players.heuristic import HeuristicPlayer
from autowerewolf.players.simple import RandomPlayer
from autowerewolf.prompts.answers import BUDGETS
from autowerewolf.rules.decisions import Action
from autowerewolf.rules.random_play import random_action
from autowerewolf.rules.state import GameState
from examples.agents.cautious import CautiousVoter

LLM_DESIGNS = ("plain", "estimator", "adaptive", "support", "attack", "experience")
ONE_TABLE = {"boards": ("12-A",), "tables": ({"discussion": "bidding"},), "games": 2}


def _design(name: str, tmp_path: Path) -> Callable[[str], Player]:
    chat = SimulatedChatModel(latency_s=0.0)
    pool = ExperiencePool(PoolConfig(tmp_path / "pool.db")) if name == "experience" else None

    def factory(seat: str) -> Player:
        return build_agent(name, chat, "simulated", BUDGETS["compact"], pool)

    return factory


def _cautious(seat: str) -> Player:
    chat = SimulatedChatModel(latency_s=0.0)
    return CautiousVoter(AgentContext(chat, "simulated", BUDGETS["compact"], "cautious"))


@pytest.mark.parametrize("player", [RandomPlayer, HeuristicPlayer], ids=lambda p: p.__name__)
def test_the_model_free_players_pass_at_every_table(player: type) -> None:
    # The frame watch (about 6x slower) runs in test_every_design_passes_at_every_table_watched.
    report = check_player(lambda seat: player(), watch=False)
    assert report.ok, str(report)
    assert len(report.asked) >= 19  # every decision step there is, somewhere
    # Rare steps (a dead sheriff's badge on a small board) may be missed: they are reported.
    assert sum(len(steps) for steps in report.uncovered.values()) <= len(report.uncovered)


@pytest.mark.parametrize("name", LLM_DESIGNS)
def test_every_llm_design_passes(name: str, tmp_path: Path) -> None:
    # The frame watch profiles every call (about 6x slower): the long test below runs it.
    report = check_player(_design(name, tmp_path), watch=False, **ONE_TABLE)  # type: ignore[arg-type]
    assert report.ok, str(report)
    assert sum(report.asked.values()) > 100


def test_the_example_plugin_passes() -> None:
    report = check_player(_cautious, **ONE_TABLE)  # type: ignore[arg-type]
    assert report.ok, str(report)
    assert report.asked["exile_vote"] > 0


# `attack` is `support`'s class with another strategy text: the watch, which looks for code
# that reaches the game's state, has nothing new to see in it (test_every_llm_design_passes
# checks both).
NOT_DESIGNS: dict[str, Callable[[str], Player]] = {
    "random": lambda seat: RandomPlayer(),
    "heuristic": lambda seat: HeuristicPlayer(),
    "cautious": _cautious,
}
WATCHED = [*(d for d in LLM_DESIGNS if d != "attack"), *NOT_DESIGNS]


@pytest.mark.slow
@pytest.mark.long
@pytest.mark.parametrize("name", WATCHED)
def test_every_design_passes_at_every_table_watched(name: str, tmp_path: Path) -> None:
    factory = NOT_DESIGNS[name] if name in NOT_DESIGNS else _design(name, tmp_path)
    report = check_player(factory)
    assert report.ok, str(report)


class Broken:
    """Wrong in every way check_player looks for, one fault per kind of decision."""

    kind = "broken"

    def decide(self, request: DecisionRequest) -> Answer:
        action = random_action(request.seed, request.key, request.options, request.seat)
        step = request.step
        if step == "seer":
            raise RuntimeError("no crystal ball tonight")
        if step == "guard":
            return action  # type: ignore[return-value]  # an Action, not an Answer
        if step == "exile_vote":
            action = Action(option="P99")
        if step == "wolves":
            self._peek()
        record = plain_record(request, self.kind, action)
        if step == "election_signup":
            record = record.model_copy(update={"key": "d9:somewhere:r1"})
        return Answer(action, record)

    @staticmethod
    def _peek() -> GameState | None:
        """What a cheat does: walk up the stack to the game's state."""
        frame = sys._getframe(1)
        while frame is not None:
            for value in frame.f_locals.values():
                if isinstance(value, GameState):
                    return value
            frame = frame.f_back  # type: ignore[assignment]
        return None


def test_a_broken_agent_is_caught() -> None:
    report = check_player(lambda seat: Broken(), time_limit_s=0.0, **ONE_TABLE)  # type: ignore[arg-type]
    assert report.kinds() == {"exception", "answer", "illegal", "record", "reads_state", "slow"}
    by_kind = {p.kind: p for p in report.problems}
    assert (
        by_kind["exception"].key.endswith(":seer") and "crystal ball" in by_kind["exception"].detail
    )
    assert "Action" in by_kind["answer"].detail and by_kind["answer"].key.endswith(":guard")
    assert "'P99'" in by_kind["illegal"].detail and ":exile_vote:" in by_kind["illegal"].key
    assert "record.key" in by_kind["record"].detail
    assert "_getframe" in by_kind["reads_state"].detail and ":wolves:" in by_kind["reads_state"].key
    assert "problems" in str(report) and not report.ok
