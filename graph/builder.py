"""The game as a LangGraph state machine: one node per step, edges decided by the rules."""

from langgraph.graph import END, START, StateGraph

from autowerewolf.graph.context import GameContext
from autowerewolf.graph.state import GameGraphState, game_of
from autowerewolf.nodes.phase import game_over, phase_node
from autowerewolf.nodes.setup import setup
from autowerewolf.rules.routing import Phase, next_phase, successors
from autowerewolf.rules.state import Step

# A game takes a few hundred steps; this cap only stops a runaway loop.
RECURSION_LIMIT = 5000


def route(state: GameGraphState) -> Phase:
    return next_phase(game_of(state))


def build_graph() -> StateGraph:
    builder = StateGraph(GameGraphState, context_schema=GameContext)
    builder.add_node("setup", setup)
    for step in Step:
        builder.add_node(step.value, game_over if step is Step.GAME_OVER else phase_node(step))
    builder.add_edge(START, "setup")
    builder.add_conditional_edges("setup", route, [Step.WOLVES.value])
    for step in Step:
        if step is not Step.GAME_OVER:
            builder.add_conditional_edges(step.value, route, list(successors(step)))
    builder.add_edge(Step.GAME_OVER.value, END)
    return builder


# Exported without a checkpointer for `langgraph dev`, which brings its own persistence.
graph = build_graph().compile()
