"""A fork's seating: the answers forced at its first step and the players' new seed."""

from typing import Any

from pydantic import ValidationError

from autowerewolf.errors import GameError
from autowerewolf.players.seating import Seating
from autowerewolf.players.simple import ScriptedAnswer
from autowerewolf.rules.config import one_line
from autowerewolf.rules.engine import pending_decision
from autowerewolf.rules.state import GameState


def forked_seating(
    game: GameState, seating: Seating, overrides: dict[str, str], player_seed: int | None
) -> Seating:
    """The seating of a fork of `game`: `overrides` (seat -> option) answer the decision
    pending there, checked legal; `player_seed` reseeds the players' choices."""
    decision = pending_decision(game)
    forced: dict[str, ScriptedAnswer] = {}
    for seat, option in overrides.items():
        if decision is None or seat not in decision.options:
            step = game.step
            raise GameError(f"{seat} has no decision to make at this step ({step})")
        if option not in decision.options[seat]:
            legal = ", ".join(decision.options[seat])
            raise GameError(
                f"{option!r} is not legal for {seat} at {decision.key} (legal: {legal})"
            )
        forced[seat] = ScriptedAnswer(option=option)
    # A branch is no game its tournament planned: `report --tournament` leaves it out.
    updates: dict[str, Any] = {"tournament": None}
    if forced and decision is not None:
        updates["overrides"] = {**seating.overrides, decision.key: forced}
    if player_seed is not None:
        updates["player_seed"] = player_seed
    try:  # validated: a seed too large to store must fail here, before anything is written
        return Seating.model_validate({**seating.model_dump(), **updates})
    except ValidationError as err:
        raise GameError(one_line(err)) from None
