"""RULES §2: the night (wolves, seer, witch, guard) and its resolution at dawn."""

import pytest

from autowerewolf.rules.decisions import IllegalAction
from autowerewolf.rules.events import Audience, EventKind
from autowerewolf.rules.roles import Camp
from autowerewolf.rules.state import Cause, Step
from tests.rules.rules_helpers import Game

# Default 12-A layout: P01-P04 wolves, P05-P08 villagers, P09 seer, P10 witch,
# P11 hunter, P12 guard.


def night_steps(g: Game) -> list[Step]:
    seen = []
    while g.step in (Step.WOLVES, Step.SEER, Step.WITCH_CURE, Step.WITCH_POISON, Step.GUARD):
        seen.append(g.step)
        (who,) = g.pending.options
        g.answer({who: "none" if "none" in g.options(who) else g.options(who)[0]})
    return seen


def to_witch(g: Game, kill: str, check: str = "P01") -> Game:
    """Every living wolf proposes `kill` and the Seer checks `check`: the Witch is next."""
    while g.step == Step.WOLVES:
        (who,) = g.pending.options
        g.answer({who: kill})
    return g.answer(P09=check)


def dawn_dead(g: Game) -> tuple[str, ...]:
    """Seats that died at the last dawn (omniscient DEATH events of that dawn)."""
    return tuple(
        e.target
        for e in g.events
        if e.kind is EventKind.DEATH and e.phase == "dawn" and e.day == g.state.day
    )


def test_rules_2_decision_order_wolves_seer_witch_guard():
    """RULES §2: decision order Wolves -> Seer -> Witch -> Guard."""
    g = Game()
    seen = []
    while g.step not in (Step.ELECTION_SIGNUP,):
        seen.append(g.step)
        (who,) = g.pending.options
        pick = {"P01": "P05", "P02": "P05", "P03": "P05", "P04": "P05"}.get(who)
        g.answer({who: pick or ("none" if "none" in g.options(who) else g.options(who)[0])})
    assert seen == [Step.WOLVES] * 4 + [Step.SEER, Step.WITCH_CURE, Step.WITCH_POISON, Step.GUARD]


def test_rules_2_wolves_propose_one_at_a_time_in_seat_order_privately():
    """RULES §2 Wolves: each living wolf proposes (seat order) in the private wolf channel."""
    g = Game()
    asked = []
    for _ in range(4):
        (who,) = g.pending.options
        asked.append(who)
        g.answer({who: "P06"})
    assert asked == ["P01", "P02", "P03", "P04"]
    proposals = g.of(EventKind.WOLF_PROPOSAL)
    assert [(e.actor, e.target) for e in proposals] == [(w, "P06") for w in asked]
    assert all(e.audience is Audience.WOLVES for e in proposals)
    (target,) = g.of(EventKind.WOLF_TARGET)
    assert target.target == "P06" and target.audience is Audience.WOLVES


def test_rules_2_wolves_plurality_wins():
    """RULES §2 Wolves: plurality of proposals wins."""
    g = Game().night(proposals={"P01": "P05", "P02": "P06", "P03": "P06", "P04": "none"})
    assert g.state.night.wolf_target == "P06" or not g.alive("P06")
    assert not g.alive("P06") and g.alive("P05")


def test_rules_2_wolves_tie_broken_by_game_rng_deterministically():
    """RULES §2 Wolves: ties broken by the game RNG (seeded: same seed, same choice)."""
    chosen = set()
    for seed in range(12):
        results = []
        for _ in range(2):
            g = Game(seed=seed).night(
                proposals={"P01": "P05", "P02": "P05", "P03": "P06", "P04": "P06"}
            )
            (t,) = g.of(EventKind.WOLF_TARGET)
            assert t.value == "tie_broken" and set(t.targets) == {"P05", "P06"}
            results.append(t.target)
        assert results[0] == results[1]
        chosen.add(results[0])
    assert chosen == {"P05", "P06"}


def test_rules_2_empty_knife_allowed():
    """RULES §2 Wolves: an empty knife (no kill) is allowed -> peaceful night."""
    g = Game().night(None).no_election()
    (ann,) = g.of(EventKind.DEATHS_ANNOUNCED)
    assert ann.targets == () and ann.value == "peaceful_night"
    assert all(s.alive for s in g.state.seats)


