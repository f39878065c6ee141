"""Seeded random legal play: the `random` player kind and the engine's own smoke driver."""

from autowerewolf.rules.config import GameConfig
from autowerewolf.rules.decisions import Action, Option, PendingDecision
from autowerewolf.rules.engine import new_game, play_out
from autowerewolf.rules.events import Event
from autowerewolf.rules.rng import chance, pick, seat_seed
from autowerewolf.rules.state import GameState

# Random seats explode rarely, or random games would mostly end by explosions.
EXPLODE_CHANCE = 0.02


def random_action(seed: int, key: str, options: tuple[str, ...], seat: str) -> Action:
    """A legal answer drawn from (a seat's own seed, the decision's key): the same every time
    the same decision is asked."""
    if Option.EXPLODE in options and chance(seed, f"{key}:explode") >= EXPLODE_CHANCE:
        options = tuple(o for o in options if o != Option.EXPLODE)
    option = pick(seed, key, options)
    text = f"{seat} has nothing to add." if option == Option.SPEAK else ""
    return Action(option=option, text=text)


def random_answers(root_seed: int, decision: PendingDecision) -> dict[str, Action]:
    """Every seat's random answer, each drawn from its own seat seed (as random players do)."""
    return {
        seat: random_action(seat_seed(root_seed, seat), decision.key, options, seat)
        for seat, options in decision.options.items()
    }


def play_random_game(
    config: GameConfig, player_seed: int | None = None
) -> tuple[GameState, list[Event]]:
    """Play a whole game with seeded random legal answers: the final state and every event.

    Answers are those of `random` players whose player seed is `player_seed` (default: the
    game seed), so a graph game of random players equals this game.
    """
    seed = config.player_root(player_seed)
    state, events = new_game(config)
    state, _ = play_out(state, events, lambda _s, _e, decision: random_answers(seed, decision))
    return state, events
