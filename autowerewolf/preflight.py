"""Checking a game before anything is saved or shown: its rules, its seating against the
board, its script against the decisions it reaches, and the models of its LLM seats. One
place, shared by the command line, the web lobby and the runners, so a game is validated
once (`check_game`), and a mistake is one error before the first step."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from autowerewolf.backends.config import PlayerModels
from autowerewolf.errors import SettingsError
from autowerewolf.players.agents.registry import check_agents
from autowerewolf.players.factory import check_models
from autowerewolf.players.seating import Seating
from autowerewolf.players.simple import ScriptedAnswer, scripted_action
from autowerewolf.rules.common import DRAW_NAMES, DRAWS
from autowerewolf.rules.config import GameConfig, GameSetup
from autowerewolf.rules.decisions import MAX_TEXT_CHARS, Action, PendingDecision
from autowerewolf.rules.engine import new_game, parse_decision_key, play_out
from autowerewolf.rules.events import Event
from autowerewolf.rules.keys import BadKey, parse_draw_key
from autowerewolf.rules.random_play import random_action
from autowerewolf.rules.rng import seat_seed
from autowerewolf.rules.state import GameState
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
    """What can be told without playing: keys are decision keys of the step table (keys.py),
    seats are on the board, answers are words or seats the key's step may offer, texts are
    within bounds."""
    seats = set(seat_ids(config))
    for key, entry in {**seating.decisions, **seating.overrides}.items():
        try:
            step = STEPS[parse_decision_key(key).step]
        except BadKey as err:
            raise SettingsError(f"script key {err} (see docs/scripts.md)") from None
        answers = set(step.words) | (seats if step.names_seats else set())
        for seat, answer in _answers(entry):
            if seat is not None and seat not in seats:
                raise SettingsError(
                    f"script answer at {key} names seat {seat!r}, not on this board"
                )
            if answer.option not in answers:
                what = ", ".join(step.words)
                if step.names_seats:
                    what = f"a seat of this board or {what}" if what else "a seat of this board"
                raise SettingsError(
                    f"script answer {answer.option!r} at {key} is not an answer of this step "
                    f"({what})"
                )
            if len(answer.text) > MAX_TEXT_CHARS:
                raise SettingsError(
                    f"script answer at {key} has {len(answer.text)} characters of text; "
                    f"at most {MAX_TEXT_CHARS}"
                )


def _check_draws(config: GameConfig, seating: Seating) -> None:
    seats = set(seat_ids(config))
    for key, outcome in seating.draws.items():
        try:
            parsed = parse_draw_key(key)
        except BadKey:
            parsed = None
        if parsed is None or DRAWS.get(parsed.name) is not parsed.night:
            raise SettingsError(
                f"draw key {key!r} is not one of the moderator's draws "
                f"({', '.join(sorted(DRAW_NAMES))}; see docs/scripts.md)"
            )
        if outcome not in seats:
            raise SettingsError(f"draw {key} names {outcome!r}, not a seat of this board")


def dry_run(config: GameConfig, seating: Seating) -> None:
    """Play the game in memory with the script's answers, everyone else seeded random, and
    raise on the first scripted answer that is not legal where it is reached. For a game of
    scripted and random seats this is exactly the game that will be played."""
    root = config.player_root(seating.player_seed)

    def answer(
        _state: GameState, _events: Sequence[Event], decision: PendingDecision
    ) -> dict[str, Action]:
        answers: dict[str, Action] = {}
        for seat, options in decision.options.items():
            forced = scripted_action(seating.overrides, decision.key, seat, options)
            scripted = None
            if seating.kind_of(seat) == "scripted":
                scripted = scripted_action(seating.decisions, decision.key, seat, options)
            answers[seat] = (
                forced
                or scripted
                or random_action(seat_seed(root, seat), decision.key, options, seat)
            )
        return answers

    state, events = new_game(config, draws=seating.draws)
    play_out(state, events, answer)


def preflight(setup: GameSetup, seating: Seating) -> GameConfig:
    """The game's validated configuration; raises a one-line error for any mistake."""
    config = setup.build()
    _check_seats(config, seating)
    _check_script(config, seating)
    _check_draws(config, seating)
    check_agents(seating.agents)
    if seating.decisions or seating.overrides or seating.draws:
        dry_run(config, seating)
    return config


@dataclass(frozen=True)
class CheckedGame:
    """A game that passed `check_game`: start it without checking it again."""

    setup: GameSetup
    seating: Seating
    config: GameConfig

    @property
    def llm_seats(self) -> list[str]:
        return [s for s in seat_ids(self.config) if self.seating.kind_of(s) == "llm"]

    @property
    def human_seats(self) -> list[str]:
        return [s for s in seat_ids(self.config) if self.seating.kind_of(s) == "human"]


def check_game(
    setup: GameSetup, seating: Seating, models: PlayerModels | None = None
) -> CheckedGame:
    """`preflight`, and with `models` every model config an LLM seat could get."""
    game = CheckedGame(setup, seating, preflight(setup, seating))
    if models is not None and game.llm_seats:
        check_models(models, game.llm_seats, game.config.roles)
    return game
