"""Small helpers shared by the rule modules."""

from collections.abc import Sequence

from autowerewolf.rules.decisions import IllegalAction, Option
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.keys import draw_key
from autowerewolf.rules.outcome import Outcome, Resolved
from autowerewolf.rules.rng import pick
from autowerewolf.rules.roles import Role
from autowerewolf.rules.state import GameState


def event(
    state: GameState,
    kind: EventKind,
    audience: Audience,
    phase: str | None = None,
    **fields: object,
) -> Event:
    """An event of the current step; `phase` files it under another step (the step it
    takes effect in, as the flow will enter it next)."""
    return Event(
        kind=kind, day=state.day, phase=phase or str(state.step), audience=audience, **fields
    )


def explode_option(state: GameState, seat_id: str) -> tuple[str, ...]:
    """('explode',) for a wolf where the rules allow it, else (): every daytime speaking
    step and the election's sign-up and withdrawal offer it (RULES §3, §6)."""
    if state.config.variants.allow_wolf_self_explode and state.seat(seat_id).is_wolf:
        return (Option.EXPLODE.value,)
    return ()


def exploded(state: GameState, seat_id: str) -> Resolved:
    """`seat_id` explodes in place of his answer: the self-explosion resolves next."""
    return state.model_copy(update={"exploder": seat_id, "speakers": ()}), Outcome.EXPLODED


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


# Every draw the moderator makes, by name, and whether it is a night's: its key is
# n<night>:<name> or d<day>:<name>, and d<day>:exile_no_vote:r2 in a PK revote (keys.py;
# docs/scripts.md, "Draws").
DRAWS: dict[str, bool] = {
    "wolf_order": True,
    "wolf_tie": True,
    "wolf_no_vote": True,
    "campaign_start": False,
    "speaking_start": False,
    "vote_start": False,
    "exile_tie": False,
    "exile_no_vote": False,
}
DRAW_NAMES = frozenset(DRAWS)


def draw(state: GameState, name: str, items: Sequence[str], round_: int | None = None) -> str:
    """The moderator's draw `name` (of DRAWS) among `items`, keyed by today's draw key:
    seeded, unless a script fixed its outcome (`GameState.draws`), as when a game recorded
    elsewhere is replayed."""
    key = draw_key(DRAWS[name], state.day, name, round_)
    fixed = state.draws.get(key)
    if fixed is None:
        return pick(state.config.root, key, items)
    if fixed not in items:
        raise IllegalAction(f"draw {key}: the script's {fixed!r} is not one of {', '.join(items)}")
    return fixed
