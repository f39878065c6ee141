"""Checking a game before anything is saved or shown: its rules, its seating against the
board, and its script against the decisions it reaches. One place, so a game is validated
once, and a mistake is one error before the first step."""

import re
from collections.abc import Mapping

from autowerewolf.errors import SettingsError
from autowerewolf.players.agents.registry import check_agents
from autowerewolf.players.seating import Seating
from autowerewolf.players.simple import ScriptedAnswer, scripted_action
from autowerewolf.rules.config import GameConfig, GameSetup
from autowerewolf.rules.decisions import MAX_TEXT_CHARS, Action, Option
from autowerewolf.rules.engine import apply, is_terminal, new_game, pending_decision
from autowerewolf.rules.random_play import random_action
from autowerewolf.rules.rng import seat_seed
from autowerewolf.rules.steps import STEPS


def seat_ids(config: GameConfig) -> tuple[str, ...]:
    return tuple(f"P{i + 1:02d}" for i in range(config.n_seats))


def _check_seats(config: GameConfig, seating: Seating) -> None:
    known = set(seat_ids(config))
    named = [*seating.seats, *seating.contestants]
    for seat in named:
        if seat not in known:
            raise SettingsError(
                f"seat {seat!r} is not on this board (seats P01..P{config.n_seats:02d})"
            )


# n<night>:<step>[:<seat>] or d<day>:<step>[:<seat>|:r<round>] (docs/scripts.md).
DECISION_KEY = re.compile(r"[nd][1-9]\d{0,3}:(?P<step>[a-z_]+)(?::(?:P\d\d|r[12]))?")


def _answers(entry: object) -> list[tuple[str | None, ScriptedAnswer]]:
    """(seat, answer) pairs of one script entry; seat None for an answer to every seat."""
    if isinstance(entry, str):
        return [(None, ScriptedAnswer(option=entry))]
    if isinstance(entry, ScriptedAnswer):
        return [(None, entry)]
    if isinstance(entry, Mapping):
        return [(seat, _answers(a)[0][1]) for seat, a in entry.items()]
    return []


def _check_script(config: GameConfig, seating: Seating) -> None:
    """What can be told without playing: keys name real steps, seats are on the board,
    options are option words or seats, texts are within bounds."""
    seats = set(seat_ids(config))
    words = {o.value for o in Option}
    for key, entry in {**seating.decisions, **seating.overrides}.items():
        match = DECISION_KEY.fullmatch(key)
        if match is None or match["step"] not in STEPS:
            raise SettingsError(f"script key {key!r} is not a decision key (see docs/scripts.md)")
        for seat, answer in _answers(entry):
            if seat is not None and seat not in seats:
                raise SettingsError(
                    f"script answer at {key} names seat {seat!r}, not on this board"
                )
            if answer.option not in words and answer.option not in seats:
                raise SettingsError(
                    f"script answer {answer.option!r} at {key} is neither a seat of this board "
                    f"nor one of: {', '.join(sorted(words))}"
                )
            if len(answer.text) > MAX_TEXT_CHARS:
                raise SettingsError(
                    f"script answer at {key} has {len(answer.text)} characters of text; "
                    f"at most {MAX_TEXT_CHARS}"
                )


def dry_run(config: GameConfig, seating: Seating) -> None:
    """Play the game in memory with the script's answers, everyone else seeded random, and
    raise on the first scripted answer that is not legal where it is reached. For a game of
    scripted and random seats this is exactly the game that will be played."""
    root = config.seed if seating.player_seed is None else seating.player_seed
    state, _ = new_game(config)
    while not is_terminal(state):
        decision = pending_decision(state)
        answers: dict[str, Action] = {}
        for seat, options in (decision.options if decision is not None else {}).items():
            assert decision is not None
            forced = scripted_action(seating.overrides, decision.key, seat, options)
            scripted = None
            if seating.kind_of(seat) == "scripted":
                scripted = scripted_action(seating.decisions, decision.key, seat, options)
            answers[seat] = (
                forced
                or scripted
                or random_action(seat_seed(root, seat), decision.key, options, seat)
            )
        state, _ = apply(state, answers, decision)


def preflight(setup: GameSetup, seating: Seating) -> GameConfig:
    """The game's validated configuration; raises a one-line error for any mistake."""
    config = setup.build()
    _check_seats(config, seating)
    _check_script(config, seating)
    check_agents(seating.agents)
    if seating.decisions or seating.overrides:
        dry_run(config, seating)
    return config
