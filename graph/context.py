"""Runtime context: live objects the nodes use but the state must never hold."""

from dataclasses import dataclass, field
from functools import cache

from autowerewolf.players.factory import PlayerBuilder
from autowerewolf.players.seating import Seating
from autowerewolf.players.table import PlayerFactory, SeatTable


@dataclass
class GameContext:
    """Passed on every invoke/resume (it is not checkpointed)."""

    player_factory: PlayerFactory = field(
        default_factory=PlayerBuilder,
        metadata={"description": "Builds the live player of a seat from its kind."},
    )
    _tables: dict[str, SeatTable] = field(default_factory=dict, init=False, repr=False)

    def table(self, seating: Seating) -> SeatTable:
        """The live players for this seating, built once and reused for the whole run."""
        key = seating.model_dump_json()
        if key not in self._tables:
            self._tables[key] = SeatTable(seating, self.player_factory)
        return self._tables[key]


@cache
def default_context() -> GameContext:
    """For runs invoked without a context: one per process, so players (and an LLM seat's
    memory, and any local model server) are not rebuilt at every step."""
    return GameContext()
