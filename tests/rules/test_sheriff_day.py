"""RULES §4 (sheriff), §5 (announcements, last words), §6 (discussion and exile vote)."""

import pytest

from autowerewolf.rules.decisions import Action, IllegalAction
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.state import BadgeStatus, Step
from tests.rules.rules_helpers import Game

# Default 12-A layout: P01-P04 wolves, P05-P08 villagers, P09 seer, P10 witch,
# P11 hunter, P12 guard.


def discussion_order(g: Game) -> list[str]:
    start = len(g.events)
    g.speak_all()
    return [e.actor for e in g.of(EventKind.SPEECH, since=start) if e.value == "discussion"]


def last_words(g: Game) -> list[str]:
    return g.speeches("last_words")


# --- §4 Sheriff -------------------------------------------------------------------------


def test_rules_4_sheriff_ballot_weighs_1_5():
    """RULES §4: the sheriff's exile ballot weighs 1.5."""
    g = Game().night(None).elect("P07").to_vote()
    g.vote(P07="P05", P01="P06")
    assert not g.alive("P05") and g.alive("P06")
    weights = {e.actor: e.weight for e in g.of(EventKind.BALLOT) if e.value == "exile"}
    assert weights["P07"] == 1.5 and weights["P01"] == 1.0


def test_rules_4_sheriff_vote_weight_flag():
    """RULES §4 sheriff_vote_weight: configurable (2.0 here beats two votes after a PK? no:
    2.0 ties two plain votes -> PK)."""
    g = Game(variants={"sheriff_vote_weight": 2.0}).night(None).elect("P07").to_vote()
    g.vote(P07="P05", P01="P06", P02="P06")
    assert g.step == Step.EXILE_PK_SPEECH


def test_rules_4_sheriff_weight_applies_in_pk_revote():
    """RULES §4/§6: 1.5 still applies in the PK revote; tied players do not vote."""
    g = Game().night(None).elect("P07").to_vote()
    g.vote(P01="P05", P02="P06")
    assert g.step == Step.EXILE_PK_SPEECH and g.state.vote.candidates == ("P05", "P06")
    g.speak_all()
    assert g.step == Step.EXILE_VOTE
    voters = set(g.pending.options)
    assert "P05" not in voters and "P06" not in voters and "P07" in voters
    assert all(set(o) == {"P05", "P06", "abstain"} for o in g.pending.options.values())
    g.vote(P07="P05", P01="P06")
    assert not g.alive("P05") and g.alive("P06")


def test_rules_4_sheriff_direction_clockwise_sheriff_last():
    """RULES §4/§6: sheriff picks the direction, everyone speaks once, sheriff last."""
    g = Game().night("P05").elect("P07").answer(P05="speak")  # last words first
    assert g.step == Step.SHERIFF_DIRECTION and g.pending.options == {
        "P07": ("clockwise", "counterclockwise")
    }
    g.answer(P07="clockwise")
    order = discussion_order(g)
    assert order == ["P08", "P09", "P10", "P11", "P12", "P01", "P02", "P03", "P04", "P06", "P07"]


def test_rules_4_sheriff_direction_counterclockwise_sheriff_last():
    """RULES §4/§6: counter-clockwise direction, sheriff still last."""
    g = Game().night("P05").elect("P07").answer(P05="speak")
    g.answer(P07="counterclockwise")
    order = discussion_order(g)
    assert order == ["P06", "P04", "P03", "P02", "P01", "P12", "P11", "P10", "P09", "P08", "P07"]
    assert g.of(EventKind.DIRECTION)[0].value == "counterclockwise"


def test_rules_4_exiled_sheriff_passes_badge():
    """RULES §4: on the sheriff's death he passes the badge to a living player."""
    g = Game().night("P05").elect("P07").to_vote()
    g.exile_by("P07", ["P01", "P02"])
    assert g.step == Step.BADGE
    opts = g.options("P07")
    assert "P07" not in opts and "P05" not in opts and "tear" in opts
    g.answer(P07="P08")
    assert g.state.sheriff == "P08" and g.state.badge is BadgeStatus.HELD
    g.speak_all()  # exile last words
    assert g.step == Step.WOLVES
    g.night(None)
    assert g.step == Step.SHERIFF_DIRECTION and set(g.pending.options) == {"P08"}


