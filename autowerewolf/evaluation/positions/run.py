"""Asking a model under test every position item, several decodes each; results go to a
JSONL file, one line per (item, decode), so a stopped run continues where it stopped.

The model under test answers exactly as a player at the table would: the LLM player gets
a `DecisionRequest` built from the item's view (its prompt machinery, its answer budget,
its re-prompt and fallback), first for the exile vote, then for the role-estimate question
(`prompts/estimates.py`) on the same view. It gets no earlier records of the seat: the
view's events (its own speeches and ballots among them) are its memory. The rule-based
players answer the vote themselves; for OI they rank seats by what they believe (see
`baseline_opponent_scores`).
"""

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from autowerewolf.backends.config import PlayerModels
from autowerewolf.errors import SettingsError
from autowerewolf.evaluation.games.facts import SECOND_LOOK
from autowerewolf.evaluation.games.facts import _cost as record_cost
from autowerewolf.evaluation.positions.items import PositionItem
from autowerewolf.evaluation.positions.scores import opponent_inference, vote_alignment
from autowerewolf.evaluation.tournament.config import Price
from autowerewolf.players.agents.choice import AgentChoice, is_external
from autowerewolf.players.agents.choice import check_agent as known_design
from autowerewolf.players.agents.registry import build_agent, check_agents
from autowerewolf.players.base import DecisionRequest, Player
from autowerewolf.players.factory import ModelPool
from autowerewolf.players.heuristic import HeuristicPlayer, read_view
from autowerewolf.players.llm.player import LLMPlayer
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.simple import RandomPlayer
from autowerewolf.prompts.estimates import ROLE_ESTIMATES, likelihood
from autowerewolf.rules.rng import chance, derive
from autowerewolf.rules.roles import Camp, Role, camp_of
from autowerewolf.rules.views import SeatView

TestedKind = Literal["llm", "heuristic", "random"]


