"""RULES §3: the Day-1 sheriff election."""

import pytest

from autowerewolf.rules.decisions import Action, IllegalAction
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.state import BadgeStatus, Step
from tests.rules.rules_helpers import Game

ALL = [f"P{i:02d}" for i in range(1, 13)]


def sheriff_events(g: Game) -> list[tuple[str | None, str | None]]:
    return [(e.value, e.target) for e in g.of(EventKind.SHERIFF)]


def campaign(g: Game, runners: list[str]) -> Game:
    """Sign-up with `runners`, then every campaign speech."""
    g.answer({r: "run" for r in runners})
    assert g.step == Step.ELECTION_SPEECH
    speakers = g.speakers(Step.ELECTION_SPEECH)
    assert sorted(speakers) == sorted(runners)
    assert g.step == Step.ELECTION_WITHDRAW
    return g


def test_rules_3_no_election_without_sheriff():
    """RULES §3: sheriff off (8-arena) -> no election, no badge; straight to announcements."""
    g = Game("8-arena").night("P03")
    assert g.step == Step.LAST_WORDS  # Night-1 death announced, no election
    assert g.state.badge is BadgeStatus.DISABLED and not g.of(EventKind.SHERIFF)


def test_rules_3_election_before_deaths_announced_dead_can_run_and_vote():
    """RULES §3: the election happens before Night-1 deaths are announced, so the night's
    dead still run, speak and vote."""
    g = Game().night("P05", poison="P06")
    assert g.step == Step.ELECTION_SIGNUP
    assert not g.of(EventKind.DEATHS_ANNOUNCED)
    assert "P05" in g.pending.options and "P06" in g.pending.options
    campaign(g, ["P05", "P07"])
    g.answer()
    assert "P06" in g.pending.options and "P05" not in g.pending.options
    g.vote(P06="P05", P08="P05")
    assert g.state.sheriff == "P05"
    # then the deaths are announced and the dead sheriff handles the badge
    (ann,) = g.of(EventKind.DEATHS_ANNOUNCED)
    assert ann.targets == ("P05", "P06")
    assert g.step == Step.BADGE and g.pending.options.keys() == {"P05"}


def test_rules_3_zero_candidates_badge_lost():
    """RULES §3: 0 candidates -> badge lost for the game."""
    g = Game().night("P05").no_election()
    assert g.state.badge is BadgeStatus.LOST and g.state.sheriff is None
    assert sheriff_events(g) == [("lost", None)]


def test_rules_3_all_players_run_badge_lost():
    """RULES §3: all players sign up -> badge lost (no voters)."""
    g = Game().night("P05")
    g.answer({s: "run" for s in ALL})
    assert g.state.badge is BadgeStatus.LOST
    assert g.step == Step.LAST_WORDS  # announcements follow


def test_rules_3_one_candidate_elected():
    """RULES §3: 1 candidate -> elected without a vote."""
    g = Game().night("P05").elect("P07")
    assert g.state.sheriff == "P07" and g.state.badge is BadgeStatus.HELD
    assert sheriff_events(g) == [("elected", "P07")]
    assert not g.of(EventKind.BALLOT)


def test_rules_3_signup_is_simultaneous():
    """RULES §3: sign-up is one simultaneous decision of every (publicly) living player."""
    g = Game().night("P05")
    p = g.pending
    assert p.simultaneous and sorted(p.options) == ALL
    assert all({"run", "pass"} <= set(o) for o in p.options.values())


def test_rules_3_candidates_speak_once_each_then_withdrawal_call():
    """RULES §3: candidates speak once each, then may withdraw until the vote."""
    g = campaign(Game().night("P05"), ["P05", "P07", "P09"])
    opts = g.pending.options
    for c in ("P05", "P07", "P09"):
        assert set(opts[c]) >= {"stay", "withdraw"}
    assert g.speeches("campaign") and len(g.speeches("campaign")) == 3


def test_rules_3_withdrawal_down_to_one_elects():
    """RULES §3: 1 candidate left after withdrawals -> elected."""
    g = campaign(Game().night("P05"), ["P05", "P07", "P09"])
    g.answer(P05="withdraw", P07="withdraw")
    assert g.state.sheriff == "P09"
    assert [e.actor for e in g.of(EventKind.WITHDRAW)] == ["P05", "P07"]


def test_rules_3_withdrawal_down_to_zero_loses_badge():
    """RULES §3: 0 left -> badge lost."""
    g = campaign(Game().night("P05"), ["P05", "P07"])
    g.answer(P05="withdraw", P07="withdraw")
    assert g.state.badge is BadgeStatus.LOST


