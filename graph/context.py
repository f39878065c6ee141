"""Runtime context: live objects the nodes use but the state must never hold."""

import threading
from dataclasses import dataclass, field
from functools import cache
from typing import ClassVar

from pydantic import ConfigDict
from pydantic.json_schema import SkipJsonSchema

from autowerewolf.players.base import Player
from autowerewolf.players.factory import PlayerBuilder, PlayerFactory
from autowerewolf.players.seating import Seating
from autowerewolf.rules.views import SeatView


@dataclass
class GameContext:
    """Passed on every invoke/resume (it is not checkpointed).

    LangGraph Studio shows its JSON schema (`get_context_jsonschema`): the player factory is
    a live object, never JSON, so it is left out of the schema; what a run may set is the
    plain fields."""

    __pydantic_config__: ClassVar[ConfigDict] = ConfigDict(arbitrary_types_allowed=True)

    player_factory: SkipJsonSchema[PlayerFactory] = field(
        default_factory=PlayerBuilder,
        metadata={
            "description": "Builds a seat's live player from its kind and its own view; "
            "holds the model configs and clients of LLM seats."
        },
    )
    night_call_s: float = field(
        default=0.0,
        metadata={
            "description": "When a human sits at the table, every night lasts at least this "
            "many seconds per night role of the board, so its length tells nothing about who "
            "holds which role (nodes/night_clock.py). The web server sets it; 0: off."
        },
    )

    def __post_init__(self) -> None:
        # Live state, not fields: not part of the context's schema nor of its repr.
        self._players: dict[tuple[str, str], Player] = {}
        self._lock = threading.Lock()

    def player(self, game_id: str, seating: Seating, view: SeatView) -> Player:
        """The seat's live player in this game, built once and reused for the whole run."""
        key = (game_id, view.seat)
        with self._lock:
            if key not in self._players:
                kind = seating.kind_of(view.seat)
                self._players[key] = self.player_factory(view.seat, kind, seating, view)
            return self._players[key]

    def forget(self, game_id: str) -> None:
        """Drop a finished game's live players (their memory is in the game's records),
        closing those that hold a resource (an agent's program)."""
        with self._lock:
            for key in [k for k in self._players if k[0] == game_id]:
                close = getattr(self._players.pop(key), "close", None)
                if callable(close):
                    close()


@cache
def default_context() -> GameContext:
    """For runs invoked without a context: one per process, so players (and an LLM seat's
    memory, and any local model server) are not rebuilt at every step."""
    return GameContext()