def test_rules_2_empty_knife_plurality_of_none():
    """RULES §2 Wolves: 'none' counts as a proposal in the plurality."""
    g = Game().night(proposals={"P01": "none", "P02": "none", "P03": "none", "P04": "P05"})
    assert g.alive("P05")


def test_rules_2_wolf_self_knife_allowed_by_default():
    """RULES §2 [D] allow_wolf_self_knife: wolves may target a wolf."""
    g = Game()
    assert "P02" in g.options("P01") and "P01" in g.options("P01")
    g.night("P02").no_election()
    assert not g.alive("P02")


def test_rules_2_wolf_self_knife_forbidden_variant():
    """RULES §2 [V] allow_wolf_self_knife=false: wolves cannot target wolves."""
    g = Game(variants={"allow_wolf_self_knife": False})
    opts = g.options("P01")
    assert not {"P01", "P02", "P03", "P04"} & set(opts)
    assert "P05" in opts and "none" in opts
    with pytest.raises(IllegalAction):
        g.answer({"P01": "P02"})


def test_rules_2_seer_checks_living_other_and_learns_camp():
    """RULES §2 Seer: checks one living player other than herself; learns camp, not role."""
    g = Game()
    g.night("P05", seer="P01")
    g2 = Game().night(None, seer="P11")
    results = g.of(EventKind.SEER_RESULT) + g2.of(EventKind.SEER_RESULT)
    assert [(e.target, e.value) for e in results] == [("P01", Camp.WOLF), ("P11", Camp.GOOD)]
    assert all(e.audience is Audience.SEAT and e.seat == "P09" for e in results)
    # Night 2: the dead P05 and herself are not options; she must check someone.
    g.no_election().speak_all().vote()
    g.answer(P01="P06").answer(P02="P06").answer(P03="P06").answer(P04="P06")
    assert g.step == Step.SEER
    opts = g.options("P09")
    assert "P09" not in opts and "P05" not in opts and "none" not in opts


def test_rules_2_seer_gets_result_even_if_she_dies_that_night():
    """RULES §2 Seer: gets the result even if she dies that night."""
    g = Game().night("P09", seer="P02").no_election()
    assert not g.alive("P09")
    (r,) = g.of(EventKind.SEER_RESULT)
    assert r.seat == "P09" and r.target == "P02" and r.value == Camp.WOLF


def test_rules_2_witch_told_target_while_cure_unused():
    """RULES §2 Witch: told the kill target (seat-private) while her cure is unused."""
    g = Game().night("P05")
    (info,) = g.of(EventKind.WITCH_INFO)
    assert info.audience is Audience.SEAT and info.seat == "P10"
    assert info.target == "P05" and info.value == "attack"


def test_rules_2_witch_told_no_attack():
    """RULES §2 Witch: told 'no attack' after an empty knife; no cure decision then."""
    g = Game()
    steps = night_steps(g)
    (info,) = g.of(EventKind.WITCH_INFO)
    assert info.target is None and info.value == "no_attack"
    assert Step.WITCH_CURE not in steps and Step.WITCH_POISON in steps


def test_rules_2_witch_not_told_target_after_cure_used():
    """RULES §2 Witch: after the cure is used she is no longer told the target."""
    g = Game().night("P05", save=True).no_election()
    assert g.alive("P05") and g.state.cure_used
    g.speak_all().vote()
    start = len(g.events)
    g.night("P06")
    assert g.of(EventKind.WITCH_INFO, since=start) == []
    assert not g.alive("P06")


def test_rules_2_witch_cure_saves_target():
    """RULES §2 Witch: cure only on tonight's target; saved only -> lives."""
    g = Game().night("P05", save=True).no_election()
    assert g.alive("P05")
    (cure,) = g.of(EventKind.WITCH_CURE)
    assert cure.target == "P05" and cure.audience is Audience.SEAT and cure.seat == "P10"
    assert g.of(EventKind.DEATHS_ANNOUNCED)[0].value == "peaceful_night"


def test_rules_2_witch_cure_options_are_save_or_none():
    """RULES §2 Witch: the cure has no target choice: save tonight's target or not."""
    g = Game()
    to_witch(g, "P05")
    assert g.step == Step.WITCH_CURE
    assert set(g.options("P10")) == {"save", "none"}
    with pytest.raises(IllegalAction):
        g.answer(P10="P05")


