"""The heuristic player: the same answers in every process, wolves that never turn on their
pack, and a loud refusal of a step it has no rule for."""

import json
import os
import subprocess
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from autowerewolf.graph.builder import RECURSION_LIMIT, build_graph
from autowerewolf.graph.context import GameContext
from autowerewolf.players.base import Answer, DecisionRequest, Player
from autowerewolf.players.factory import basic_player
from autowerewolf.players.heuristic import RULES, HeuristicPlayer, UnknownStep
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import PlayerKind, Seating
from autowerewolf.rules.config import BOARDS, GameSetup, make_config
from autowerewolf.rules.decisions import Action
from autowerewolf.rules.engine import new_game
from autowerewolf.rules.roles import Role
from autowerewolf.rules.state import GameState, Step
from autowerewolf.rules.steps import STEPS, takes_text
from autowerewolf.rules.views import SeatView, seat_view
from tests.fixed import SECRET


def play(board: str, seed: int, factory: object = None) -> tuple[GameState, list[DecisionRecord]]:
    out = (
        build_graph()
        .compile()
        .invoke(
            {
                "setup": GameSetup(secret=SECRET, board=board, seed=seed),
                "seating": Seating(default="heuristic"),
            },
            {"recursion_limit": RECURSION_LIMIT},
            context=GameContext(player_factory=factory or basic_player),
        )
    )
    return out["game"], out["records"]


class _VouchingSeer(HeuristicPlayer):
    """A Seer who claims at once and vouches for every other seat: many seats trusted at
    once, so a badge passed in a set's order would differ between processes."""

    def decide(self, request: DecisionRequest) -> Answer:
        answer = super().decide(request)
        view = request.view
        if takes_text(request.step) != "speech" or answer.action.option != "speak":
            return answer
        named = " ".join(f"{p.seat} is good." for p in view.players if p.seat != view.seat)
        text = f"I am the seer. {named}"
        action = Action(option="speak", text=text)
        return Answer(action, answer.record.model_copy(update={"text": text}))


def vouching(seat: str, kind: PlayerKind, seating: Seating, view: SeatView) -> Player:
    return _VouchingSeer() if view.role is Role.SEER else basic_player(seat, kind, seating, view)


_DIGEST = """
import json, sys
from tests.players.test_heuristic import play, vouching
answers = []
for board in sys.argv[1:]:
    for seed in range(8):
        _, records = play(board, seed, vouching)
        answers += [(r.key, r.seat, r.option, r.text) for r in records]
print(json.dumps(answers))
"""


@pytest.mark.long
def test_the_same_seed_and_secret_play_alike_under_any_hash_seed() -> None:
    """rules/ and players draw from the seed, never from set order: processes with different
    PYTHONHASHSEED give every answer alike, the badge's included."""
    boards = sorted(BOARDS)
    outputs = []
    for hash_seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", _DIGEST, *boards], env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr[-2000:]
        outputs.append(json.loads(done.stdout))
    assert outputs[0] == outputs[1] == outputs[2]
    badges = [option for key, _, option, _ in outputs[0] if f":{Step.BADGE.value}" in key]
    assert len(set(badges)) > 2  # badges were passed to several seats, not only torn


class _SeerBluffingWolf(HeuristicPlayer):
    """A wolf who claims the Seer and names a good seat: the bluff that made heuristic
    packmates kill their own teammate."""

    def decide(self, request: DecisionRequest) -> Answer:
        answer = super().decide(request)
        view = request.view
        if takes_text(request.step) != "speech" or answer.action.option != "speak":
            return answer
        good = [p.seat for p in view.players if p.seat not in (view.seat, *view.teammates)]
        text = f"I am the seer. {good[0]} is a wolf."
        action = Action(option="speak", text=text)
        return Answer(action, answer.record.model_copy(update={"text": text}))


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), board=st.sampled_from(sorted(BOARDS)))
@example(seed=85596, board="12-A")  # a revote between two packmates
def test_heuristic_wolves_never_target_their_pack(seed: int, board: str) -> None:
    """Heuristic wolves never kill or vote out a packmate, even one who claimed the Seer."""
    bluffer: set[str] = set()

    def factory(seat: str, kind: PlayerKind, seating: Seating, view: SeatView) -> Player:
        if view.teammates and not bluffer:
            bluffer.add(seat)
            return _SeerBluffingWolf()
        return basic_player(seat, kind, seating, view)

    game, records = play(board, seed, factory)
    wolves = {s.id for s in game.seats if s.is_wolf}
    harmful = {Step.WOLVES, Step.EXILE_VOTE, Step.EXILE_ROLL_CALL}
    for record in records:
        if record.seat in wolves and record.step in harmful:
            # A revote between two packmates with no abstaining leaves no other choice.
            pack = wolves - {record.seat}
            if any(option not in pack for option in record.options):
                assert record.option not in pack, record


def test_every_deciding_step_has_a_rule_or_speaks() -> None:
    """A new step needs a heuristic rule: none is left to a silent first option."""
    missing = [
        name
        for name, spec in STEPS.items()
        if spec.decides and name not in RULES and takes_text(name) != "speech"
    ]
    assert missing == []


def test_a_step_without_a_rule_is_refused_loudly() -> None:
    state, events = new_game(make_config("12-A", seed=0))
    view = seat_view(state, events, state.seats[0].id).model_copy(
        update={"step": "no_such_step", "options": ("P02",), "decision_key": "d1:no_such_step"}
    )
    with pytest.raises(UnknownStep, match="no_such_step"):
        HeuristicPlayer().decide(DecisionRequest(view=view, seed=1, history=()))
