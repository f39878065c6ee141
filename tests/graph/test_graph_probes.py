"""Measurement probes (docs/evaluation.md, "Probes"): asked where documented, of every
automatic seat, recorded apart, never changing the game, never reaching a player's later
requests; saved with the game, so resume and fork keep asking them."""

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from autowerewolf.graph.builder import RECURSION_LIMIT, build_graph
from autowerewolf.graph.context import GameContext
from autowerewolf.players.base import Answer, DecisionRequest, Player, plain_record
from autowerewolf.players.factory import basic_player
from autowerewolf.players.llm.player import LLMPlayer
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import PlayerKind, Seating
from autowerewolf.players.simple import RandomPlayer
from autowerewolf.prompts.probes import PROBES
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.engine import apply, new_game, pending_decision
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.random_play import random_answers
from autowerewolf.rules.views import SeatView
from autowerewolf.runner import Games
from tests.fakes.chat import FakeChatModel, legal_json
from tests.fixed import SECRET
from tests.graph.graph_helpers import first_option_answers, new_games

ALL = tuple(PROBES)


def play(
    kind: PlayerKind,
    probes: tuple[str, ...],
    seed: int = 5,
    variants: dict[str, Any] | None = None,
    factory: Any = None,
) -> dict[str, Any]:
    setup = GameSetup(secret=SECRET, seed=seed, variants=variants or {})
    context = GameContext(player_factory=factory) if factory else GameContext()
    return (
        build_graph()
        .compile()
        .invoke(
            {"setup": setup, "seating": Seating(default=kind, probes=probes)},
            {"recursion_limit": RECURSION_LIMIT, "max_concurrency": 16},
            context=context,
        )
    )


def answered(records: list[DecisionRecord]) -> list[tuple[Any, ...]]:
    """What each non-probe record says (not how long it took)."""
    return [
        (r.seat, r.purpose, r.key, r.option, r.text, r.data, r.prompt)
        for r in records
        if r.purpose != "probe"
    ]


def prompt_dependent(messages: list[BaseMessage], schema: dict[str, Any]) -> str:
    """A model whose choice depends on every character of its prompt: a probe that moved a
    seat's memory would change its later choices."""
    answer = json.loads(legal_json(messages, schema))
    choice = schema["properties"].get("choice", {})
    if "enum" in choice:
        # Never a self-explosion: days must reach their last speech for `pre_vote`.
        options = [o for o in choice["enum"] if o != "explode"] or choice["enum"]
        digest = hashlib.sha256("".join(str(m.content) for m in messages).encode()).digest()
        answer["choice"] = options[digest[0] % len(options)]
    return json.dumps(answer)


def fake_llm_factory() -> Any:
    fake = FakeChatModel(respond=prompt_dependent)

    def factory(seat: str, kind: PlayerKind, seating: Seating, view: SeatView) -> Player:
        return LLMPlayer(fake, "fake") if kind == "llm" else basic_player(seat, kind, seating, view)

    return factory


@pytest.mark.parametrize(
    ("kind", "protocol"),
    [
        ("random", "round_robin"),
        ("random", "bidding"),
        ("heuristic", "bidding"),
        ("heuristic", "bid_once"),
        pytest.param("llm", "bidding", marks=pytest.mark.long),
    ],
)
def test_probes_never_change_the_game(kind: PlayerKind, protocol: str) -> None:
    variants = {"discussion": protocol}
    factory = fake_llm_factory if kind == "llm" else lambda: None
    plain = play(kind, (), variants=variants, factory=factory())
    probed = play(kind, ALL, variants=variants, factory=factory())
    assert probed["events"] == plain["events"]
    assert answered(probed["records"]) == answered(plain["records"])
    probes = [r for r in probed["records"] if r.purpose == "probe"]
    assert {r.step for r in probes} == set(ALL)
    assert not any(r.purpose == "probe" for r in plain["records"])


