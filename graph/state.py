"""The graph's state: data only. Class paths are stored in checkpoints: keep them here.

`GameInput` is what starts a game (all that `langgraph dev` and the API ask for);
`GameGraphState` adds what the run produces. The transcript (events) and the decision
records grow all game long; they live in delta channels so that each checkpoint stores only
what a step added, not the whole list again.
"""

from collections.abc import Mapping
from typing import Annotated, Any

from langgraph.channels import DeltaChannel
from pydantic import Field

# Pydantic (and so Studio's input form, `get_input_jsonschema`) reads TypedDicts only from
# typing_extensions before Python 3.12.
from typing_extensions import TypedDict

from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.events import Event
from autowerewolf.rules.state import GameState


def extend(current: list[Any], writes: list[list[Any]]) -> list[Any]:
    merged = list(current)
    for batch in writes:
        merged.extend(batch)
    return merged


class GameInput(TypedDict, total=False):
    setup: Annotated[
        GameSetup, Field(description="The game to create: board, rule flags, seed, deal.")
    ]
    seating: Annotated[
        Seating, Field(description="Who plays which seat: player kinds, scripts, agents, probes.")
    ]


class GameGraphState(GameInput, total=False):
    game: GameState  # the engine's state, replaced at every step
    events: Annotated[list[Event], DeltaChannel(extend)]  # the transcript
    records: Annotated[list[DecisionRecord], DeltaChannel(extend)]  # how each answer was made


def game_of(state: Mapping[str, Any]) -> GameState:
    """The game, also when it arrives as plain JSON (API input, `update_state`)."""
    game = state["game"]
    return game if isinstance(game, GameState) else GameState.model_validate(game)


def events_of(state: Mapping[str, Any]) -> list[Event]:
    """The transcript, also when (part of) it arrives as plain JSON (API `update_state`)."""
    return [e if isinstance(e, Event) else Event.model_validate(e) for e in state.get("events", [])]


def records_of(state: Mapping[str, Any]) -> list[DecisionRecord]:
    return [
        r if isinstance(r, DecisionRecord) else DecisionRecord.model_validate(r)
        for r in state.get("records", [])
    ]


def seating_of(state: Mapping[str, Any]) -> Seating:
    seating = state.get("seating") or Seating()
    return seating if isinstance(seating, Seating) else Seating.model_validate(seating)


def setup_of(state: Mapping[str, Any]) -> GameSetup:
    setup = state.get("setup") or GameSetup()
    return setup if isinstance(setup, GameSetup) else GameSetup.model_validate(setup)
