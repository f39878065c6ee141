"""Blunder metrics on real games built with the rules tests' scripted driver.

Layouts (rules_helpers.LAYOUTS): 12-A P01-P04 wolves, P05-P08 villagers, P09 seer,
P10 witch, P11 hunter, P12 guard; 12-B the same with P12 the Idiot; 8-arena P01-P02
wolves, P03-P06 villagers, P07 seer, P08 guard. Every expected number is counted by hand
in the test's comments. `Game.night` lets the Seer check her first option (P01 here)
unless told otherwise, and unnamed seats answer "none"/"abstain"/"pass"/"speak".
"""

from autowerewolf.evaluation.games.blunders import (
    METRICS,
    NOT_IN_OVERALL,
    OVERALL,
    Tally,
    blunders,
    group_by,
    merge,
    revealed_before,
    total,
)
from autowerewolf.rules.config import make_config
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.random_play import play_random_game
from autowerewolf.rules.state import Step
from tests.rules.rules_helpers import Game

WOLVES_12 = ("P01", "P02", "P03", "P04")
GOOD_12 = ["P05", "P06", "P07", "P08", "P09", "P10", "P11"]


def per_wolf(*tallies: tuple[int, int]) -> dict[str, tuple[int, int]]:
    """The expected (blunders, opportunities) of P01-P04, in seat order."""
    return dict(zip(WOLVES_12, tallies, strict=True))


def metric(g: Game, name: str) -> dict[str, tuple[int, int]]:
    """Seats with at least one opportunity under `name`: (blunders, opportunities)."""
    table = blunders(g.events)
    return {s: tuple(m[name]) for s, m in table.items() if m[name].opportunities}


# --- wolves at night --------------------------------------------------------------------


def test_wolf_proposals_naming_self_or_teammate_and_the_pack_target():
    # P01 names himself, P02 and P04 name teammate P03, P03 names villager P05:
    # P03 wins the plurality (2 of 4), so the pack's target is a wolf.
    g = Game().night(proposals={"P01": "P01", "P02": "P03", "P03": "P05", "P04": "P03"})
    assert metric(g, "wolf_self_kill") == per_wolf((1, 1), (1, 1), (0, 1), (1, 1))
    # Every wolf that proposed shares the pack's choice.
    assert metric(g, "wolf_pack_kills_wolf") == dict.fromkeys(WOLVES_12, (1, 1))
    # The pack target is not a seat's decision: P03's overall is his own proposal only.
    assert blunders(g.events)["P03"][OVERALL] == (0, 1)


def test_empty_knife_and_a_villager_target_are_no_blunders():
    g = Game().night(proposals={"P01": "none", "P02": "P05", "P03": "P05", "P04": "P06"})
    assert metric(g, "wolf_self_kill") == dict.fromkeys(WOLVES_12, (0, 1))
    assert metric(g, "wolf_pack_kills_wolf") == dict.fromkeys(WOLVES_12, (0, 1))


# --- self-explosion ---------------------------------------------------------------------


def test_explosion_at_signup_without_candidacy_is_needless():
    # P01 explodes at sign-up (no SIGNUP event of his own); P02-P04 pass (one opportunity each).
    g = Game().night("P05")
    g.answer(P01="explode", P07="run", P08="run")
    assert metric(g, "wolf_needless_explosion") == per_wolf((1, 1), (0, 1), (0, 1), (0, 1))


def test_candidate_explosion_in_campaign_is_justified():
    # P02 runs and explodes in his campaign speech: the badge-swallow. His opportunities:
    # sign-up + explosion; P07 spoke before him, so nobody else had a campaign speech.
    g = Game().night("P05")
    g.answer(P02="run", P07="run")
    while g.pending.options.keys() != {"P02"}:
        g.answer()
    g.answer(P02="explode")
    assert metric(g, "wolf_needless_explosion") == per_wolf((0, 1), (0, 2), (0, 1), (0, 1))


def test_discussion_explosion_without_pressure_is_needless():
    # Peaceful night, no sheriff; the discussion opens P12, P01, P02, then P03 explodes.
    # P01, P02: sign-up + speech; P03: sign-up + explosion; P04: sign-up.
    g = Game().night(None).no_election()
    g.speak_all(explode="P03")
    assert g.step is Step.WOLVES
    assert metric(g, "wolf_needless_explosion") == per_wolf((0, 2), (0, 2), (1, 2), (0, 1))


