"""Checks that what a checkpoint gives back is what the game stored.

LangGraph's serializer does not fail on a damaged payload: a model whose fields no longer
validate is rebuilt unvalidated (`model_construct`), and an object it cannot rebuild comes
back as a plain dict or None. Code reading a game would then fail far away with
`'int' object has no attribute 'day'`. Every value is therefore checked here, deeply, right
after it is read, and the reader turns any failure into one "damaged" error.
"""

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel

from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.engine import pending_decision
from autowerewolf.rules.events import Event
from autowerewolf.rules.state import GameState

M = TypeVar("M", bound=BaseModel)


class DamagedValue(ValueError):
    """A stored value that is not what the game wrote."""


def _revalidated(value: Any, model: type[M], what: str) -> M:
    """`value` if it is a valid `model`, checked field by field, nested models included.

    Pydantic does not re-validate model instances it is given, and a damaged checkpoint
    yields instances built without validation, so the check goes through a plain dump."""
    if isinstance(value, Mapping):
        return model.model_validate(value)
    if not isinstance(value, model):
        raise DamagedValue(f"{what} is a {type(value).__name__}, not a {model.__name__}")
    model.model_validate(value.model_dump(warnings=False))
    return value


def _revalidated_list(value: Any, model: type[M], what: str) -> list[M]:
    if not isinstance(value, list | tuple):
        raise DamagedValue(f"{what} is a {type(value).__name__}, not a list")
    return [_revalidated(item, model, what) for item in value]


def checked_game(values: Mapping[str, Any]) -> GameState:
    """The game of a snapshot's values, checked; also that its pending decision computes."""
    if not isinstance(values, Mapping):
        raise DamagedValue(f"the saved values are a {type(values).__name__}, not a mapping")
    game = _revalidated(values["game"], GameState, "game")
    pending_decision(game)
    return game


def checked_values(values: Mapping[str, Any]) -> dict[str, Any]:
    """Every value a reader uses, checked: game, events, records, seating, setup."""
    checked: dict[str, Any] = dict(values)
    checked["game"] = checked_game(values)
    checked["events"] = _revalidated_list(values.get("events", []), Event, "events")
    checked["records"] = _revalidated_list(values.get("records", []), DecisionRecord, "records")
    checked["seating"] = _revalidated(values.get("seating") or Seating(), Seating, "seating")
    if values.get("setup") is not None:
        checked["setup"] = _revalidated(values["setup"], GameSetup, "setup")
    return checked
