"""Reading saved games for studies (positions, experiments, export) without writing.

A study reads databases it does not own (a tournament's, a copy someone shared), so it
opens them as the other readers do (`Games(readonly=True)`: a read-only SQLite URI, no
table set-up; store.py), and only forks *into* another database. It also reads the
checkpoints' stored game states without rebuilding each one's transcript from its deltas,
which is what finding one step costs otherwise (LangGraph's history rebuilds them all).
"""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig

from autowerewolf.evaluation.tournament.results import databases
from autowerewolf.integrity import checked_game, checked_values
from autowerewolf.rules.state import GameState
from autowerewolf.runner import GameRecord, Games
from autowerewolf.storage.target import Database


class SavedGames(Games):
    """The games of one database, opened read-only. Use the reading methods, and `fork`
    with `into=` another database; the writing methods would reopen the file for writing."""

    def __init__(self, db: Database) -> None:
        super().__init__(db, readonly=True)

    def states(self, game_id: str) -> list[tuple[RunnableConfig, GameState]]:
        """Each checkpoint's game state with its config, oldest first."""
        found = []
        with self._reading(game_id):
            for saved in self.store.saver.list(self.run_config(game_id)):
                values = saved.checkpoint["channel_values"]
                if saved.config["configurable"].get("checkpoint_ns") == "" and "game" in values:
                    found.append((saved.config, checked_game(values)))
        return found[::-1]

    def values_at(self, config: RunnableConfig) -> dict[str, Any]:
        """Everything saved at one checkpoint, transcript included, checked."""
        game_id = config["configurable"]["thread_id"]
        with self._reading(game_id):
            return checked_values(self.graph.get_state(config).values)


def finished_games(source: Path) -> Iterator[tuple[Database, SavedGames, GameRecord]]:
    """Every finished game of a database, or of every `*.db` in a folder, in id order."""
    for db in databases(source):
        games = SavedGames(db)
        try:
            for game_id in games.ids():
                record = games.peek(game_id)
                if record is not None and record.status == "finished":
                    yield db, games, record
        finally:
            games.close()
