"""The game as a LangGraph state machine: one node per step of the rules' step table, edges
where the table says a step may lead."""

from typing import Any

from langchain_core.runnables import Runnable, RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from autowerewolf.graph.context import GameContext
from autowerewolf.graph.state import GameGraphState, GameInput, game_of
from autowerewolf.nodes.phase import game_over, phase_node
from autowerewolf.nodes.setup import setup
from autowerewolf.rules.step_spec import StepKind
from autowerewolf.rules.steps import FIRST_STEP, STEPS

# A game takes a few hundred steps; this cap only stops a runaway loop.
RECURSION_LIMIT = 5000


def route(state: GameGraphState) -> str:
    """The node of the game's current step: routing is the state's step, nothing else."""
    return game_of(state).step


class Router(Runnable[GameGraphState, str]):
    """`route` as an untraced Runnable: a plain function here would open a callback run,
    and under `astream` hop to a worker thread, at every step."""

    name = "route"

    def invoke(
        self, input: GameGraphState, config: RunnableConfig | None = None, **kwargs: Any
    ) -> str:
        return route(input)

    async def ainvoke(
        self, input: GameGraphState, config: RunnableConfig | None = None, **kwargs: Any
    ) -> str:
        return route(input)


def build_graph() -> StateGraph[GameGraphState, GameContext, GameInput, GameGraphState]:
    builder: StateGraph[GameGraphState, GameContext, GameInput, GameGraphState] = StateGraph(
        GameGraphState, context_schema=GameContext, input_schema=GameInput
    )
    builder.add_node("setup", setup)
    builder.add_edge(START, "setup")
    router = Router()
    builder.add_conditional_edges("setup", router, [FIRST_STEP])
    for name, step in STEPS.items():
        if step.kind is StepKind.END:
            builder.add_node(name, game_over)
            builder.add_edge(name, END)
        else:
            builder.add_node(name, phase_node(name))
            builder.add_conditional_edges(name, router, list(step.next))
    return builder


def compile_graph() -> CompiledStateGraph[GameGraphState, GameContext, GameInput, GameGraphState]:
    return build_graph().compile()


# Exported without a checkpointer for `langgraph dev`, which brings its own persistence.
graph = compile_graph()