def test_explosion_in_own_exile_pk_is_justified():
    # P05 votes P01, P06 votes P07: a tie, so P01 and P07 go to the PK and P01 explodes.
    # Each wolf: sign-up + discussion speech; P01 adds the explosion.
    g = Game().night(None).no_election().to_vote()
    g.vote(P05="P01", P06="P07")
    assert g.step is Step.EXILE_PK_SPEECH
    g.speak_all(explode="P01")
    assert metric(g, "wolf_needless_explosion") == per_wolf((0, 3), (0, 2), (0, 2), (0, 2))


def test_explosion_one_kill_from_win_is_justified():
    # N1 kills P05, D1 exiles P06, N2 kills P07: P08 is the last villager, so tonight's
    # kill can win and P01's discussion explosion on Day 2 skips a vote: a tempo play.
    g = Game().night("P05").no_election().to_vote()
    g.exile_by("P06", ["P01", "P02"])
    g.speak_all().night("P07")
    g.speak_all(explode="P01")
    # P01: sign-up, D1 speech, explosion (P08 opens D2 and P01 is next).
    assert metric(g, "wolf_needless_explosion")["P01"] == (0, 3)


def test_last_wolf_exploding_is_needless_even_in_his_pk():
    # 8-arena (no sheriff): D1 every good player exiles P02; D2 P01 and P05 tie 2-2 and
    # P01, now the last wolf, explodes in the PK, handing the good camp the win.
    g = Game("8-arena").night(None).to_vote()
    g.vote({s: "P02" for s in ("P03", "P04", "P05", "P06", "P07", "P08")})
    g.speak_all().night(None).to_vote()
    g.vote(P03="P01", P04="P01", P06="P05", P08="P05")
    assert g.step is Step.EXILE_PK_SPEECH
    g.speak_all(explode="P01")
    assert g.over
    # P01: D1 speech, D2 speech, explosion. P02: D1 speech.
    assert metric(g, "wolf_needless_explosion") == {"P01": (1, 3), "P02": (0, 1)}


def test_explosions_not_allowed_have_no_opportunities():
    g = Game(variants={"allow_wolf_self_explode": False}).night(None).no_election().to_vote()
    table = blunders(g.events, explosions_allowed=False)
    assert all(m["wolf_needless_explosion"] == (0, 0) for m in table.values())


# --- Witch, Seer, Hunter ----------------------------------------------------------------


def flipped_idiot_game() -> Game:
    """12-B: N1 the Seer checks P06; D1 the good camp exiles P12, who flips as the Idiot;
    N2 the Seer checks P12 (public) and the Witch poisons him; D2 the Seer votes P06 and
    two wolves exile P07; N3 the Seer checks P06 again."""
    g = Game("12-B").night(None, seer="P06").no_election().to_vote()
    g.vote({s: "P12" for s in GOOD_12})
    assert g.state.seat("P12").idiot_flipped
    g.night(None, seer="P12", poison="P12").to_vote()
    g.vote(P09="P06", P01="P07", P02="P07")
    return g.speak_all().night(None, seer="P06")


def test_seer_rechecks_a_known_seat_and_a_public_one():
    g = flipped_idiot_game()
    # Checks P06 (new), P12 (public since his flip), P06 (already checked).
    assert metric(g, "seer_recheck") == {"P09": (2, 3)}
    # Ballots: D1 on P12 (never checked), D2 on P06 (checked good on N1).
    assert metric(g, "seer_ballot_on_checked_good") == {"P09": (1, 2)}


def test_witch_poisons_a_revealed_good_player_counted_once_overall():
    g = flipped_idiot_game()
    assert metric(g, "witch_poisons_good") == {"P10": (1, 1)}
    assert metric(g, "witch_poisons_revealed_good") == {"P10": (1, 1)}
    table = blunders(g.events)
    # Witch: one poison (two metrics, one decision) + D1 and D2 ballots.
    assert table["P10"][OVERALL] == (1, 3)
    # Seer: three checks and two ballots, three of them blunders.
    assert table["P09"][OVERALL] == (3, 5)


def test_witch_poison_on_a_wolf_is_no_blunder():
    g = Game().night(None, poison="P01")
    assert metric(g, "witch_poisons_good") == {"P10": (0, 1)}
    assert metric(g, "witch_poisons_revealed_good") == {"P10": (0, 1)}


def test_hunter_shooting_the_flipped_idiot():
    g = Game("12-B").night(None).no_election().to_vote()
    g.vote({s: "P12" for s in GOOD_12})
    g.night("P11")
    assert g.step is Step.HUNTER_SHOT
    g.answer(P11="P12")
    assert metric(g, "hunter_shoots_good") == {"P11": (1, 1)}
    assert metric(g, "hunter_shoots_revealed_good") == {"P11": (1, 1)}


