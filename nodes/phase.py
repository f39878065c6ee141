"""A phase node: ask the seats the rules name, apply their answers through the rules, and
ask the game's measurement probes around the step (nodes/probes.py)."""

from typing import Protocol

from langgraph.config import get_config
from langgraph.runtime import Runtime

from autowerewolf.graph.context import GameContext, default_context
from autowerewolf.graph.state import (
    GameGraphState,
    events_of,
    game_of,
    records_of,
    seating_of,
)
from autowerewolf.nodes.ask import Table, ask
from autowerewolf.nodes.probes import probe_after, probe_before
from autowerewolf.rules.engine import apply, pending_decision


class PhaseNode(Protocol):
    def __call__(self, state: GameGraphState, runtime: Runtime[GameContext]) -> GameGraphState: ...


def game_id() -> str:
    """The game's id: its LangGraph thread (one process may run many games at once)."""
    configurable = get_config().get("configurable", {})
    return str(configurable.get("thread_id", ""))


def context_of(runtime: Runtime[GameContext]) -> GameContext:
    return runtime.context if runtime.context is not None else default_context()


def phase_node(step: str) -> PhaseNode:
    """The node for one step of the rules (named after it in the graph)."""

    def run_phase(state: GameGraphState, runtime: Runtime[GameContext]) -> GameGraphState:
        game = game_of(state)
        if game.step != step:
            raise RuntimeError(f"node {step} reached in step {game.step}")
        decision = pending_decision(game)
        if decision is None:
            next_game, events = apply(game)
            return {"game": next_game, "events": events, "records": []}
        context = context_of(runtime)
        table = Table(game_id(), game, events_of(state), records_of(state), seating_of(state))
        answers, records = ask(context, table, decision)
        records += probe_before(context, table, decision, records)
        next_game, events = apply(game, answers, decision)
        records += probe_after(context, table, decision, next_game, events, records)
        return {"game": next_game, "events": events, "records": records}

    run_phase.__name__ = step
    return run_phase


def game_over(state: GameGraphState, runtime: Runtime[GameContext]) -> GameGraphState:
    """The final node: the result is in the state; the game's live players can go."""
    context_of(runtime).forget(game_id())
    return {}