def test_rules_4_sheriff_tears_badge():
    """RULES §4: tearing the badge loses it for the game; no direction afterwards."""
    g = Game().night(None).elect("P07").to_vote()
    g.exile_by("P07", ["P01", "P02"]).answer(P07="tear")
    assert g.state.sheriff is None and g.state.badge is BadgeStatus.LOST
    g.speak_all().night("P09")
    assert g.step == Step.DISCUSSION


def test_rules_4_night_killed_sheriff_decides_when_announced():
    """RULES §4: a sheriff killed at night decides the badge when the death is announced."""
    g = Game().night(None).elect("P07").to_vote().vote()
    g.night("P07")
    assert g.of(EventKind.DEATHS_ANNOUNCED)[-1].targets == ("P07",)
    assert g.step == Step.BADGE
    g.answer(P07="P09")
    assert g.step == Step.SHERIFF_DIRECTION and "P09" in g.pending.options


# --- §5 Announcements and last words ----------------------------------------------------


def test_rules_5_deaths_announced_in_seat_order_without_cause_or_role():
    """RULES §5: deaths announced by seat only, in seat order: no cause, no role."""
    g = Game().night("P08", poison="P06").no_election()
    (ann,) = g.of(EventKind.DEATHS_ANNOUNCED)
    assert ann.targets == ("P06", "P08") and ann.value == "deaths"
    assert ann.text is None and ann.target is None and ann.actor is None
    public = g.public()
    assert not [e for e in public if e.kind is EventKind.DEATH]


def test_rules_5_peaceful_night():
    """RULES §5: no deaths -> 'peaceful night'."""
    g = Game().night("P05", save=True).no_election()
    (ann,) = g.of(EventKind.DEATHS_ANNOUNCED)
    assert ann.targets == () and ann.value == "peaceful_night"


def test_rules_5_night_1_last_words_for_every_night_1_death():
    """RULES §5: every Night-1 death speaks last words, any cause, in seat order."""
    g = Game().night("P08", poison="P06").no_election()
    assert g.step == Step.LAST_WORDS
    g.speak_all()
    assert last_words(g) == ["P06", "P08"]


def test_rules_5_no_last_words_for_later_nights():
    """RULES §5: deaths on later nights get no last words."""
    g = Game().night(None).no_election().to_vote().vote()
    g.night("P08", poison="P06")
    assert g.step == Step.DISCUSSION
    assert last_words(g) == []


def test_rules_5_exiled_player_gets_last_words():
    """RULES §5: every exiled player gets last words."""
    g = Game().night(None).no_election().to_vote()
    g.exile_by("P06", ["P01"])
    assert g.step == Step.LAST_WORDS and set(g.pending.options) == {"P06"}
    g.speak_all()
    assert last_words(g) == ["P06"]


def test_rules_5_no_last_words_for_exploded_wolf():
    """RULES §5: self-exploded wolves get no last words."""
    g = Game().night(None).no_election()
    g.speak_all(explode="P01")
    assert not g.alive("P01") and last_words(g) == []
    assert g.step == Step.WOLVES


# --- §6 Discussion and exile vote -------------------------------------------------------


def test_rules_6_default_order_starts_after_lowest_dead_seat():
    """RULES §6: without a sheriff, speaking starts after the lowest-seat player who died
    last night."""
    g = Game().night("P08", poison="P05").no_election().speak_all()
    assert g.step == Step.EXILE_VOTE
    order = [e.actor for e in g.of(EventKind.SPEECH) if e.value == "discussion"]
    assert order == ["P06", "P07", "P09", "P10", "P11", "P12", "P01", "P02", "P03", "P04"]


def test_rules_6_default_order_after_peaceful_night_seeded_random_start():
    """RULES §6: after a peaceful night, start at a seeded random seat (and go round)."""
    starts = set()
    for seed in range(8):
        orders = []
        for _ in range(2):
            g = Game(seed=seed).night(None).no_election()
            orders.append(discussion_order(g))
        assert orders[0] == orders[1]
        order = orders[0]
        i = int(order[0][1:]) - 1
        seats = [f"P{k:02d}" for k in range(1, 13)]
        assert order == seats[i:] + seats[:i]
        starts.add(order[0])
    assert len(starts) > 1


