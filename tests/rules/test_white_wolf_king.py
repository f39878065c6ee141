"""The White Wolf King (docs/rules.md §12): his self-explosion takes one player along; the
taken player dies without last words, a taken Hunter shoots, and night falls."""

from autowerewolf.rules.events import EventKind
from autowerewolf.rules.state import Cause, Step
from tests.rules.rules_helpers import Game

KING = "P01"  # 12-W layout: the king P01, werewolves P02-P04, villagers, seer P09, ..., hunter P11


def asked(game: Game) -> dict[str, tuple[str, ...]]:
    pending = game.pending
    assert pending is not None, f"nothing pending at {game.step}"
    return pending.options


def exploding_king() -> Game:
    """Day 1's discussion after a peaceful-for-the-king night: the king explodes."""
    game = Game("12-W").night(kill="P05").no_election()
    while game.step != Step.DISCUSSION or KING not in asked(game):
        game.answer()
    return game.answer({KING: "explode"})


def test_the_king_names_any_publicly_alive_player_but_himself_or_nobody() -> None:
    game = exploding_king()
    assert game.step == Step.WOLF_KING_TAKE
    others = tuple(s for s in game.state.publicly_alive if s != KING)
    assert game.options(KING) == (*others, "none") and "P02" in others  # a fellow wolf too


def test_the_taken_player_dies_with_him_without_last_words_and_night_falls() -> None:
    game = exploding_king()
    mark = len(game.events)
    game.answer({KING: "P09"})
    kinds = [
        e.kind
        for e in game.events[mark:]
        if e.kind in (EventKind.SELF_EXPLOSION, EventKind.WOLF_KING_TAKE)
    ]
    assert kinds == [EventKind.SELF_EXPLOSION, EventKind.WOLF_KING_TAKE]
    (take,) = game.of(EventKind.WOLF_KING_TAKE)
    assert (take.actor, take.target) == (KING, "P09")
    seer = game.state.seat("P09")
    assert not seer.alive and seer.death_cause is Cause.TAKEN and not seer.revealed
    assert game.state.seat(KING).revealed and not game.alive(KING)
    assert game.of(EventKind.SPEECH, mark) == [] and game.step == Step.WOLVES


def test_a_taken_hunter_shoots() -> None:
    game = exploding_king().answer({KING: "P11"})
    assert game.step == Step.HUNTER_SHOT and tuple(asked(game)) == ("P11",)
    game.answer({"P11": "P02"})
    assert not game.alive("P02") and game.step == Step.WOLVES


def test_taking_nobody_is_a_plain_explosion() -> None:
    game = exploding_king().answer({KING: "none"})
    assert game.of(EventKind.WOLF_KING_TAKE) == []
    assert [s.id for s in game.state.seats if not s.alive] == ["P01", "P05"]


def test_a_plain_werewolf_takes_nobody() -> None:
    game = Game("12-W").night(kill="P05").no_election()
    while game.step != Step.DISCUSSION or "P02" not in asked(game):
        game.answer()
    game.answer({"P02": "explode"})
    assert game.of(EventKind.WOLF_KING_TAKE) == [] and game.step == Step.WOLVES