def test_rules_2_witch_self_cure_forbidden_by_default():
    """RULES §2 [D]: no self-cure on 12-player boards; she still learns she is the target."""
    g = Game()
    to_witch(g, "P10")
    (info,) = g.of(EventKind.WITCH_INFO)
    assert info.target == "P10"
    assert g.step == Step.WITCH_POISON  # no cure decision
    g.answer(P10="P01")  # a Witch who is the target still acts
    g.answer(P12="none").no_election()
    assert not g.alive("P10") and not g.alive("P01")


def test_rules_2_witch_self_cure_night_1_only_variant():
    """RULES §2 [V] witch_can_self_heal_n1: self-cure allowed on Night 1 only."""
    g = Game(variants={"witch_can_self_heal_n1": True}).night("P10", save=True).no_election()
    assert g.alive("P10")
    # Night 2 (cure is spent here; so check the rule on a fresh game whose cure is unused).
    g2 = Game(variants={"witch_can_self_heal_n1": True}).night(None).no_election()
    g2.speak_all().vote()
    assert g2.state.day == 2 and not g2.state.cure_used
    to_witch(g2, "P10")
    (_, info) = g2.of(EventKind.WITCH_INFO)
    assert info.target == "P10"
    assert g2.step == Step.WITCH_POISON  # no self-cure on Night 2


def test_rules_2_witch_never_both_potions_one_night_by_default():
    """RULES §2 [D]: never cure and poison in one night."""
    g = Game()
    to_witch(g, "P05").answer(P10="save")
    assert g.step == Step.GUARD


def test_rules_2_witch_both_potions_variant():
    """RULES §2 [V] witch_both_potions_one_night: cure then poison in the same night."""
    g = Game(variants={"witch_both_potions_one_night": True}).night("P05", save=True, poison="P01")
    g.no_election()
    assert g.alive("P05") and not g.alive("P01")


def test_rules_2_witch_one_cure_one_poison_per_game():
    """RULES §2 Witch: one cure, one poison per game."""
    g = Game().night("P05", save=True).no_election().speak_all().vote()
    steps = []
    to_witch(g, "P06")
    steps.append(g.step)
    assert g.step == Step.WITCH_POISON
    g.answer(P10="P01").answer(P12="none").speak_all().vote()
    assert not g.alive("P01")
    to_witch(g, "P07", check="P02")
    assert g.step == Step.GUARD  # neither potion left


def test_rules_2_poison_any_living_but_herself():
    """RULES §2 Witch: poison any living player but herself."""
    g = Game()
    to_witch(g, "none")
    assert g.step == Step.WITCH_POISON
    opts = g.options("P10")
    assert "P10" not in opts and "none" in opts
    assert set(opts) - {"none"} == {f"P{i:02d}" for i in range(1, 13)} - {"P10"}


def test_rules_2_guard_protects_from_wolves():
    """RULES §2 Guard / dawn: target guarded only -> lives."""
    g = Game().night("P05", guard="P05").no_election()
    assert g.alive("P05")


def test_rules_2_guard_does_not_stop_poison():
    """RULES §2 Guard: stops the wolf kill only, not poison."""
    g = Game().night(None, poison="P05", guard="P05").no_election()
    assert not g.alive("P05")
    assert g.state.seat("P05").death_cause is Cause.POISON


@pytest.mark.parametrize(("kills", "survives"), [(True, False), (False, True)])
def test_rules_2_guarded_and_saved(kills, survives):
    """RULES §2 Dawn: guarded and saved -> [D] dies (same_guard_same_save_kills), [V] lives."""
    g = Game(variants={"same_guard_same_save_kills": kills})
    g.night("P05", save=True, guard="P05").no_election()
    assert g.alive("P05") is survives


def test_rules_2_unprotected_target_dies_and_two_deaths_at_most():
    """RULES §2 Dawn: neither -> dies; poisoned -> dies; at most two deaths."""
    g = Game().night("P05", poison="P06").no_election()
    assert dawn_dead(g) == ("P05", "P06")
    assert g.state.seat("P05").death_cause is Cause.WOLF_KILL


