"""A phase node: ask the seats the rules name, apply their answers through the rules, and
ask the game's measurement probes around the step (nodes/probes.py).

Each node has a synchronous and an asynchronous body (`play`, `resume`, `langgraph dev` run
the first; the asynchronous runner's `astream` the second); they share everything but the
asking (`ask` or `aask`).
"""

from collections.abc import Awaitable, Callable

from langgraph._internal._runnable import RunnableCallable
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
from autowerewolf.nodes.ask import Table, aask, ask
from autowerewolf.nodes.probes import aprobe, probe, probes_after, probes_before
from autowerewolf.rules.decisions import PendingDecision
from autowerewolf.rules.engine import apply, pending_decision
from autowerewolf.rules.state import GameState


def game_id() -> str:
    """The game's id: its LangGraph thread (one process may run many games at once)."""
    configurable = get_config().get("configurable", {})
    return str(configurable.get("thread_id", ""))


def context_of(runtime: Runtime[GameContext]) -> GameContext:
    return runtime.context if runtime.context is not None else default_context()


def both_ways(
    name: str,
    func: Callable[..., GameGraphState],
    afunc: Callable[..., Awaitable[GameGraphState]],
) -> RunnableCallable:
    """A node with both bodies. LangGraph injects `runtime` as named in `func`'s signature,
    so both take the same parameters. No tracing: a callback run per step costs more than
    the step (docs/scale.md)."""
    func.__name__ = afunc.__name__ = name
    return RunnableCallable(func, afunc, name=name, trace=False)


def _table(state: GameGraphState, step: str) -> tuple[GameState, PendingDecision | None, Table]:
    game = game_of(state)
    if game.step != step:
        raise RuntimeError(f"node {step} reached in step {game.step}")
    table = Table(game_id(), game, events_of(state), records_of(state), seating_of(state))
    return game, pending_decision(game), table


def _applied(game: GameState) -> GameGraphState:
    """An automatic step: nobody is asked."""
    next_game, events = apply(game)
    return {"game": next_game, "events": events, "records": []}


def phase_node(step: str) -> RunnableCallable:
    """The node for one step of the rules (named after it in the graph)."""

    def run_phase(state: GameGraphState, runtime: Runtime[GameContext]) -> GameGraphState:
        game, decision, table = _table(state, step)
        if decision is None:
            return _applied(game)
        context = context_of(runtime)
        answers, records = ask(context, table, decision)
        records += probe(context, probes_before(table, decision, records))
        next_game, events = apply(game, answers, decision)
        records += probe(context, probes_after(table, decision, next_game, events, records))
        return {"game": next_game, "events": events, "records": records}

    async def arun_phase(state: GameGraphState, runtime: Runtime[GameContext]) -> GameGraphState:
        game, decision, table = _table(state, step)
        if decision is None:
            return _applied(game)
        context = context_of(runtime)
        answers, records = await aask(context, table, decision)
        records += await aprobe(context, probes_before(table, decision, records))
        next_game, events = apply(game, answers, decision)
        records += await aprobe(context, probes_after(table, decision, next_game, events, records))
        return {"game": next_game, "events": events, "records": records}

    return both_ways(step, run_phase, arun_phase)


def _game_over(state: GameGraphState, runtime: Runtime[GameContext]) -> GameGraphState:
    """The final node: the result is in the state; the game's live players can go."""
    context_of(runtime).forget(game_id())
    return {}


async def _agame_over(state: GameGraphState, runtime: Runtime[GameContext]) -> GameGraphState:
    return _game_over(state, runtime)


game_over = both_ways("game_over", _game_over, _agame_over)
