"""Runtime context: live objects the nodes use but the state must never hold."""

import threading
from dataclasses import dataclass, field
from functools import cache

from autowerewolf.players.base import Player
from autowerewolf.players.factory import PlayerBuilder, PlayerFactory
from autowerewolf.players.seating import Seating
from autowerewolf.rules.views import SeatView


@dataclass
class GameContext:
    """Passed on every invoke/resume (it is not checkpointed)."""

    player_factory: PlayerFactory = field(
        default_factory=PlayerBuilder,
        metadata={
            "description": "Builds a seat's live player from its kind and its own view; "
            "holds the model configs and clients of LLM seats."
        },
    )
    _players: dict[tuple[str, str], Player] = field(default_factory=dict, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def player(self, game_id: str, seating: Seating, view: SeatView) -> Player:
        """The seat's live player in this game, built once and reused for the whole run."""
        key = (game_id, view.seat)
        with self._lock:
            if key not in self._players:
                kind = seating.kind_of(view.seat)
                self._players[key] = self.player_factory(view.seat, kind, seating, view)
            return self._players[key]

    def forget(self, game_id: str) -> None:
        """Drop a finished game's live players (their memory is in the game's records)."""
        with self._lock:
            for key in [k for k in self._players if k[0] == game_id]:
                del self._players[key]


@cache
def default_context() -> GameContext:
    """For runs invoked without a context: one per process, so players (and an LLM seat's
    memory, and any local model server) are not rebuilt at every step."""
    return GameContext()
