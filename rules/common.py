"""Small helpers shared by the rule modules."""

from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.state import GameState, Step

NIGHT_STEPS = frozenset({Step.WOLVES, Step.SEER, Step.WITCH_CURE, Step.WITCH_POISON, Step.GUARD})


def event(state: GameState, kind: EventKind, audience: Audience, **fields: object) -> Event:
    return Event(kind=kind, day=state.day, phase=state.step.value, audience=audience, **fields)


def seat_of_role(state: GameState, role: object) -> str | None:
    for s in state.seats:
        if s.role is role:
            return s.id
    return None


def clockwise_from(start: str, among: tuple[str, ...]) -> tuple[str, ...]:
    """`among` ordered by seat, beginning at the first one at or after `start`, wrapping."""
    ordered = sorted(among)
    head = [s for s in ordered if s >= start]
    tail = [s for s in ordered if s < start]
    return tuple(head + tail)


def seat_after(state: GameState, seat: str) -> str:
    n = len(state.seats)
    return f"P{int(seat[1:]) % n + 1:02d}"