def test_rules_3_only_never_signed_up_vote_candidates_and_withdrawn_do_not():
    """RULES §3: only players who never signed up vote; withdrawn candidates cannot vote."""
    g = campaign(Game().night("P05"), ["P05", "P07", "P09"])
    g.answer(P05="withdraw")
    assert g.step == Step.ELECTION_VOTE
    voters = set(g.pending.options)
    assert voters == set(ALL) - {"P05", "P07", "P09"}
    assert all(set(o) == {"P07", "P09", "abstain"} for o in g.pending.options.values())
    answers = {**g.answers_for({}), "P05": Action(option="P07")}
    with pytest.raises(IllegalAction, match="unexpected answers"):
        g.raw(answers)


def test_rules_3_most_votes_wins_one_vote_each():
    """RULES §3: 1 vote each, abstaining allowed, most votes wins."""
    g = campaign(Game().night("P05"), ["P07", "P09"])
    g.answer()
    g.vote(P01="P07", P02="P07", P03="P09")
    assert g.state.sheriff == "P07"
    ballots = [e for e in g.of(EventKind.BALLOT) if e.value == "election"]
    assert len(ballots) == 10 and all(e.weight == 1.0 for e in ballots)
    assert sum(e.target is None for e in ballots) == 7


def test_rules_3_no_valid_votes_badge_lost():
    """RULES §3: no valid votes -> badge lost."""
    g = campaign(Game().night("P05"), ["P07", "P09"])
    g.answer().vote()
    assert g.state.badge is BadgeStatus.LOST


def test_rules_3_tie_pk_then_second_tie_badge_lost():
    """RULES §3: tie -> PK speeches by the tied, revote by the same voters; second tie -> lost."""
    g = campaign(Game().night("P05"), ["P07", "P08", "P09"])
    g.answer()
    first_voters = set(g.pending.options)
    g.vote(P01="P07", P02="P08", P03="P09")
    assert g.step == Step.ELECTION_PK_SPEECH
    pk = g.speakers(Step.ELECTION_PK_SPEECH)
    assert sorted(pk) == ["P07", "P08", "P09"]
    assert g.step == Step.ELECTION_WITHDRAW  # withdrawal still possible
    g.answer()
    assert set(g.pending.options) == first_voters
    g.vote(P01="P07", P02="P08")
    assert g.state.badge is BadgeStatus.LOST and g.state.sheriff is None
    assert sheriff_events(g)[-1][0] == "lost"


def test_rules_3_tie_pk_only_tied_then_winner():
    """RULES §3: only the tied go to the PK; the revote is among them."""
    g = campaign(Game().night("P05"), ["P07", "P08", "P09"])
    g.answer().vote(P01="P07", P02="P08", P03="P09", P04="P09", P06="P08")
    assert g.step == Step.ELECTION_PK_SPEECH
    g.speak_all()
    g.answer()
    assert all(set(o) == {"P08", "P09", "abstain"} for o in g.pending.options.values())
    g.vote(P01="P09")
    assert g.state.sheriff == "P09"


def test_rules_3_pk_withdrawal_down_to_one_elects():
    """RULES §3: withdrawal still possible in the PK; one left -> elected."""
    g = campaign(Game().night("P05"), ["P07", "P08"])
    g.answer().vote(P01="P07", P02="P08")
    g.speak_all()
    assert g.step == Step.ELECTION_WITHDRAW
    g.answer(P07="withdraw")
    assert g.state.sheriff == "P08"


def test_rules_3_explosion_at_signup_single_badge_lost():
    """RULES §3/§6: wolf explodes at sign-up, [D] badge_swallow=single -> badge lost; the
    rest of the day is cancelled after the announcements; night falls."""
    g = Game().night("P05")
    g.answer(P01="explode", P07="run", P08="run")
    assert g.state.badge is BadgeStatus.LOST
    assert not g.alive("P01") and g.state.seat("P01").revealed
    (boom,) = g.of(EventKind.SELF_EXPLOSION)
    assert boom.actor == "P01" and boom.value == "werewolf"
    assert g.of(EventKind.DEATHS_ANNOUNCED)[0].targets == ("P05",)
    assert g.step == Step.LAST_WORDS  # Night-1 last words still happen
    g.speak_all()
    assert g.step == Step.WOLVES and g.state.day == 2
    assert not g.of(EventKind.BALLOT)


def test_rules_3_explosion_in_campaign_speech():
    """RULES §3/§6: a wolf candidate may explode in his own campaign speech."""
    g = Game().night("P05")
    g.answer(P02="run", P07="run")
    while g.pending.options.keys() != {"P02"}:
        g.answer()
    assert "explode" in g.options("P02")
    g.answer(P02="explode")
    assert not g.alive("P02") and g.state.badge is BadgeStatus.LOST