def test_rules_2_guard_never_told_the_target():
    """RULES §2: the Guard is never told the kill target."""
    g = Game().night("P05")
    assert not [
        e
        for e in g.events
        if e.seat == "P12" and e.kind is not EventKind.ROLE and e.kind is not EventKind.GUARD
    ]
    (gev,) = g.of(EventKind.GUARD)
    assert gev.target is None and gev.audience is Audience.SEAT


def test_rules_2_guard_may_self_guard_by_default():
    """RULES §2 [D] guard_can_self_guard: the Guard may protect himself."""
    g = Game()
    g.night("P12", guard="P12").no_election()
    assert g.alive("P12")


def test_rules_2_guard_self_guard_forbidden_variant():
    """RULES §2 [V] guard_can_self_guard=false."""
    g = Game(variants={"guard_can_self_guard": False})
    to_witch(g, "none").answer(P10="none")
    assert g.step == Step.GUARD
    assert "P12" not in g.options("P12")
    with pytest.raises(IllegalAction):
        g.answer(P12="P12")


def goto_guard(g: Game) -> None:
    while g.step != Step.GUARD:
        (who,) = g.pending.options
        g.answer({who: "none" if "none" in g.options(who) else g.options(who)[0]})


def next_night(g: Game) -> None:
    g.play_defaults(Step.WOLVES)


def test_rules_2_guard_repeat_ban_and_reset_by_empty_guard():
    """RULES §2 Guard: never the same player two nights running; guarding nobody breaks
    the chain."""
    g = Game()
    goto_guard(g)
    g.answer(P12="P05")
    next_night(g)
    goto_guard(g)
    assert "P05" not in g.options("P12")
    with pytest.raises(IllegalAction):
        g.answer(P12="P05")
    g.answer(P12="none")
    next_night(g)
    goto_guard(g)
    assert "P05" in g.options("P12")
    g.answer(P12="P06")
    next_night(g)
    goto_guard(g)
    assert "P05" in g.options("P12") and "P06" not in g.options("P12")


def test_rules_2_doctor_without_repeat_ban_on_8_arena():
    """RULES §1/§2: 8-arena's Guard-as-Doctor has no repeat restriction."""
    g = Game("8-arena")  # P01-P02 wolves, P03-P06 villagers, P07 seer, P08 guard
    goto_guard(g)
    g.answer(P08="P03")
    next_night(g)
    goto_guard(g)
    assert "P03" in g.options("P08")


def test_rules_2_guard_protects_one_living_player_or_nobody():
    """RULES §2 Guard: options are living players (or nobody)."""
    g = Game().night("P05").no_election().speak_all().vote()
    goto_guard(g)
    assert "P05" not in g.options("P12") and "none" in g.options("P12")


def test_rules_2_night_steps_of_dead_roles_are_skipped():
    """RULES §2 (engine design): the night steps of dead roles are skipped."""
    g = Game().night("P09").no_election().speak_all().vote()  # seer dies
    g.answer(P01="P10").answer(P02="P10").answer(P03="P10").answer(P04="P10")
    assert g.step == Step.WITCH_POISON  # no seer step; no self-cure for the witch
    g.answer(P10="none").answer(P12="none").speak_all().vote()  # witch dies
    for w in ("P01", "P02", "P03", "P04"):
        g.answer({w: "P12"})
    assert g.step == Step.GUARD
    g.answer(P12="none").speak_all().vote()
    assert not g.alive("P12")
    for w in ("P01", "P02", "P03", "P04"):
        g.answer({w: "P05"}) if g.step == Step.WOLVES else None
    assert g.step not in (Step.SEER, Step.WITCH_CURE, Step.WITCH_POISON, Step.GUARD)


def test_rules_2_poisoned_and_bitten_counts_as_poison():
    """RULES §2/§7: a Hunter both bitten and poisoned is poisoned: no shot."""
    g = Game().night("P11", poison="P11").no_election()
    assert g.state.seat("P11").death_cause is Cause.POISON
    assert g.step != Step.HUNTER_SHOT


def test_rules_2_idiot_who_dies_at_night_just_dies():
    """RULES §2: an Idiot who dies at night just dies (no flip)."""
    g = Game("12-B").night("P12").no_election()  # 12-B layout: P12 idiot
    assert not g.alive("P12") and not g.state.seat("P12").idiot_flipped
    assert not g.of(EventKind.IDIOT_FLIP)
