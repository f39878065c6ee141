"""A phase node: ask the seats the rules name, apply their answers through the rules."""

from collections.abc import Callable

from langgraph.runtime import Runtime

from autowerewolf.graph.context import GameContext, default_context
from autowerewolf.graph.state import GameGraphState, events_of, game_of, seating_of
from autowerewolf.rules.engine import apply
from autowerewolf.rules.legal import pending_decision
from autowerewolf.rules.state import Step

PhaseNode = Callable[[GameGraphState, Runtime[GameContext]], GameGraphState]


def phase_node(step: Step) -> PhaseNode:
    """The node for one step of the rules (named after it in the graph)."""

    def run_phase(state: GameGraphState, runtime: Runtime[GameContext]) -> GameGraphState:
        game = game_of(state)
        if game.step is not step:
            raise RuntimeError(f"node {step.value} reached in step {game.step.value}")
        decision = pending_decision(game)
        answers, records = {}, []
        if decision is not None:
            context = runtime.context if runtime.context is not None else default_context()
            table = context.table(seating_of(state))
            answers, records = table.answer(game, events_of(state), decision)
        next_game, events = apply(game, answers, decision)
        return {"game": next_game, "events": events, "records": records}

    run_phase.__name__ = step.value
    return run_phase


def game_over(state: GameGraphState) -> GameGraphState:
    """The final node: the result is already in the state and the transcript."""
    return {}