def test_rules_3_explosion_at_withdrawal_call_non_candidate_wolf():
    """RULES §3 (engine design): non-candidate wolves get none/explode at the withdrawal call."""
    g = campaign(Game().night("P05"), ["P07", "P08"])
    opts = g.pending.options
    assert set(opts) == {"P07", "P08", "P01", "P02", "P03", "P04"}
    assert set(opts["P03"]) == {"none", "explode"}
    assert "explode" not in opts["P07"]  # villager candidates cannot explode
    g.answer(P03="explode")
    assert not g.alive("P03") and g.state.badge is BadgeStatus.LOST


def test_rules_3_explosion_in_pk_speech():
    """RULES §3/§6: a wolf may explode in his own election PK speech."""
    g = campaign(Game().night("P05"), ["P02", "P07"])
    g.answer().vote(P01="P02", P05="P07")
    assert g.step == Step.ELECTION_PK_SPEECH
    while g.pending.options.keys() != {"P02"}:
        g.answer()
    g.answer(P02="explode")
    assert not g.alive("P02") and g.state.badge is BadgeStatus.LOST


def test_rules_3_simultaneous_explosions_lowest_seat_only():
    """RULES §3 (engine design): simultaneous explosions -> only the lowest seat explodes."""
    g = Game().night("P05")
    g.answer(P03="explode", P02="explode")
    assert not g.alive("P02") and g.alive("P03")
    assert [e.actor for e in g.of(EventKind.SELF_EXPLOSION)] == ["P02"]


def test_rules_3_dead_wolf_cannot_explode_villagers_cannot_explode():
    """RULES §6: only wolves may explode."""
    g = Game().night("P05")
    assert "explode" not in g.options("P05") and "explode" in g.options("P01")
    with pytest.raises(IllegalAction):
        g.answer(P05="explode")


def test_rules_3_explosion_disabled_variant():
    """RULES §6 [V] allow_wolf_self_explode=false: no explode option anywhere."""
    g = Game(variants={"allow_wolf_self_explode": False}).night("P05")
    assert all("explode" not in o for o in g.pending.options.values())
    g.answer(P01="run", P07="run")
    assert all("explode" not in o for o in g.pending.options.values())


def test_rules_3_double_swallow_postpones_to_day_2_with_same_candidates():
    """RULES §3 [V] badge_swallow=double: the first explosion postpones the election to Day 2
    with the same candidates."""
    g = Game(variants={"badge_swallow": "double"}).night("P05")
    campaign(g, ["P06", "P07", "P09"])
    g.answer(P04="explode")
    assert g.state.badge is BadgeStatus.UNDECIDED
    assert ("postponed", None) in sheriff_events(g)
    g.speak_all()  # Night-1 last words
    assert g.step == Step.WOLVES and g.state.day == 2
    g.night("P06")
    # Day 2: the election resumes before Night-2 deaths are announced, no new sign-up,
    # with the same candidates (the Night-2 dead P06 still counts).
    assert g.step == Step.ELECTION_SPEECH
    speakers = g.speakers(Step.ELECTION_SPEECH)
    assert sorted(speakers) == ["P06", "P07", "P09"]
    g.answer()
    assert "P06" not in g.pending.options  # candidates still do not vote
    g.vote(P01="P07")
    assert g.state.sheriff == "P07"
    assert g.of(EventKind.DEATHS_ANNOUNCED)[-1].targets == ("P06",)


def test_rules_3_double_swallow_second_explosion_loses_badge():
    """RULES §3 [V] badge_swallow=double: a second explosion loses the badge."""
    g = Game(variants={"badge_swallow": "double"}).night("P05")
    campaign(g, ["P02", "P07"])
    g.answer(P04="explode")
    g.speak_all()
    g.night(None)
    assert g.step == Step.ELECTION_SPEECH
    while g.pending.options.keys() != {"P02"}:
        g.answer()
    g.answer(P02="explode")
    assert g.state.badge is BadgeStatus.LOST
    assert [v for v, _ in sheriff_events(g)] == ["postponed", "lost"]
    assert g.step == Step.WOLVES and g.state.day == 3  # day 2 cancelled too


def test_rules_3_after_election_announce_chain_direction_discussion():
    """RULES §3: announce deaths -> death chain (shot, badge, last words) -> direction ->
    discussion."""
    g = Game().night("P11").elect("P07")  # hunter bitten on night 1
    kinds = [e.kind for e in g.events[-2:]]
    assert kinds == [EventKind.SHERIFF, EventKind.DEATHS_ANNOUNCED]
    assert g.step == Step.HUNTER_SHOT
    g.answer(P11="P01")
    assert g.step == Step.LAST_WORDS and g.pending.options.keys() == {"P11"}
    g.answer(P11="speak")
    assert g.step == Step.SHERIFF_DIRECTION
    g.answer(P07="clockwise")
    assert g.step == Step.DISCUSSION
