"""RULES §9: what every player may know, checked on seat views (views.seat_view)."""

from autowerewolf.rules.events import EventKind
from autowerewolf.rules.roles import Camp, Role
from autowerewolf.rules.views import public_players, seat_view
from tests.rules.rules_helpers import Game, leaks

SEATS = [f"P{i:02d}" for i in range(1, 13)]


def view(g: Game, seat: str):
    return seat_view(g.state, g.events, seat)


def kinds(g: Game, seat: str) -> set[EventKind]:
    return {e.kind for e in view(g, seat).events}


def played_night(**kw) -> Game:
    return Game().night("P05", seer="P01", poison="P06", guard="P07", **kw)


def test_rules_9_no_view_leaks_after_a_busy_night_and_day():
    """RULES §9: nobody's view holds another seat's hidden role, private result or night
    choice (scanned against the omniscient truth for every seat)."""
    g = played_night().elect("P11")
    for s in SEATS:
        assert leaks(g.state, view(g, s)) == [], s
    g.speak_all()
    g.exile_by("P11", ["P01", "P02"]).answer(P11="P02")
    for s in SEATS:
        assert leaks(g.state, view(g, s)) == [], s


def test_rules_9_villager_knows_only_own_role_and_public_events():
    """RULES §9: a villager sees own role and public events only."""
    g = played_night()
    v = view(g, "P08")
    assert v.role is Role.VILLAGER and v.camp is Camp.GOOD and v.teammates == ()
    private = {
        EventKind.DEAL,
        EventKind.DEATH,
        EventKind.WOLF_PROPOSAL,
        EventKind.WOLF_TARGET,
        EventKind.WOLF_TEAM,
        EventKind.SEER_RESULT,
        EventKind.WITCH_INFO,
        EventKind.WITCH_POISON,
        EventKind.GUARD,
    }
    assert not kinds(g, "P08") & private
    roles = [e for e in v.events if e.kind is EventKind.ROLE]
    assert [(e.seat, e.value) for e in roles] == [("P08", Role.VILLAGER)]


def test_rules_9_wolves_know_teammates_and_wolf_channel():
    """RULES §9: wolves see teammates and the wolf channel (proposals, target)."""
    g = played_night()
    v = view(g, "P03")
    assert set(v.teammates) == {"P01", "P02", "P04"}
    assert {EventKind.WOLF_TEAM, EventKind.WOLF_PROPOSAL, EventKind.WOLF_TARGET} <= kinds(g, "P03")
    assert EventKind.SEER_RESULT not in kinds(g, "P03")


def test_rules_9_seer_sees_only_her_results():
    """RULES §9: the Seer sees her own results only."""
    g = played_night()
    assert EventKind.SEER_RESULT in kinds(g, "P09")
    assert all(EventKind.SEER_RESULT not in kinds(g, s) for s in SEATS if s != "P09")


def test_rules_9_witch_sees_target_and_own_potions_only():
    """RULES §9: the Witch sees the target (under §2) and her own potion use."""
    g = played_night()
    k = kinds(g, "P10")
    assert {EventKind.WITCH_INFO, EventKind.WITCH_POISON} <= k
    assert EventKind.GUARD not in k and EventKind.WOLF_TARGET not in k
    v = view(g, "P10")
    assert v.cure_available is True and v.poison_available is False
    assert view(g, "P05").cure_available is None


def test_rules_9_guard_learns_nothing_about_the_outcome():
    """RULES §9: the Guard sees his own choice only; nothing about the target."""
    g = played_night()
    k = kinds(g, "P12")
    assert EventKind.GUARD in k
    assert not k & {EventKind.WITCH_INFO, EventKind.WOLF_TARGET, EventKind.DEATH}
    assert view(g, "P12").last_guarded == "P07"
    assert view(g, "P11").last_guarded is None


def test_rules_9_night_dead_look_alive_until_announced():
    """RULES §3/§9: during the Day-1 election the night's dead are publicly alive."""
    g = played_night()
    players = {p.seat: p for p in view(g, "P08").players}
    assert players["P05"].alive and players["P06"].alive
    g.no_election()
    players = {p.seat: p for p in view(g, "P08").players}
    assert not players["P05"].alive and not players["P06"].alive
    assert players["P05"].revealed_role is None


def test_rules_9_revealed_roles_are_public():
    """RULES §1/§9: Hunter shot, Idiot flip, self-explosion reveal roles publicly."""
    g = Game().night("P11").no_election().answer(P11="P01")
    players = {p.seat: p for p in view(g, "P05").players}
    assert players["P11"].revealed_role is Role.HUNTER
    assert players["P01"].revealed_role is None  # the shot player's role stays hidden
    g.speak_all(explode="P02")
    players = {p.seat: p for p in view(g, "P05").players}
    assert players["P02"].revealed_role is Role.WEREWOLF
    assert leaks(g.state, view(g, "P05")) == []


def test_rules_9_options_only_for_the_deciding_seat():
    """RULES §9: each seat sees only its own options (the withdrawal call asks wolves
    privately)."""
    g = Game().night(None).answer(P05="run", P06="run")
    g.speak_all()
    assert g.step == "election_withdraw"
    assert view(g, "P01").options == ("none", "explode")
    assert view(g, "P07").options == () and view(g, "P07").decision_key is None
    assert view(g, "P05").options == ("stay", "withdraw")


def test_rules_9_hunter_decline_is_not_public():
    """RULES §9: a declined shot is not shown to anyone."""
    g = Game().night("P11").no_election().answer(P11="none")
    assert all(EventKind.HUNTER_SHOT not in kinds(g, s) for s in SEATS)


def test_rules_9_reveal_variant_views():
    """RULES §1 [V] reveal_role_on_death: dead players' roles become public in views."""
    g = Game(variants={"reveal_role_on_death": True}).night("P05").no_election()
    players = {p.seat: p for p in view(g, "P08").players}
    assert players["P05"].revealed_role is Role.VILLAGER
    assert leaks(g.state, view(g, "P08")) == []


def test_rules_9_views_built_together_share_the_public_player_facts():
    """RULES §9: the public facts about the seats are the same for every seat, so views built
    for several seats at once may share one build of them and stay equal to lone views."""
    g = played_night().elect("P11")
    players = public_players(g.state)
    for s in SEATS:
        together = seat_view(g.state, g.events, s, players=players)
        assert together == view(g, s)