def test_rules_6_each_living_player_speaks_once():
    """RULES §6: each living player speaks once per day."""
    g = Game().night("P05").no_election()
    g.speak_all()
    order = [e.actor for e in g.of(EventKind.SPEECH) if e.value == "discussion"]
    assert sorted(order) == sorted(g.state.living) and len(order) == 11


def test_rules_6_exile_vote_voters_targets_and_published_ballots():
    """RULES §6: simultaneous vote of living players; any living player but oneself;
    abstain allowed; all ballots are published."""
    g = Game().night("P05").no_election().to_vote()
    p = g.pending
    assert p.simultaneous and set(p.options) == set(g.state.living)
    for voter, opts in p.options.items():
        assert voter not in opts and "P05" not in opts and "abstain" in opts
    g.vote(P01="P06", P02="P06", P09="P01")
    ballots = [e for e in g.public() if e.kind is EventKind.BALLOT]
    assert len(ballots) == 11
    assert {e.actor: e.target for e in ballots if e.target} == {
        "P01": "P06",
        "P02": "P06",
        "P09": "P01",
    }
    assert not g.alive("P06")
    (ex,) = g.of(EventKind.EXILE)
    assert ex.target == "P06" and ex.value == "exiled"


def test_rules_6_cannot_vote_for_oneself():
    """RULES §6: targets exclude oneself."""
    g = Game().night(None).no_election().to_vote()
    answers = {**g.answers_for({}), "P05": Action(option="P05")}
    with pytest.raises(IllegalAction, match="P05 chose 'P05'"):
        g.raw(answers)


def test_rules_6_all_abstain_nobody_exiled():
    """RULES §6: everyone abstains -> nobody is exiled; night falls."""
    g = Game().night(None).no_election().to_vote().vote()
    (ex,) = g.of(EventKind.EXILE)
    assert ex.value == "nobody" and ex.target is None
    assert g.step == Step.WOLVES and g.state.day == 2 and len(g.state.living) == 12


def test_rules_6_tie_pk_then_second_tie_no_exile():
    """RULES §6: tie -> PK speeches by the tied, revote by the others; second tie -> none."""
    g = Game().night(None).no_election().to_vote()
    g.vote(P01="P05", P02="P06", P03="P07", P04="P07", P08="P06")
    assert g.step == Step.EXILE_PK_SPEECH
    pk = g.speakers(Step.EXILE_PK_SPEECH)
    assert sorted(pk) == ["P06", "P07"]
    assert set(g.pending.options) == set(g.state.living) - {"P06", "P07"}
    g.vote(P01="P06", P02="P07")
    assert all(s.alive for s in g.state.seats)
    assert g.of(EventKind.EXILE)[-1].value == "nobody"
    assert g.step == Step.WOLVES and g.state.day == 2


def test_rules_6_pk_revote_exiles_the_leader():
    """RULES §6: the PK revote exiles its leader."""
    g = Game().night(None).no_election().to_vote()
    g.vote(P01="P05", P02="P06").speak_all()
    g.vote(P01="P06", P02="P06", P03="P05")
    assert not g.alive("P06") and g.alive("P05")


def majority_game(board: str = "12-A") -> Game:
    variants = {"exile_needs_majority": True} if board == "12-A" else None
    g = Game(board, variants=variants).night(None)
    if g.step == Step.ELECTION_SIGNUP:
        g.no_election()
    return g.to_vote()


def test_rules_6_exile_needs_majority_no_majority_no_exile():
    """RULES §6 [V] exile_needs_majority: a plurality without a majority exiles nobody."""
    g = majority_game()
    g.vote(
        P01="P12",
        P02="P12",
        P03="P12",
        P04="P12",
        P05="P12",
        P06="P11",
        P07="P11",
        P08="P11",
        P09="P10",
        P10="P09",
        P11="P10",
    )
    assert all(s.alive for s in g.state.seats)
    assert g.of(EventKind.EXILE)[-1].value == "nobody"
    assert g.step == Step.WOLVES


