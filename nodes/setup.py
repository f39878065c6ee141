"""Create the game from its setup: deal, names, Night 1."""

from langgraph.runtime import Runtime

from autowerewolf.graph.context import GameContext
from autowerewolf.graph.state import GameGraphState, setup_of
from autowerewolf.nodes.phase import both_ways
from autowerewolf.rules.engine import new_game


def _setup(state: GameGraphState) -> GameGraphState:
    if "game" in state:  # a fork or an update already carries the game
        return {}
    game, events = new_game(setup_of(state).build())
    return {"game": game, "events": events}


def _setup_node(state: GameGraphState, runtime: Runtime[GameContext]) -> GameGraphState:
    return _setup(state)


async def _asetup_node(state: GameGraphState, runtime: Runtime[GameContext]) -> GameGraphState:
    return _setup(state)


setup = both_ways("setup", _setup_node, _asetup_node)
