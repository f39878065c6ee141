"""Which seats of a training table the trainer plays, and what each is paid at the end.

The trainer names its seats as `all`, `camp:wolf`/`camp:good`, `role:ROLE` or a list of
seats; the camp and role forms are resolved against each new deal. A seat's reward is the
rules' team return (+1 the winning camp, -1 the other, 0 on a draw) plus an optional
shaping term paid at the end of the game only (autowerewolf/table.py).
"""

from collections.abc import Sequence

from autowerewolf.rules.engine import returns
from autowerewolf.rules.roles import CAMP_NAMES, Camp
from autowerewolf.rules.state import GameState

Controlled = str | Sequence[str]


def check_controlled(spec: Controlled, seats: Sequence[str]) -> None:
    """ValueError unless `spec` names the trainer's seats of a board with these `seats`."""
    if isinstance(spec, str):
        where, _, value = spec.partition(":")
        if spec == "all" or where in ("camp", "role"):
            if where == "camp" and value not in CAMP_NAMES:
                raise ValueError(f"unknown camp {value!r} ({', '.join(CAMP_NAMES)})")
            return
        spec = [spec]
    unknown = sorted(set(spec) - set(seats))
    if unknown or not spec:
        raise ValueError(
            f"controlled seats must be 'all', 'camp:wolf', 'camp:good', 'role:ROLE' or "
            f"seats of {seats[0]}-{seats[-1]}; got {unknown or 'none'}"
        )


def controlled_seats(spec: Controlled, state: GameState, seats: Sequence[str]) -> tuple[str, ...]:
    """The seats `spec` names in the game dealt in `state`, in seat order."""
    if spec == "all":
        return tuple(seats)
    if isinstance(spec, str) and spec.startswith("camp:"):
        camp = Camp(spec.removeprefix("camp:"))
        return tuple(s.id for s in state.seats if s.camp is camp)
    if isinstance(spec, str) and spec.startswith("role:"):
        role = spec.removeprefix("role:")
        return tuple(s.id for s in state.seats if s.role.value == role)
    chosen = {spec} if isinstance(spec, str) else set(spec)
    return tuple(s for s in seats if s in chosen)


def end_rewards(game: GameState, controlled: Sequence[str], shaping: float) -> dict[str, float]:
    """Each controlled seat's reward at the end of `game`: its camp's result, plus `shaping`
    times the share of seats its camp's enemies lost minus the share it lost."""
    result = returns(game)
    if not shaping:
        return {s: result[s] for s in controlled}
    dead = {camp: 0 for camp in Camp}
    for s in game.seats:
        if not s.alive:
            dead[s.camp] += 1
    n = len(game.seats)
    out = {}
    for seat in controlled:
        camp = game.seat(seat).camp
        enemy = Camp.GOOD if camp is Camp.WOLF else Camp.WOLF
        out[seat] = result[seat] + shaping * (dead[enemy] - dead[camp]) / n
    return out
