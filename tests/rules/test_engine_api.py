"""Engine API: IllegalAction for illegal or missing answers, decisions, returns
(RULES §2-§8 are only reachable through legal answers), and the leak checker itself."""

import pytest

from autowerewolf.rules.decisions import Action, IllegalAction
from autowerewolf.rules.engine import apply, new_game, pending_decision, returns
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.state import BadgeStatus, Step
from autowerewolf.rules.views import SeatView, seat_view
from tests.rules.rules_helpers import Game, leaks


def test_rules_illegal_option_raises_and_names_it():
    """RULES §2: an illegal answer (dead target, self-check) raises IllegalAction."""
    g = Game().night("P05").no_election().speak_all().vote()
    g.answer(P01="P06").answer(P02="P06").answer(P03="P06").answer(P04="P06")
    assert g.step == Step.SEER
    with pytest.raises(IllegalAction, match="P09 chose 'P05'"):
        apply(g.state, {"P09": Action(option="P05")})  # dead
    with pytest.raises(IllegalAction, match="P09 chose 'P09'"):
        apply(g.state, {"P09": Action(option="P09")})  # herself
    with pytest.raises(IllegalAction):
        apply(g.state, {"P09": Action(option="none")})  # she must check someone


def test_rules_missing_answers_raise():
    """RULES §3/§6: a simultaneous step (sign-up, votes) needs every listed seat's answer;
    a missing one raises IllegalAction naming the seat."""
    g = Game().night(None)
    answers = g.answers_for({})
    del answers["P07"]
    with pytest.raises(IllegalAction, match=r"missing answers from \['P07'\]"):
        apply(g.state, answers)


def test_rules_no_answer_at_all_raises():
    """RULES §2: the wolves must answer their decision (None/{} is not an answer)."""
    g = Game()
    with pytest.raises(IllegalAction, match="missing"):
        apply(g.state, {})
    with pytest.raises(IllegalAction, match="missing"):
        apply(g.state)


def test_rules_answer_from_wrong_seat_raises():
    """RULES §2: only the asked seat may answer (one wolf at a time; nobody else at night)."""
    g = Game()
    with pytest.raises(IllegalAction, match="unexpected answers"):
        apply(g.state, {"P01": Action(option="P05"), "P02": Action(option="P05")})
    with pytest.raises(IllegalAction):
        apply(g.state, {"P05": Action(option="P06")})


def test_rules_answers_to_an_automatic_step_raise():
    """RULES §2/§5: automatic steps (dawn, announce, explosion) take no answers."""
    g = Game()
    state = g.state
    for wolf in ("P01", "P02", "P03", "P04"):
        state, _ = apply(state, {wolf: Action(option="P05")})
    state, _ = apply(state, {"P09": Action(option="P01")})
    state, _ = apply(state, {"P10": Action(option="none")})
    state, _ = apply(state, {"P10": Action(option="none")})
    state, _ = apply(state, {"P12": Action(option="none")})
    assert state.step == Step.DAWN and pending_decision(state) is None
    with pytest.raises(IllegalAction, match="unexpected"):
        apply(state, {"P01": Action(option="speak")})
    state, events = apply(state, {})
    assert state.step == Step.ELECTION_SIGNUP
    assert any(e.kind is EventKind.DAY_START for e in events)


def test_rules_state_is_immutable_apply_returns_new_state():
    """RULES §1 (determinism): apply never changes the given state, so replays and forks
    stay valid."""
    from autowerewolf.rules.config import make_config

    state, _ = new_game(make_config(seed=1))
    before = state.model_dump()
    (seat,) = pending_decision(state).options
    apply(state, {seat: Action(option="none")})
    assert state.model_dump() == before


def test_rules_8_returns_before_end_are_zero():
    """RULES §8: nobody has won before the end."""
    g = Game()
    assert set(returns(g.state).values()) == {0.0}


def test_rules_pending_decision_is_simultaneous_only_for_votes_and_calls():
    """RULES §3/§6: sign-up, withdrawal call and votes are simultaneous; speeches are not."""
    g = Game()
    assert not g.pending.simultaneous
    g.night(None)
    assert g.pending.simultaneous  # sign-up
    g.answer(P05="run", P06="run")
    assert not g.pending.simultaneous  # campaign speech


def test_rules_9_leak_checker_catches_leaks():
    """RULES §9 harness: the checker used by the property tests flags a leaking view."""
    g = Game().night("P05", seer="P01").no_election()
    honest = seat_view(g.state, g.events, "P06")
    assert leaks(g.state, honest) == []
    leaky = SeatView(**{**honest.model_dump(), "events": tuple(g.events)})
    found = leaks(g.state, leaky)
    assert any("omniscient" in p for p in found)
    assert any("seer_result" in p for p in found)
    assert any("another seat's role" in p for p in found)


def test_rules_3_dead_wolf_explosion_in_election_no_last_words():
    """RULES §5/§6: a wolf bitten on Night 1 who explodes in the election before the
    announcement gets no last words; the other pending chain (Hunter shot) still runs."""
    g = Game().night("P01", poison="P11")  # self-knife P01; poisoned Hunter cannot shoot
    g.answer(P01="explode")
    assert g.state.badge is BadgeStatus.LOST
    assert g.of(EventKind.DEATHS_ANNOUNCED)[0].targets == ("P01", "P11")
    seen = []
    while g.step == Step.LAST_WORDS:
        (who,) = g.pending.options
        seen.append(who)
        g.answer()
    assert seen == ["P11"]
    assert g.step == Step.WOLVES


def test_rules_6_explosion_during_election_pending_hunter_shot_still_happens():
    """RULES §6: after an explosion, pending announcements and their chain (Hunter shot,
    last words) still happen; then night falls."""
    g = Game().night("P11").answer(P02="explode")
    assert g.step == Step.HUNTER_SHOT
    g.answer(P11="P03")
    assert not g.alive("P03")
    g.speak_all()
    assert g.step == Step.WOLVES and g.state.day == 2
