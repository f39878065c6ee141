"""Create the game from its setup: deal, names, Night 1."""

from autowerewolf.graph.state import GameGraphState, setup_of
from autowerewolf.rules.engine import new_game


def setup(state: GameGraphState) -> GameGraphState:
    if "game" in state:  # a fork or an update already carries the game
        return {}
    game, events = new_game(setup_of(state).build())
    return {"game": game, "events": events}