def test_rules_6_exile_needs_majority_majority_exiles():
    """RULES §6 [V] exile_needs_majority: more than half of the votes -> exiled."""
    g = majority_game()
    g.exile_by("P12", ["P01", "P02", "P03", "P04", "P05", "P06", "P07"])
    assert not g.alive("P12")


def test_rules_6_exile_needs_majority_counts_votes_cast():
    """RULES §6 [V] exile_needs_majority: "more than half of the votes cast" (the engine
    leaves abstentions out): 6 votes against 5 with one abstention exiles."""
    g = majority_game()
    g.vote(
        P01="P12",
        P02="P12",
        P03="P12",
        P04="P12",
        P05="P12",
        P06="P12",
        P07="P11",
        P08="P11",
        P09="P11",
        P10="P11",
        P11="P10",
    )
    assert not g.alive("P12")


def test_rules_6_exile_needs_majority_tie_still_goes_to_pk():
    """RULES §6 [V] exile_needs_majority: a tie is still a tie (PK)."""
    g = majority_game()
    g.vote(P01="P12", P02="P11")
    assert g.step == Step.EXILE_PK_SPEECH


def test_rules_6_plurality_enough_by_default():
    """RULES §6 [D]: the highest total is exiled even without a majority."""
    g = Game().night(None).no_election().to_vote()
    g.vote(P01="P12", P02="P12", P03="P11")
    assert not g.alive("P12")


def test_rules_6_majority_on_8_arena():
    """RULES §6: exile_needs_majority is on in 8-arena."""
    g = majority_game("8-arena")  # P01-P02 wolves, P03-P06 villagers, P07 seer, P08 guard
    g.vote(P01="P03", P02="P03", P04="P03", P05="P04", P06="P04", P07="P05", P08="P05")
    assert g.alive("P03") and g.alive("P04")
    g.night(None).to_vote()
    g.vote(P01="P03", P02="P03", P04="P03", P05="P03", P06="P04", P07="P04", P08="P04")
    assert not g.alive("P03")


def test_rules_6_wolf_explodes_in_discussion_day_cancelled():
    """RULES §6: a wolf explodes in place of his speech: dies at once, revealed as a wolf,
    the rest of the day (speeches, vote) is cancelled; night falls."""
    g = Game().night(None).no_election()
    start = len(g.events)
    g.speak_all(explode="P02")
    assert not g.alive("P02") and g.state.seat("P02").revealed
    assert g.step == Step.WOLVES and g.state.day == 2
    assert not g.of(EventKind.BALLOT, since=start)
    (boom,) = g.of(EventKind.SELF_EXPLOSION)
    assert boom.value == "werewolf" and boom.actor == "P02"


def test_rules_6_explode_only_in_own_speech():
    """RULES §6 (engine design): a wolf explodes in place of his own speech only."""
    g = Game().night(None).no_election()
    (who,) = g.pending.options
    assert g.options(who) == (
        ("speak", "explode") if who in ("P01", "P02", "P03", "P04") else ("speak",)
    )


def test_rules_6_wolf_explodes_in_exile_pk_speech():
    """RULES §6: a wolf may explode in his exile-PK speech."""
    g = Game().night(None).no_election().to_vote()
    g.vote(P05="P01", P06="P07")
    while g.pending.options.keys() != {"P01"}:
        g.answer()
    g.answer(P01="explode")
    assert not g.alive("P01") and g.alive("P07")
    assert g.step == Step.WOLVES and g.state.day == 2


def test_rules_6_exploding_sheriff_passes_badge():
    """RULES §6: a self-exploding sheriff passes or tears the badge."""
    g = Game().night(None).elect("P01").answer(P01="clockwise")
    g.speak_all(explode="P01")
    assert g.step == Step.BADGE and set(g.pending.options) == {"P01"}
    g.answer(P01="P02")
    assert g.state.sheriff == "P02" and g.step == Step.WOLVES


def test_rules_6_without_sheriff_plain_one_vote_exile():
    """RULES §3/§6: sheriff off -> plain 1-vote exile."""
    g = Game(variants={"sheriff_enabled": False}).night(None)
    assert g.step == Step.DISCUSSION
    g.to_vote()
    g.vote(P01="P05", P02="P06")
    assert g.step == Step.EXILE_PK_SPEECH
    assert all(e.weight == 1.0 for e in g.of(EventKind.BALLOT))