def test_hunter_shooting_a_hidden_villager_a_wolf_or_nobody():
    g = Game().night("P11").no_election().answer(P11="P05")
    assert metric(g, "hunter_shoots_good") == {"P11": (1, 1)}
    assert metric(g, "hunter_shoots_revealed_good") == {"P11": (0, 1)}
    g = Game().night("P11").no_election().answer(P11="P01")
    assert metric(g, "hunter_shoots_good") == {"P11": (0, 1)}
    g = Game().night("P11").no_election().answer(P11="none")
    assert metric(g, "hunter_shoots_good") == {}  # a declined shot is no shot


# --- exile ballots ----------------------------------------------------------------------


def test_wolves_voting_for_teammates():
    # P01 votes teammate P02, P04 votes teammate P01, P02 votes P05, P03 abstains.
    g = Game().night(None).no_election().to_vote()
    g.vote(P01="P02", P02="P05", P04="P01")
    assert metric(g, "wolf_votes_teammate_out") == per_wolf((1, 1), (0, 1), (0, 1), (1, 1))
    # Good voters: one ballot each (abstentions), none on a revealed player.
    assert metric(g, "good_ballot_on_revealed_good") == {s: (0, 1) for s in [*GOOD_12, "P12"]}


def test_good_ballot_on_a_revealed_good_player():
    # The engine forbids ballots on a flipped Idiot, and other revealed good players are
    # dead, so a real game cannot show this blunder: append the ballot another rule set
    # would allow, after a real flip, and check that it is caught.
    g = Game("12-B").night(None).no_election().to_vote()
    g.vote({s: "P12" for s in GOOD_12})
    g.night(None).to_vote()
    ballot = Event(
        kind=EventKind.BALLOT,
        day=2,
        phase="exile_vote",
        audience=Audience.PUBLIC,
        actor="P05",
        target="P12",
        value="exile",
        weight=1.0,
        round=1,
    )
    table = blunders([*g.events, ballot])
    # P05: D1 ballot on the hidden P12, then the ballot on the flipped P12.
    assert table["P05"]["good_ballot_on_revealed_good"] == (1, 2)
    assert table["P06"]["good_ballot_on_revealed_good"] == (0, 1)


# --- public reveals ---------------------------------------------------------------------


def test_reveals_come_from_public_events_only():
    g = Game().night("P11").no_election().answer(P11="none")
    assert revealed_before(g.events)[-1] == frozenset()  # declined: hidden
    assert len(revealed_before(g.events)) == len(g.events) + 1
    g = Game().night("P11").no_election().answer(P11="P01")
    assert revealed_before(g.events)[-1] == {"P11"}
    g = Game(variants={"reveal_role_on_death": True}).night("P05").no_election().to_vote()
    g.exile_by("P06", ["P01"])
    assert revealed_before(g.events)[-1] == {"P05", "P06"}


# --- aggregation ------------------------------------------------------------------------


def test_total_group_by_and_merge():
    g = Game().night(proposals={"P01": "P01", "P02": "P03", "P03": "P05", "P04": "P03"})
    table = blunders(g.events)
    assert set(table) == {f"P{i:02d}" for i in range(1, 13)}
    assert all(set(m) == set(METRICS) for m in table.values())
    assert total(table)["wolf_self_kill"] == (3, 4)
    assert total(table, ["P01", "P03"])["wolf_self_kill"] == (1, 2)
    labels = {s: "m1" if s in ("P01", "P02") else "m2" for s in table}
    groups = group_by(table, labels)
    assert groups["m1"]["wolf_self_kill"] == (2, 2)
    assert groups["m2"]["wolf_self_kill"] == (1, 2)
    assert groups["m2"]["seer_recheck"] == (0, 1)  # P09 checked P01
    both = merge([groups, groups])
    assert both["m1"]["wolf_self_kill"] == (4, 4)
    assert Tally(3, 4).rate == 0.75 and Tally(0, 0).rate is None


def test_random_games_stay_consistent():
    for seed in range(5):
        _, events = play_random_game(make_config("12-B", seed=seed))
        for seat, metrics in blunders(events).items():
            for name, tally in metrics.items():
                assert 0 <= tally.count <= tally.opportunities, (seed, seat, name)
            # A decision counts once overall, so overall never exceeds the metrics' sum.
            parts = [t for n, t in metrics.items() if n not in NOT_IN_OVERALL | {OVERALL}]
            assert metrics[OVERALL].opportunities <= sum(t.opportunities for t in parts)
            assert metrics[OVERALL].opportunities >= max(t.opportunities for t in parts)