class RunSpec(BaseModel):
    """What a results file measures: the first line of the file. Continuing a run with
    another spec would mix two measurements, so it is refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["position-run"] = "position-run"
    items: str  # the items file's name
    players: TestedKind
    agent: str | None
    models: dict[str, Any] | None  # the model configs (file contents, no secrets)
    decodes: int
    seed: int


@dataclass(frozen=True)
class UnderTest:
    """The model under test, able to build a fresh player for one decode of one item."""

    spec: RunSpec
    models: PlayerModels | None = None
    pool: ModelPool = field(default_factory=ModelPool)

    def player(self, item: PositionItem, decode: int) -> Player:
        if self.spec.players == "heuristic":
            return HeuristicPlayer()
        if self.spec.players == "random":
            return RandomPlayer()
        assert self.models is not None, "an LLM under test needs its model configs"
        view = item.view
        config = self.models.resolve(view.seat, view.role.value)
        # Each decode samples with its own seed, else a seeded server repeats one answer.
        config = config.model_copy(update={"seed": decode_seed(self.spec.seed, decode)})
        # The design is built as a table seat's is (players/agents/registry.py), with the
        # model's own answer bounds.
        chat = self.pool.chat(config)
        return build_agent(self.spec.agent or "plain", chat, config.model, config.bounds())


def check_agent(agent: str | None) -> None:
    """An agent design the model under test can play: a built-in one or a loadable plug-in
    (SettingsError naming the known designs)."""
    if agent is not None and is_external(agent):
        raise SettingsError(f"agent {agent!r} is a program, not a design a model plays through")
    if agent is not None:
        check_agents(AgentChoice(default=known_design(agent)))


def decode_seed(seed: int, decode: int) -> int:
    return derive(seed, f"decode:{decode}") % 2**31


def request_seed(seed: int, item: PositionItem, decode: int) -> int:
    return derive(seed, f"{item.id}:{decode}")


def estimates_view(view: SeatView) -> SeatView:
    """The same view, asked the private role-estimate question instead of the vote."""
    return view.model_copy(
        update={
            "step": ROLE_ESTIMATES,
            "options": (),
            "decision_key": f"d{view.day}:probe:{ROLE_ESTIMATES}",
        }
    )


def baseline_opponent_scores(kind: TestedKind, view: SeatView, seed: int) -> dict[str, float]:
    """How the rule-based players rank the other living seats as wolves. Random: a seeded
    uniform score each. Heuristic: its own beliefs (its Seer checks, a lone Seer claim's
    results): believed wolves 1, believed good 0, everyone else 0.5 (tied)."""
    others = [p.seat for p in view.players if p.alive and p.seat != view.seat]
    if kind == "random":
        return {s: chance(seed, f"oi:{s}") for s in others}
    beliefs = read_view(view)
    wolves = {s for s, c in beliefs.my_checks.items() if c is Camp.WOLF} | set(beliefs.named_wolves)
    good = {s for s, c in beliefs.my_checks.items() if c is Camp.GOOD} | set(beliefs.named_good)
    return {s: 1.0 if s in wolves else 0.0 if s in good else 0.5 for s in others}


def _usage(records: Sequence[DecisionRecord], prices: Mapping[str, Price]) -> dict[str, Any]:
    return {
        # A second look is one more request (its own re-prompt is in `retries`).
        "calls": sum(
            1 + r.retries + (SECOND_LOOK in (r.error or "")) for r in records if r.player == "llm"
        ),
        "tokens_in": sum(r.tokens_in or 0 for r in records),
        "tokens_out": sum(r.tokens_out or 0 for r in records),
        "cached_tokens": sum(r.cached_tokens or 0 for r in records),
        "latency_s": round(sum(r.latency_s for r in records), 3),
        "fallbacks": sum(r.fallback for r in records),
        "cost_usd": sum(record_cost(r, prices)[0] for r in records),
        "model": next((r.model for r in records if r.model), None),
    }


def _opponent_scores(
    tested: UnderTest, player: Player, item: PositionItem, seed: int
) -> tuple[dict[str, float] | None, DecisionRecord | None]:
    """The tested player's rating of each other living seat as an opponent, and the
    record of the question when a model was asked (None scores: it gave no estimate)."""
    if not isinstance(player, LLMPlayer):
        return baseline_opponent_scores(tested.spec.players, item.view, seed), None
    probe = DecisionRequest(view=estimates_view(item.view), seed=seed, purpose="probe")
    record = player.decide(probe).record
    if record.data is None:
        return None, record
    opponents = [r.value for r in Role if camp_of(r) is not item.view.camp]
    scores = {
        s: sum(likelihood(record.data, s, role) for role in opponents)
        for s in record.data["estimates"]
    }
    return scores, record


def answer(
    tested: UnderTest, item: PositionItem, decode: int, prices: Mapping[str, Price]
) -> dict[str, Any]:
    """One decode of one item: the vote, the opponent ranking, their scores and costs."""
    seed = request_seed(tested.spec.seed, item, decode)
    player = tested.player(item, decode)
    vote = player.decide(DecisionRequest(view=item.view, seed=seed))
    records = [vote.record]
    scores = None
    # A wolf is told its team: OI is not defined for its items, so it is not asked.
    if item.view.camp is Camp.GOOD:
        scores, probe = _opponent_scores(tested, player, item, seed)
        records += [probe] if probe is not None else []
    chosen = None if vote.record.fallback else vote.action.option
    return {
        "item": item.id,
        "decode": decode,
        "vote": vote.action.option,
        "va": vote_alignment(chosen, item),
        "oi": opponent_inference(scores, item),
        **_usage(records, prices),
    }


def read_results(path: Path, spec: RunSpec) -> list[dict[str, Any]]:
    """The results already in `path` (checked against `spec`); a line cut by a crash is
    dropped from the file."""
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    if text and not text.endswith("\n"):
        lines = lines[:-1]
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    if not lines:
        return []
    try:
        found = RunSpec.model_validate_json(lines[0])
        rows = [json.loads(line) for line in lines[1:]]
    except ValueError as err:
        raise SettingsError(f"{path} is not a results file of positions run ({err})") from None
    if found != spec:
        raise SettingsError(
            f"{path} holds another run ({found.players}, agent {found.agent}, "
            f"{found.decodes} decodes, seed {found.seed}): choose another --out"
        )
    return rows


def run_positions(
    items: Sequence[PositionItem],
    tested: UnderTest,
    out: Path,
    concurrency: int = 1,
    prices: Mapping[str, Price] | None = None,
    progress: Callable[[], None] | None = None,
) -> list[dict[str, Any]]:
    """Answer every (item, decode) not yet in `out`; returns all results, old and new."""
    spec = tested.spec
    rows = read_results(out, spec)
    done = {(r["item"], r["decode"]) for r in rows}
    todo = [(i, d) for i in items for d in range(spec.decodes) if (i.id, d) not in done]
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a", encoding="utf-8") as f:
        if not rows:
            f.write(spec.model_dump_json() + "\n")
        for row in _answers(tested, todo, concurrency, prices or {}):
            f.write(json.dumps(row) + "\n")
            f.flush()  # a crash loses at most the answers in flight
            rows.append(row)
            if progress is not None:
                progress()
    return rows


def _answers(
    tested: UnderTest,
    todo: Sequence[tuple[PositionItem, int]],
    concurrency: int,
    prices: Mapping[str, Price],
) -> Iterator[dict[str, Any]]:
    if concurrency == 1:
        for item, decode in todo:
            yield answer(tested, item, decode, prices)
        return
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        futures = [pool.submit(answer, tested, item, decode, prices) for item, decode in todo]
        for future in as_completed(futures):
            yield future.result()
