"""Seeded random legal play: the `random` player kind and the engine's own smoke driver."""

from autowerewolf.rules.config import GameConfig
from autowerewolf.rules.decisions import Action, Option, PendingDecision
from autowerewolf.rules.engine import apply, is_terminal, new_game
from autowerewolf.rules.events import Event
from autowerewolf.rules.legal import pending_decision
from autowerewolf.rules.rng import chance, pick
from autowerewolf.rules.state import GameState

# Random seats explode rarely, or random games would mostly end by explosions.
EXPLODE_CHANCE = 0.02


def random_action(seed: int, decision: PendingDecision, seat_id: str) -> Action:
    """A legal answer drawn from (seed, decision key, seat): the same every time it is asked."""
    key = f"{decision.key}:{seat_id}"
    options = decision.options[seat_id]
    if Option.EXPLODE in options and chance(seed, f"{key}:explode") >= EXPLODE_CHANCE:
        options = tuple(o for o in options if o != Option.EXPLODE)
    option = pick(seed, key, options)
    text = f"{seat_id} has nothing to add." if option == Option.SPEAK else ""
    return Action(option=option, text=text)


def random_answers(seed: int, decision: PendingDecision) -> dict[str, Action]:
    return {seat_id: random_action(seed, decision, seat_id) for seat_id in decision.options}


def play_random_game(
    config: GameConfig, player_seed: int | None = None
) -> tuple[GameState, list[Event]]:
    """Play a whole game with seeded random legal answers: the final state and every event."""
    seed = config.seed if player_seed is None else player_seed
    state, events = new_game(config)
    while not is_terminal(state):
        decision = pending_decision(state)
        answers = random_answers(seed, decision) if decision is not None else {}
        state, new_events = apply(state, answers, decision)
        events.extend(new_events)
    return state, events
