"""The Knight's duel (docs/rules.md §11): once per game, in place of a discussion speech; a
wolf dies revealed and night falls at once, otherwise the Knight dies and the discussion
goes on."""

from autowerewolf.rules.events import EventKind
from autowerewolf.rules.roles import Camp, Role, camp_of, is_god
from autowerewolf.rules.state import Cause, Step
from tests.rules.rules_helpers import Game

KNIGHT = "P12"  # 12-K layout: wolves P01-P04, villagers P05-P08, seer, witch, hunter, knight


def asked(game: Game) -> dict[str, tuple[str, ...]]:
    pending = game.pending
    assert pending is not None, f"nothing pending at {game.step}"
    return pending.options


def to_turn_of(game: Game, speaker: str) -> Game:
    """Speak through the discussion until `speaker` is asked to speak."""
    while game.step != Step.DISCUSSION or speaker not in asked(game):
        assert game.step in (Step.DISCUSSION, Step.LAST_WORDS, Step.SHERIFF_DIRECTION), game.step
        game.answer()
    return game


def day_one_discussion(sheriff: str | None = None) -> Game:
    game = Game("12-K").night(kill="P05")
    game = game.elect(sheriff) if sheriff else game.no_election()
    return game


def test_duel_is_offered_to_the_knight_in_his_discussion_turn_only() -> None:
    game = Game("12-K").night(kill="P05").answer({KNIGHT: "run", "P06": "run"})
    assert game.step == Step.ELECTION_SPEECH
    while game.step == Step.ELECTION_SPEECH:  # no duel in the election (§11)
        (speaker,) = asked(game)
        assert "duel" not in game.options(speaker)
        game.answer()
    game = day_one_discussion()
    game.answer()  # P06 opens the discussion: no duel for a villager
    to_turn_of(game, KNIGHT)
    assert game.options(KNIGHT) == ("speak", "duel")


def test_a_dueled_wolf_dies_revealed_without_last_words_and_night_falls() -> None:
    game = to_turn_of(day_one_discussion(), KNIGHT).answer({KNIGHT: "duel"})
    assert game.step == Step.DUEL and game.options(KNIGHT) == tuple(
        s for s in game.state.living if s != KNIGHT
    )
    mark = len(game.events)
    game.answer({KNIGHT: "P02"})
    (duel,) = game.of(EventKind.DUEL)
    assert (duel.actor, duel.target, duel.value) == (KNIGHT, "P02", "wolf")
    wolf = game.state.seat("P02")
    assert not wolf.alive and wolf.revealed and wolf.death_cause is Cause.DUEL
    assert game.state.seat(KNIGHT).alive and game.state.seat(KNIGHT).revealed
    # The rest of the day is cancelled: no more speeches, no last words, no vote.
    assert game.of(EventKind.SPEECH, mark) == [] and game.of(EventKind.BALLOT, mark) == []
    assert game.step == Step.WOLVES and game.state.day == 2


def test_a_lost_duel_kills_the_knight_and_the_discussion_goes_on() -> None:
    game = to_turn_of(day_one_discussion(), KNIGHT)
    mark = len(game.events)
    game.answer({KNIGHT: "duel"}).answer({KNIGHT: "P06"})
    (duel,) = game.of(EventKind.DUEL)
    assert duel.value == "good"
    knight = game.state.seat(KNIGHT)
    assert not knight.alive and knight.revealed and knight.death_cause is Cause.DUEL
    assert game.alive("P06")
    game.to_vote()
    # The speakers after the Knight still speak; he has no last words (§11).
    assert [e.actor for e in game.of(EventKind.SPEECH, mark)] == ["P01", "P02", "P03", "P04"]
    assert game.state.day == 1 and KNIGHT not in asked(game)


def test_the_duel_is_once_per_game() -> None:
    game = to_turn_of(day_one_discussion(), KNIGHT).answer({KNIGHT: "duel"})
    game.answer({KNIGHT: "P01"})
    game.night(kill="P06").answer()  # day 2: no election
    to_turn_of(game, KNIGHT)
    assert game.options(KNIGHT) == ("speak",)


def test_a_sheriff_knight_who_loses_his_duel_passes_the_badge_then_the_vote_opens() -> None:
    game = day_one_discussion(sheriff=KNIGHT)
    to_turn_of(game, KNIGHT)  # the sheriff speaks last, summing up
    game.answer({KNIGHT: "duel"}).answer({KNIGHT: "P06"})
    assert game.step == Step.BADGE and tuple(asked(game)) == (KNIGHT,)
    game.answer({KNIGHT: "P07"})
    assert game.state.sheriff == "P07"
    assert game.step == Step.EXILE_VOTE


def test_the_knight_is_a_good_god_the_side_win_counts() -> None:
    assert camp_of(Role.KNIGHT) is Camp.GOOD and is_god(Role.KNIGHT)
