"""RULES §7 (Hunter, Idiot, death chain) and §8 (winning)."""

import pytest

from autowerewolf.rules.engine import is_terminal, returns
from autowerewolf.rules.events import Audience, EventKind
from autowerewolf.rules.roles import Camp, Role
from autowerewolf.rules.state import BadgeStatus, Step
from tests.rules.rules_helpers import Game

# 12-A layout: P01-P04 wolves, P05-P08 villagers, P09 seer, P10 witch, P11 hunter, P12 guard.
# 12-B layout: same, with P12 the Idiot.


def decisions(g: Game, until_step: Step = Step.DISCUSSION, **picks: str) -> list[tuple]:
    """Answer (`picks` where legal, else defaults) until `until_step` or the end.

    Returns the (step, seat) of each decision answered."""
    seen = []
    while not g.over and g.step is not until_step:
        (who,) = g.pending.options
        seen.append((g.step, who))
        pick = picks.get(who)
        g.answer({who: pick} if pick in g.options(who) else {})
    return seen


# --- §7 Hunter --------------------------------------------------------------------------


def test_rules_7_hunter_killed_by_wolves_shoots_and_is_revealed():
    """RULES §7: Hunter killed by wolves shoots; the shot kills at once and reveals him."""
    g = Game().night("P11").no_election()
    assert g.step == Step.HUNTER_SHOT and set(g.pending.options) == {"P11"}
    opts = g.options("P11")
    assert "P11" not in opts and "none" in opts and "P01" in opts
    g.answer(P11="P01")
    assert not g.alive("P01") and g.state.seat("P11").revealed
    (shot,) = g.of(EventKind.HUNTER_SHOT)
    assert shot.audience is Audience.PUBLIC
    assert (shot.actor, shot.target, shot.value) == ("P11", "P01", Role.HUNTER)


def test_rules_7_guarded_and_saved_hunter_dies_and_shoots():
    """RULES §7: a Hunter killed through guard+save ([D]) still shoots."""
    g = Game().night("P11", save=True, guard="P11").no_election()
    assert not g.alive("P11") and g.step == Step.HUNTER_SHOT


def test_rules_7_poisoned_hunter_cannot_shoot():
    """RULES §2/§7 [D]: a poisoned Hunter cannot shoot."""
    g = Game().night(None, poison="P11").no_election()
    assert not g.alive("P11")
    assert g.step == Step.LAST_WORDS  # straight to Night-1 last words
    decisions(g)
    assert not g.of(EventKind.HUNTER_SHOT)


def test_rules_7_poisoned_hunter_shoots_with_variant():
    """RULES §7 [V] hunter_can_shoot_if_poisoned."""
    g = Game(variants={"hunter_can_shoot_if_poisoned": True}).night(None, poison="P11")
    g.no_election()
    assert g.step == Step.HUNTER_SHOT


def test_rules_7_exiled_hunter_shoots_then_last_words():
    """RULES §7: an exiled Hunter shoots; the shot player gets no last words (§5)."""
    g = Game().night(None).no_election().to_vote()
    g.exile_by("P11", ["P01", "P02"])
    seen = decisions(g, Step.WOLVES, P11="P02")
    assert seen == [(Step.HUNTER_SHOT, "P11"), (Step.LAST_WORDS, "P11")]
    assert not g.alive("P02")


def test_rules_7_hunter_may_decline_privately():
    """RULES §7: the Hunter may decline; nothing public reveals it."""
    g = Game().night("P11").no_election().answer(P11="none")
    (shot,) = g.of(EventKind.HUNTER_SHOT)
    assert shot.audience is Audience.OMNISCIENT and shot.target is None
    assert not g.state.seat("P11").revealed
    assert sum(not s.alive for s in g.state.seats) == 1


def test_rules_7_hunter_shoots_sheriff_who_passes_badge():
    """RULES §7: a shot sheriff handles the badge (passes it) before the Hunter's last words."""
    g = Game().night("P11").elect("P07")
    seen = decisions(g, Step.SHERIFF_DIRECTION, P11="P07", P07="P08")
    assert seen == [(Step.HUNTER_SHOT, "P11"), (Step.BADGE, "P07"), (Step.LAST_WORDS, "P11")]
    assert g.state.sheriff == "P08"
    assert set(g.pending.options) == {"P08"}


def test_rules_7_hunter_shoots_sheriff_who_tears_badge():
    """RULES §7/§4: a shot sheriff may tear the badge."""
    g = Game().night("P11").elect("P07")
    decisions(g, Step.DISCUSSION, P11="P07", P07="tear")
    assert g.state.badge is BadgeStatus.LOST and g.state.sheriff is None
    assert g.step == Step.DISCUSSION


