"""A phase node: ask the seats the rules name, apply their answers through the rules, and
ask the game's measurement probes around the step (nodes/probes.py).

Each node has one body, a coroutine: the asynchronous runner and `langgraph dev` await it,
and a synchronous run (`play`, `resume`, `graph.invoke`) awaits it through
`nodes/event_loop.py`.
"""

import asyncio
from collections.abc import Callable, Coroutine
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
from autowerewolf.nodes.ask import ask
from autowerewolf.nodes.event_loop import run_sync
from autowerewolf.nodes.night_clock import dawn_wait_s, night_begins
from autowerewolf.nodes.probes import probe, probes_after, probes_before
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


Body = Callable[[GameGraphState, Runtime[GameContext]], Coroutine[Any, Any, GameGraphState]]


class Node(Runnable[GameGraphState, GameGraphState]):
    """A node on LangGraph's and LangChain's public API: `ainvoke` awaits its body with the
    run's `Runtime` (`get_runtime`); `invoke` awaits the same body on the process's graph
    loop. No tracing: a callback run per step costs more than the step (docs/scale.md), and
    a plain Runnable opens none."""

    def __init__(self, name: str, body: Body) -> None:
        self.name = name
        self.body = body

    def invoke(
        self, input: GameGraphState, config: RunnableConfig | None = None, **kwargs: Any
    ) -> GameGraphState:
        return run_sync(self.body(input, get_runtime(GameContext)))

    async def ainvoke(
        self, input: GameGraphState, config: RunnableConfig | None = None, **kwargs: Any
    ) -> GameGraphState:
        return await self.body(input, get_runtime(GameContext))


def _moment(state: GameGraphState, step: str) -> tuple[GameState, PendingDecision | None, Moment]:
    game = game_of(state)
    if game.step != step:
        raise RuntimeError(f"node {step} reached in step {game.step}")
    moment = Moment(game_id(), game, events_of(state), records_of(state), seating_of(state))
    return game, pending_decision(game), moment


def _night_wait_s(context: GameContext, moment: Moment) -> float:
    """The moderator's night clock (nodes/night_clock.py): marks a night's first call, and
    says how long dawn must wait."""
    if moment.game.step == Step.WOLVES:
        night_begins(moment.game_id, moment.game.day)
    if moment.game.step != Step.DAWN:
        return 0.0
    return dawn_wait_s(moment.game_id, moment.game, moment.seating, context.night_call_s)


def _applied(game: GameState) -> GameGraphState:
    """An automatic step: nobody is asked."""
    next_game, events = apply(game)
    return {"game": next_game, "events": events, "records": []}


def phase_node(step: str) -> Node:
    """The node for one step of the rules (named after it in the graph)."""

    async def run_phase(state: GameGraphState, runtime: Runtime[GameContext]) -> GameGraphState:
        game, decision, moment = _moment(state, step)
        context = context_of(runtime)
        await asyncio.sleep(_night_wait_s(context, moment))
        if decision is None:
            return _applied(game)
        answers, records = await ask(context, moment, decision)
        records += await probe(context, probes_before(moment, decision, records))
        next_game, events = apply(game, answers, decision)
        records += await probe(context, probes_after(moment, decision, next_game, events, records))
        return {"game": next_game, "events": events, "records": records}

    return Node(step, run_phase)


async def _game_over(state: GameGraphState, runtime: Runtime[GameContext]) -> GameGraphState:
    """The final node: the result is in the state; the game's live players can go."""
    context_of(runtime).forget(game_id())
    return {}


game_over = Node("game_over", _game_over)
