"""Create the game from its setup: deal, names, Night 1."""

from autowerewolf.graph.state import GameGraphState
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.engine import new_game


def setup(state: GameGraphState) -> GameGraphState:
    if "game" in state:  # a fork or an update already carries the game
        return {}
    raw = state.get("setup") or GameSetup()
    game_setup = raw if isinstance(raw, GameSetup) else GameSetup.model_validate(raw)
    game, events = new_game(game_setup.build())
    return {"game": game, "events": events}
