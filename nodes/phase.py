"""A phase node: ask the seats the rules name, apply their answers through the rules, and
ask the game's measurement probes around the step (nodes/probes.py).

Each node has a synchronous and an asynchronous body (`play`, `resume`, `langgraph dev` run
the first; the asynchronous runner's `astream` the second); they share everything but the
asking (`ask` or `aask`).
"""

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from langchain_core.runnables import Runnable, RunnableConfig
from langgraph.config import get_config
from langgraph.runtime import Runtime, get_runtime

from autowerewolf.graph.context import GameContext, default_context
from autowerewolf.graph.state import (
    GameGraphState,
    events_of,
    game_of,
    records_of,
    seating_of,
)
from autowerewolf.nodes.ask import aask, ask
from autowerewolf.nodes.night_clock import dawn_wait_s, night_begins
from autowerewolf.nodes.probes import aprobe, probe, probes_after, probes_before
from autowerewolf.players.asker import Moment
from autowerewolf.rules.decisions import PendingDecision
from autowerewolf.rules.engine import apply, pending_decision
from autowerewolf.rules.state import GameState, Step


def game_id() -> str:
    """The game's id: its LangGraph thread (one process may run many games at once)."""
    configurable = get_config().get("configurable", {})
    return str(configurable.get("thread_id", ""))


def context_of(runtime: Runtime[GameContext]) -> GameContext:
    return runtime.context if runtime.context is not None else default_context()


Body = Callable[[GameGraphState, Runtime[GameContext]], GameGraphState]
AsyncBody = Callable[[GameGraphState, Runtime[GameContext]], Awaitable[GameGraphState]]


class Node(Runnable[GameGraphState, GameGraphState]):
    """A node with both bodies, on LangGraph's and LangChain's public API: `invoke` runs the
    synchronous one, `ainvoke` awaits the asynchronous one, each with the run's `Runtime`
    (`get_runtime`). No tracing: a callback run per step costs more than the step
    (docs/scale.md), and a plain Runnable opens none."""

    def __init__(self, name: str, func: Body, afunc: AsyncBody) -> None:
        self.name = name
        self.func, self.afunc = func, afunc

    def invoke(
        self, input: GameGraphState, config: RunnableConfig | None = None, **kwargs: Any
    ) -> GameGraphState:
        return self.func(input, get_runtime(GameContext))

    async def ainvoke(
        self, input: GameGraphState, config: RunnableConfig | None = None, **kwargs: Any
    ) -> GameGraphState:
        return await self.afunc(input, get_runtime(GameContext))


def both_ways(name: str, func: Body, afunc: AsyncBody) -> Node:
    """A node with both bodies (named `name` in the graph)."""
    return Node(name, func, afunc)


def _table(state: GameGraphState, step: str) -> tuple[GameState, PendingDecision | None, Moment]:
    game = game_of(state)
    if game.step != step:
        raise RuntimeError(f"node {step} reached in step {game.step}")
    table = Moment(game_id(), game, events_of(state), records_of(state), seating_of(state))
    return game, pending_decision(game), table


def _night_wait_s(context: GameContext, table: Moment) -> float:
    """The moderator's night clock (nodes/night_clock.py): marks a night's first call, and
    says how long dawn must wait."""
    if table.game.step == Step.WOLVES:
        night_begins(table.game_id, table.game.day)
    if table.game.step != Step.DAWN:
        return 0.0
    return dawn_wait_s(table.game_id, table.game, table.seating, context.night_call_s)


def _applied(game: GameState) -> GameGraphState:
    """An automatic step: nobody is asked."""
    next_game, events = apply(game)
    return {"game": next_game, "events": events, "records": []}


def phase_node(step: str) -> Node:
    """The node for one step of the rules (named after it in the graph)."""

    def run_phase(state: GameGraphState, runtime: Runtime[GameContext]) -> GameGraphState:
        game, decision, table = _table(state, step)
        context = context_of(runtime)
        time.sleep(_night_wait_s(context, table))
        if decision is None:
            return _applied(game)
        answers, records = ask(context, table, decision)
        records += probe(context, probes_before(table, decision, records))
        next_game, events = apply(game, answers, decision)
        records += probe(context, probes_after(table, decision, next_game, events, records))
        return {"game": next_game, "events": events, "records": records}

    async def arun_phase(state: GameGraphState, runtime: Runtime[GameContext]) -> GameGraphState:
        game, decision, table = _table(state, step)
        context = context_of(runtime)
        await asyncio.sleep(_night_wait_s(context, table))
        if decision is None:
            return _applied(game)
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
