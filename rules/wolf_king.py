"""The White Wolf King (docs/rules.md §12): a wolf who, when he self-explodes, takes one
player with him. His explosion is a wolf's (speeches.py); this module asks whom he takes."""

from autowerewolf.rules.decisions import Answers, Option, Options
from autowerewolf.rules.events import Event
from autowerewolf.rules.outcome import Resolved
from autowerewolf.rules.roles import Role
from autowerewolf.rules.speeches import explode
from autowerewolf.rules.state import GameState


def takes_someone(state: GameState, seat_id: str) -> bool:
    """Whether the exploding seat is a White Wolf King, who names a player to take along."""
    return state.seat(seat_id).role is Role.WHITE_WOLF_KING


def take_options(state: GameState) -> Options:
    """Any publicly alive player but himself, a fellow wolf included, or nobody: a seat that
    died unannounced in the night still counts, or the options would tell him so."""
    king = state.speakers[0]
    return {king: (*(s for s in state.publicly_alive if s != king), Option.NONE.value)}


def apply_take(state: GameState, answers: Answers, events: list[Event]) -> Resolved:
    """He explodes, and the player he named dies with him (docs/rules.md §12)."""
    king = state.speakers[0]
    target = answers[king].option
    taken = None if target == Option.NONE else target
    return explode(state.model_copy(update={"speakers": ()}), events, taken)
