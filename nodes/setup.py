"""Create the game from its setup: its secret, deal, names, Night 1."""

from langgraph.runtime import Runtime

from autowerewolf.graph.context import GameContext
from autowerewolf.graph.state import GameGraphState, seating_of, setup_of
from autowerewolf.nodes.phase import Node
from autowerewolf.rules.engine import new_game
from autowerewolf.seeding import fresh_secret


def _setup(state: GameGraphState) -> GameGraphState:
    if "game" in state:  # a fork or an update already carries the game
        return {}
    setup = setup_of(state)
    if setup.secret is None:
        # Drawn once, here: the game's checkpoint keeps it, so a resumed or forked game
        # replays the same draws.
        setup = setup.model_copy(update={"secret": fresh_secret()})
    game, events = new_game(setup.build(), draws=seating_of(state).draws)
    return {"game": game, "events": events}


async def _setup_node(state: GameGraphState, runtime: Runtime[GameContext]) -> GameGraphState:
    return _setup(state)


setup = Node("setup", _setup_node)