def test_rules_7_chain_order_exiled_hunter_sheriff():
    """RULES §7: chain order shot -> badge -> last words for an exiled Hunter-sheriff."""
    g = Game().night(None).elect("P11").to_vote()
    g.exile_by("P11", ["P01", "P02"])
    seen = decisions(g, Step.WOLVES, P11="P05")
    assert seen == [(Step.HUNTER_SHOT, "P11"), (Step.BADGE, "P11"), (Step.LAST_WORDS, "P11")]
    assert not g.alive("P05")


def test_rules_7_chain_order_at_dawn_two_deaths():
    """RULES §7: a dawn batch: shot (victim's chain first) -> badge -> last words, in seat
    order."""
    g = Game().night("P11", poison="P07").elect("P07")
    seen = decisions(g, Step.DISCUSSION, P11="P08", P07="P09")
    assert seen == [
        (Step.HUNTER_SHOT, "P11"),
        (Step.BADGE, "P07"),
        (Step.LAST_WORDS, "P07"),
        (Step.LAST_WORDS, "P11"),
        (Step.SHERIFF_DIRECTION, "P09"),
    ]


def test_rules_7_game_ends_at_once_hunter_last_words_skipped():
    """RULES §7/§8: the Hunter shoots the last wolf: game over at once, pending last words
    skipped."""
    g = Game().prekill("P02", "P03", "P04").night("P11").no_election()
    g.answer(P11="P01")
    assert g.over and g.state.winner is Camp.GOOD
    assert g.speeches("last_words") == []


def test_rules_8_last_wolf_sheriff_exiled_badge_and_last_words_skipped():
    """RULES §8: the game ends at once: the exiled last wolf (sheriff) gets no badge decision
    and no last words."""
    g = Game().prekill("P02", "P03", "P04").night(None).elect("P01")
    g.answer(P01="clockwise").to_vote()
    g.exile_by("P01", ["P05", "P06"])
    assert g.over and g.state.winner is Camp.GOOD
    assert not g.of(EventKind.SHERIFF)[1:] and g.speeches("last_words") == []


def test_rules_8_win_check_comes_before_a_pending_shot():
    """RULES §8 [D]: the game ends at once, pending shots skipped: the exiled Hunter is the
    last god -> wolves win without a shot."""
    g = Game().prekill("P09", "P10", "P12").night(None).no_election().to_vote()
    g.exile_by("P11", ["P01", "P02"])
    assert g.over and g.state.winner is Camp.WOLF
    assert not g.of(EventKind.HUNTER_SHOT)


def test_rules_8_dawn_win_before_shot_and_election():
    """RULES §8: check right after dawn: the last god (Hunter) bitten -> wolves win, no shot,
    no election."""
    g = Game().prekill("P09", "P10", "P12").night("P11")
    assert g.over and g.state.winner is Camp.WOLF
    assert not g.of(EventKind.SIGNUP) and not g.of(EventKind.HUNTER_SHOT)


def test_rules_5_8_a_game_ended_at_dawn_announces_the_nights_deaths_first():
    """RULES §5, §8: the game ends at dawn, and the moderator still tells who died, before
    the end: nobody stands alive under "every god is dead"."""
    g = Game().prekill("P09", "P10", "P12").night("P11")
    announced = g.of(EventKind.DEATHS_ANNOUNCED)
    assert announced and announced[-1].targets == ("P11",)
    assert announced[-1].audience is Audience.PUBLIC
    kinds = [e.kind for e in g.events]
    assert kinds.index(EventKind.DEATHS_ANNOUNCED) < kinds.index(EventKind.GAME_OVER)
    assert "P11" not in g.state.publicly_alive and not g.state.unannounced


# --- §7 Idiot ---------------------------------------------------------------------------


def flip_day(variants=None, sheriff=None) -> Game:
    g = Game("12-B", variants=variants).night(None)
    if sheriff:
        g.elect(sheriff).answer({sheriff: "clockwise"})
    else:
        g.no_election()
    g.to_vote()
    return g.exile_by("P12", ["P01", "P02", "P03"])


def test_rules_7_idiot_exiled_flips_survives_no_last_words_day_ends():
    """RULES §7: the hidden Idiot exiled flips, survives, gets no last words; the day ends."""
    g = flip_day()
    assert g.alive("P12")
    seat = g.state.seat("P12")
    assert seat.idiot_flipped and seat.revealed
    (flip,) = g.of(EventKind.IDIOT_FLIP)
    assert flip.audience is Audience.PUBLIC and flip.value == Role.IDIOT
    assert g.speeches("last_words") == []
    assert g.step == Step.WOLVES and g.state.day == 2


