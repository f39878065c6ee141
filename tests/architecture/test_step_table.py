"""The step table is the one home of what a step is: a toy step added with one table entry
(and the entry of the step before it) is played by the engine, routed to by the graph and
answered by the players; nothing else changes."""

from dataclasses import replace

import pytest

from autowerewolf.graph.builder import RECURSION_LIMIT, build_graph
from autowerewolf.graph.context import GameContext
from autowerewolf.players.seating import Seating
from autowerewolf.rules import steps
from autowerewolf.rules.config import GameSetup, make_config
from autowerewolf.rules.decisions import Action, Answers, Options
from autowerewolf.rules.engine import (
    UndeclaredTransition,
    apply,
    is_terminal,
    new_game,
    pending_decision,
)
from autowerewolf.rules.events import Event
from autowerewolf.rules.outcome import Outcome, Resolved
from autowerewolf.rules.random_play import random_answers
from autowerewolf.rules.roles import Role
from autowerewolf.rules.state import GameState, Step
from autowerewolf.rules.step_spec import StepKind, StepSpec
from tests.fixed import SECRET

TOY = "toy_lantern"
SEED = 4


def lantern_options(state: GameState) -> Options:
    guard = next(s.id for s in state.seats if s.role is Role.GUARD)
    return {guard: ("light", "dark")}


def resolve_lantern(state: GameState, answers: Answers, events: list[Event]) -> Resolved:
    return state, Outcome.DONE


@pytest.fixture
def toy_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """A night decision after the Guard's: one new entry; the Guard's entry leads to it
    (its `then` and `next`); the flow enters it once the Guard's step is done."""
    toy = StepSpec(
        StepKind.NIGHT,
        next=(Step.DAWN,),
        options=lantern_options,
        resolve=resolve_lantern,
        then=Step.DAWN,
        prompt="guard",
    )
    monkeypatch.setitem(steps.STEPS, TOY, toy)
    guard = steps.STEPS[Step.GUARD]
    monkeypatch.setitem(steps.STEPS, Step.GUARD, replace(guard, then=TOY, next=(TOY,)))


def at_first_guard() -> GameState:
    state, _ = new_game(make_config("12-A", seed=SEED))
    while state.step != Step.GUARD:
        decision = pending_decision(state)
        state, _ = apply(state, random_answers(SEED, decision) if decision else {}, decision)
    return state


def test_engine_plays_a_toy_step_from_its_table_entry(toy_table: None) -> None:
    state, _ = new_game(make_config("12-A", seed=SEED))
    asked = []
    while not is_terminal(state):
        decision = pending_decision(state)
        if decision is not None:
            asked.append(decision.key)
        state, _ = apply(state, random_answers(SEED, decision) if decision else {}, decision)
    assert "n1:toy_lantern" in asked
    assert asked.index("n1:toy_lantern") == asked.index("n1:guard") + 1


def test_graph_routes_through_a_toy_step(toy_table: None) -> None:
    graph = build_graph().compile()
    assert TOY in graph.get_graph().nodes
    out = graph.invoke(
        {
            "setup": GameSetup(secret=SECRET, board="12-A", seed=SEED),
            "seating": Seating(default="random"),
        },
        {"recursion_limit": RECURSION_LIMIT},
        context=GameContext(),
    )
    assert out["game"].is_over
    toy = [r for r in out["records"] if r.step == TOY]
    assert toy and all(r.option in ("light", "dark") and r.key.endswith(f":{TOY}") for r in toy)
    guard_nights = {r.day for r in out["records"] if r.step == Step.GUARD}
    assert {r.day for r in toy} == guard_nights  # asked every night the Guard acted


def test_apply_refuses_a_transition_the_table_does_not_declare(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    guard = steps.STEPS[Step.GUARD]
    monkeypatch.setitem(steps.STEPS, Step.GUARD, replace(guard, next=(Step.ANNOUNCE,)))
    state = at_first_guard()
    decision = pending_decision(state)
    assert decision is not None
    answers = {seat: Action(option=options[0]) for seat, options in decision.options.items()}
    with pytest.raises(UndeclaredTransition, match="guard led to dawn"):
        apply(state, answers, decision)
