"""One grammar for decision keys (rules/keys.py; docs/scripts.md, "Decision keys").

Property: for every board, variant and discussion protocol, every key a random game
produces parses, formats back to itself and names its step in the shape the step table
declares; every option the game offers is an answer its step may give (`words`, seats);
and the game's every answer, bids included, written down as a script, passes the
preflight and plays the same game again."""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autowerewolf.players.seating import Seating
from autowerewolf.players.simple import ScriptedAnswer, scripted_action
from autowerewolf.preflight import preflight, seat_ids
from autowerewolf.rules.common import DRAWS
from autowerewolf.rules.config import BOARDS, GameSetup
from autowerewolf.rules.decisions import Action
from autowerewolf.rules.engine import (
    apply,
    is_terminal,
    new_game,
    parse_decision_key,
    pending_decision,
)
from autowerewolf.rules.events import Event
from autowerewolf.rules.keys import (
    BadKey,
    DecisionKey,
    parse_draw_key,
    parse_key,
    parse_probe_key,
    probe_key,
)
from autowerewolf.rules.random_play import random_answers
from autowerewolf.rules.steps import STEPS
from tests.rules.test_properties import legal, variant_sets

PROTOCOLS = ("round_robin", "bidding", "bid_once")


def _script_entry(answers: dict[str, Action]) -> dict[str, ScriptedAnswer]:
    return {s: ScriptedAnswer(option=a.option, text=a.text) for s, a in answers.items()}


def _check_one_game(board: str, variants: dict[str, object], seed: int) -> None:
    setup = GameSetup(board=board, variants=variants, seed=seed, secret="")
    config = setup.build()
    seats = set(seat_ids(config))
    state, events = new_game(config)
    script: dict[str, dict[str, ScriptedAnswer]] = {}
    while not is_terminal(state):
        decision = pending_decision(state)
        answers = random_answers(seed, decision) if decision is not None else {}
        if decision is not None:
            key = parse_decision_key(decision.key)
            assert str(key) == decision.key and parse_key(decision.key) == key
            step = STEPS[decision.step]
            vocabulary = set(step.words) | (seats if step.names_seats else set())
            for options in decision.options.values():
                assert set(options) <= vocabulary, (decision.key, options)
            assert decision.key not in script, decision.key  # a key names one decision
            script[decision.key] = _script_entry(answers)
        state, new = apply(state, answers, decision)
        events.extend(new)
    seating = Seating(default="scripted", decisions=script)
    preflight(setup, seating)  # every key accepted, every answer legal where reached
    assert _scripted_events(setup, seating) == events


def _scripted_events(setup: GameSetup, seating: Seating) -> list[Event]:
    state, events = new_game(setup.build())
    while not is_terminal(state):
        decision = pending_decision(state)
        answers: dict[str, Action] = {}
        for seat, options in (decision.options if decision is not None else {}).items():
            assert decision is not None
            action = scripted_action(seating.decisions, decision.key, seat, options)
            assert action is not None, (decision.key, seat)
            answers[seat] = action
        state, new = apply(state, answers, decision)
        events.extend(new)
    return events


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("board", sorted(BOARDS))
def test_every_key_of_every_board_and_protocol_round_trips(board: str, protocol: str) -> None:
    for seed in range(3):
        _check_one_game(board, legal(board, {"discussion": protocol}), seed)


@settings(max_examples=40, deadline=None)
@given(
    board=st.sampled_from(sorted(BOARDS)),
    variants=variant_sets,
    seed=st.integers(0, 10_000),
)
def test_every_key_round_trips_under_random_variants(
    board: str, variants: dict[str, object], seed: int
) -> None:
    _check_one_game(board, legal(board, variants), seed)


def test_keys_format_and_parse_each_shape() -> None:
    cases = {
        "n1:wolves:P03": DecisionKey(True, 1, "wolves", seat="P03"),
        "n2:seer": DecisionKey(True, 2, "seer"),
        "d1:exile_vote:r2": DecisionKey(False, 1, "exile_vote", round=2),
        "d3:discussion:t12:P05": DecisionKey(False, 3, "discussion", seat="P05", turn=12),
    }
    for text, key in cases.items():
        assert parse_decision_key(text) == key and str(key) == text
    decision, probe = parse_probe_key(probe_key("d2:discussion:P07", "pre_vote"))
    assert (decision.seat, str(decision), probe) == ("P07", "d2:discussion:P07", "pre_vote")
    draw = parse_draw_key("d2:exile_no_vote:r2")
    assert (draw.night, draw.day, draw.name, draw.round, str(draw)) == (
        False, 2, "exile_no_vote", 2, "d2:exile_no_vote:r2",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("d1:discussion:t01:P02", "not a decision key"),
        ("n1:exile_vote:r1", "day"),
        ("d1:wolves:P02", "night"),
        ("d1:exile_vote", "names the round"),
        ("d1:exile_vote:P03", "names the round"),
        ("n1:seer:P03", "names no seat"),
        ("n1:wolves", "names the seat"),
        ("d1:last_words:t2:P03", "once a day"),
        ("d1:announce", "asks a decision"),
        ("d1:nap:P03", "asks a decision"),
    ],
)
def test_malformed_keys_are_refused_saying_why(text: str, why: str) -> None:
    with pytest.raises(BadKey, match=why):
        parse_decision_key(text)


DOCS = Path(__file__).resolve().parents[2] / "docs"
QUOTED_KEY = re.compile(r"`([nd]\d+:[a-z_]+(?::[A-Za-z0-9_]+)*)`")


def test_every_key_the_docs_quote_parses() -> None:
    """docs/scripts.md and docs/rules.md quote keys: each is a decision key of the table
    (or a probe or draw key), and formats back to itself."""
    quoted = set()
    for page in ("scripts.md", "rules.md", "evaluation.md"):
        quoted |= set(QUOTED_KEY.findall((DOCS / page).read_text(encoding="utf-8")))
    assert len(quoted) >= 10
    for text in sorted(quoted):
        name = text.split(":")[1]
        if name in DRAWS:
            assert str(parse_draw_key(text)) == text
        elif name in STEPS:
            key = text if _is_decision(text) else str(parse_probe_key(text)[0])
            assert str(parse_decision_key(key)) == key, text


def _is_decision(text: str) -> bool:
    try:
        parse_decision_key(text)
    except BadKey:
        return False
    return True