def test_probes_are_asked_where_documented() -> None:
    out = play("random", ALL, seed=8)
    events, records, game = out["events"], out["records"], out["game"]
    probes = [r for r in records if r.purpose == "probe"]
    decisions = {r.key: r for r in records if r.purpose == "decision"}
    speeches = [r for r in records if r.purpose == "decision" and r.step == "discussion"]
    by_key: dict[str, list[DecisionRecord]] = {}
    for r in probes:
        by_key.setdefault(r.key, []).append(r)
    # speech_votes: after every discussion speech, every other living voter.
    for speech in speeches:
        polled = by_key[f"{speech.key}:speech_votes"]
        assert speech.seat not in {r.seat for r in polled} and len(polled) >= 2
        assert all("abstain" in r.options and r.seat not in r.options for r in polled)
    # pre_vote: once per day with a discussion, before its last speech.
    pre = Counter(r.key for r in probes if r.step == "pre_vote")
    last_speech = {}
    for speech in speeches:
        last_speech[speech.day] = speech.key
    assert set(pre) == {f"{key}:pre_vote" for key in last_speech.values()}
    # role_estimates: when the first exile vote is pending, and when a night has fallen.
    rounds = {r.key.rsplit(":", 1)[0] for r in probes if r.step == "role_estimates"}
    votes = {k for k in decisions if k.endswith(":exile_vote:r1")}
    nights = {e.day for e in events if e.kind is EventKind.NIGHT_START and e.day > 1}
    night_rounds = {k for k in rounds if k.startswith("n")}
    assert rounds - night_rounds == votes
    assert {int(k.split(":")[0][1:]) for k in night_rounds} == nights
    estimates = [r for r in probes if r.step == "role_estimates"]
    assert all(r.data and r.options == () for r in estimates)
    assert game.is_over and all(r.player == "random" for r in probes)


class HistorySpy(RandomPlayer):
    """Notes the history of every request; even seats keep a role estimate with their
    exile votes, as an estimator agent would."""

    histories: list[tuple[DecisionRecord, ...]] = []  # noqa: RUF012 - one log per test

    def decide(self, request: DecisionRequest) -> Answer:
        HistorySpy.histories.append(request.history)
        answer = super().decide(request)
        if request.step == "exile_vote" and int(request.seat[1:]) % 2 == 0:
            note = plain_record(
                request, "spy", answer.action, data={"estimates": {}, "evidence": {}}
            ).model_copy(update={"purpose": "note", "step": "role_estimates"})
            return Answer(answer.action, answer.record, notes=(note,))
        return answer


def test_probe_answers_never_reach_a_later_request_and_an_own_estimate_counts() -> None:
    HistorySpy.histories = []
    out = play("random", ALL, seed=8, factory=lambda *_: HistorySpy())
    records = out["records"]
    seen = [r for history in HistorySpy.histories for r in history]
    assert seen and not any(r.purpose == "probe" for r in seen)
    assert any(r.purpose == "note" for r in seen)
    # An even seat's own estimate, kept with its first-round exile vote, stands for the
    # probe there; it is asked at nightfall, where it kept no estimate.
    estimates = [r for r in records if r.step == "role_estimates" and r.purpose == "probe"]
    at_votes = [r for r in estimates if ":exile_vote:r1:" in r.key]
    at_night = [r for r in estimates if r.key.startswith("n")]
    assert at_votes and all(int(r.seat[1:]) % 2 == 1 for r in at_votes)
    assert any(int(r.seat[1:]) % 2 == 0 for r in at_night)


def test_resume_keeps_asking_probes_and_humans_are_never_asked(db: Path) -> None:
    games = new_games(db)
    seating = Seating(seats={"P03": "human"}, probes=ALL)
    record = games.start("h", GameSetup(secret=SECRET, board="12-A", seed=13), seating)
    assert record.status == "waiting"
    waits = 0
    while record.status == "waiting":
        if waits == 1:  # a fresh process carries on from the database
            games.close()
            games = Games(db)
        assert all(i["step"] not in PROBES for i in record.interrupts)
        record = games.resume("h", first_option_answers(record))
        waits += 1
    games.close()
    assert record.status == "finished" and record.seating.probes == ALL
    probes = [r for r in record.records if r.purpose == "probe"]
    assert {r.step for r in probes} == set(ALL)
    assert "P03" not in {r.seat for r in probes}
    # Probes were asked on every day that had a discussion, after the human's first answer.
    days = {r.day for r in record.records if r.step == "discussion"}
    assert days and days <= {r.day for r in probes if r.step == "speech_votes"}


def test_fork_keeps_asking_probes(games: Games) -> None:
    original = games.start("orig", GameSetup(secret=SECRET, seed=8), Seating(probes=ALL))
    state, _ = new_game(GameSetup(secret=SECRET, seed=8).build())
    while not (state.step == "discussion" and state.day == 2):  # the same game, rules only
        decision = pending_decision(state)
        state, _ = apply(state, random_answers(8, decision) if decision else {})
    later = [r for r in original.records if r.purpose == "probe" and r.day >= 2]
    assert later
    games.fork("orig", state.ply, "branch")
    branch = games.resume("branch")
    assert branch.status == "finished" and branch.seating.probes == ALL
    assert branch.events == original.events  # nothing was changed at the fork
    assert [r.key for r in branch.records] == [r.key for r in original.records]