def test_rules_7_flipped_idiot_no_vote_not_exilable_still_speaks():
    """RULES §6/§7: a flipped Idiot keeps speaking, loses his vote, cannot be exiled again."""
    g = flip_day().night(None)
    start = len(g.events)
    g.to_vote()
    spoke = [e.actor for e in g.of(EventKind.SPEECH, since=start)]
    assert "P12" in spoke
    assert "P12" not in g.pending.options
    assert all("P12" not in opts for opts in g.pending.options.values())


def test_rules_4_idiot_sheriff_flip_loses_badge():
    """RULES §4 [D]: an Idiot sheriff who flips loses the badge."""
    g = flip_day(sheriff="P12")
    assert g.state.badge is BadgeStatus.LOST and g.state.sheriff is None


def test_rules_4_idiot_flip_keeps_badge_variant():
    """RULES §4 [V] idiot_flip_keeps_badge: he keeps it."""
    g = flip_day(variants={"idiot_flip_keeps_badge": True}, sheriff="P12")
    assert g.state.sheriff == "P12" and g.state.badge is BadgeStatus.HELD


# --- §8 Winning -------------------------------------------------------------------------


def test_rules_8_good_wins_when_every_wolf_dead():
    """RULES §8: good wins when every wolf is dead (checked after an exile)."""
    g = Game().prekill("P02", "P03", "P04").night(None).no_election().to_vote()
    g.exile_by("P01", ["P05"])
    assert g.over and g.state.winner is Camp.GOOD
    r = returns(g.state)
    assert r["P01"] == -1.0 and r["P05"] == 1.0


def test_rules_8_side_every_villager_dead():
    """RULES §8 [D] side: every villager dead -> wolves win (checked at dawn)."""
    g = Game().prekill("P05", "P06", "P07").night("P08")
    assert is_terminal(g.state) and g.state.winner is Camp.WOLF
    (over,) = g.of(EventKind.GAME_OVER)
    assert over.value == Camp.WOLF and over.audience is Audience.PUBLIC


def test_rules_8_side_every_god_dead():
    """RULES §8 [D] side: every god dead -> wolves win."""
    g = Game().prekill("P09", "P10", "P11").night("P12")
    assert g.over and g.state.winner is Camp.WOLF


def test_rules_8_flipped_idiot_is_a_living_god():
    """RULES §8: a flipped Idiot is a living god (no side win when the other gods die)."""
    g = Game("12-B").prekill("P09", "P10").night(None).no_election().to_vote()
    g.exile_by("P12", ["P01"])  # flips
    assert g.state.seat("P12").idiot_flipped
    g.night("P11")  # the last other god
    assert not g.over


def test_rules_8_city_elimination_variant():
    """RULES §8 [V] city: wolves need every good player dead."""
    g = Game(variants={"win_mode": "city"}).prekill("P05", "P06", "P07").night("P08")
    assert not g.over
    g2 = Game(variants={"win_mode": "city"})
    g2.prekill("P05", "P06", "P07", "P08", "P09", "P10", "P11").night("P12")
    assert g2.over and g2.state.winner is Camp.WOLF


def test_rules_8_parity_on_8_arena():
    """RULES §8 (engine design): 8-arena wolves win at parity."""
    g = Game("8-arena").prekill("P03", "P04").night("P05")
    # 2 wolves vs 3 good: not yet
    assert not g.over
    g.to_vote()
    g.exile_by("P06", ["P01", "P02", "P07", "P08"])
    assert g.over and g.state.winner is Camp.WOLF


def test_rules_8_both_conditions_at_night_wolves_win():
    """RULES §8 [D]: both win conditions at once at night -> wolves ("the kill comes first")."""
    g = Game().prekill("P02", "P03", "P04", "P05", "P06", "P07").night("P08", poison="P01")
    assert not g.alive("P01") and not g.alive("P08")
    assert g.over and g.state.winner is Camp.WOLF


def test_rules_8_explosion_of_last_wolf_good_wins():
    """RULES §8: checked after an explosion."""
    g = Game().prekill("P02", "P03", "P04").night(None).no_election()
    g.speak_all(explode="P01")
    assert g.over and g.state.winner is Camp.GOOD


def test_rules_8_max_days_draw():
    """RULES §8 (engine design): still undecided after max_days -> draw."""
    g = Game(max_days=1).night(None).no_election().to_vote().vote()
    assert g.over and g.state.winner is None
    assert set(returns(g.state).values()) == {0.0}
    (over,) = g.of(EventKind.GAME_OVER)
    assert over.value == "draw"


def test_rules_8_game_over_accepts_no_more_answers():
    """RULES §8: the game ends at once; nothing more may be applied."""
    from autowerewolf.rules.decisions import IllegalAction
    from autowerewolf.rules.engine import apply, pending_decision

    g = Game().prekill("P05", "P06", "P07").night("P08")
    assert pending_decision(g.state) is None
    with pytest.raises(IllegalAction):
        apply(g.state, {})
