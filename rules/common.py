"""Small helpers shared by the rule modules."""

from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.roles import Role
from autowerewolf.rules.state import GameState


def event(state: GameState, kind: EventKind, audience: Audience, **fields: object) -> Event:
    return Event(kind=kind, day=state.day, phase=str(state.step), audience=audience, **fields)


def seat_of_role(state: GameState, role: Role) -> str | None:
    for s in state.seats:
        if s.role is role:
            return s.id
    return None


def role_alive(state: GameState, role: Role) -> bool:
    seat = seat_of_role(state, role)
    return seat is not None and state.seat(seat).alive


def others(state: GameState, seat_id: str) -> tuple[str, ...]:
    """Living players other than `seat_id`."""
    return tuple(s for s in state.living if s != seat_id)


def clockwise_from(start: str, among: tuple[str, ...]) -> tuple[str, ...]:
    """`among` ordered by seat, beginning at the first one at or after `start`, wrapping."""
    ordered = sorted(among)
    head = [s for s in ordered if s >= start]
    tail = [s for s in ordered if s < start]
    return tuple(head + tail)


def seat_after(state: GameState, seat: str) -> str:
    n = len(state.seats)
    return f"P{int(seat[1:]) % n + 1:02d}"
