"""Reading saved games for studies (positions, experiments, export) without writing.

A study reads databases it does not own (a tournament's, a copy someone shared), so it
opens them through a read-only SQLite URI and skips LangGraph's table set-up: the file,
and the absence of `-wal`/`-shm` files beside it, are exactly as before. Without a
non-empty `-wal` the database is wholly in the `.db` file and is opened `immutable=1`
(plain `mode=ro` would still create `-shm`); with one (a game still being played), the
committed steps in it are read with `mode=ro&readonly_shm=1`.
"""

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import cast

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.types import StateSnapshot

from autowerewolf.errors import StoreError
from autowerewolf.evaluation.results import databases
from autowerewolf.graph.builder import build_graph
from autowerewolf.graph.context import GameContext
from autowerewolf.graph.state import GameGraphState
from autowerewolf.rules.state import GameState
from autowerewolf.runner import GameRecord, Games
from autowerewolf.store import serializer

SQLITE_MAGIC = b"SQLite format 3\x00"


def _uri(db: Path) -> str:
    wal = db.with_name(db.name + "-wal")
    shm = db.with_name(db.name + "-shm")
    uri = db.absolute().as_uri()
    if not wal.exists() or wal.stat().st_size == 0:
        return f"{uri}?mode=ro&immutable=1"
    if not shm.exists():
        raise StoreError(f"{db} has a -wal file but no -shm file beside it: copy both with it")
    return f"{uri}?mode=ro&readonly_shm=1"


def read_only_saver(db: Path) -> SqliteSaver:
    if not db.is_file():
        raise StoreError(f"no game database at {db}")
    with db.open("rb") as f:
        if f.read(16) != SQLITE_MAGIC:
            raise StoreError(f"{db} is not a SQLite database")
    conn = sqlite3.connect(_uri(db), uri=True, check_same_thread=False)
    saver = SqliteSaver(conn, serde=serializer())
    saver.is_setup = True  # set-up creates tables: a reader must not
    try:
        conn.execute("SELECT count(*) FROM checkpoints").fetchone()
    except sqlite3.DatabaseError as err:
        conn.close()
        raise StoreError(f"{db} is not a usable game database ({err})") from None
    return saver


class SavedGames(Games):
    """The games of one database, opened read-only: load, history, at_ply, and `fork`
    with `into=` another (writable) database. Writing methods on it fail in SQLite."""

    def __init__(self, db: Path) -> None:
        self.saver = read_only_saver(db)
        self.graph = build_graph().compile(checkpointer=self.saver)
        self.context = GameContext()

    def states(self, game_id: str) -> list[tuple[RunnableConfig, GameState]]:
        """Each checkpoint's game state with its config, oldest first. Reads only the
        stored states, not the transcript (rebuilt from deltas): far faster than history."""
        found = []
        for saved in self.saver.list(self.run_config(game_id)):
            state = saved.checkpoint["channel_values"].get("game")
            if saved.config["configurable"].get("checkpoint_ns") == "" and state is not None:
                found.append((saved.config, state))
        return found[::-1]

    def _snapshot_at(self, game_id: str, ply: int) -> StateSnapshot:
        """As Games', without rebuilding every earlier checkpoint's transcript (an
        experiment forks the same step once per continuation)."""
        for config, state in self.states(game_id):
            if state.ply == ply:
                return self.graph.get_state(config)
        return super()._snapshot_at(game_id, ply)  # no such step: its error

    def values_at(self, config: RunnableConfig) -> GameGraphState:
        """Everything saved at one checkpoint, transcript included."""
        return cast(GameGraphState, self.graph.get_state(config).values)


def finished_games(source: Path) -> Iterator[tuple[Path, SavedGames, GameRecord]]:
    """Every finished game of a database, or of every `*.db` in a folder, in id order."""
    for db in databases(source):
        games = SavedGames(db)
        try:
            for game_id in games.ids():
                record = games.load(game_id)
                if record.status == "finished":
                    yield db, games, record
        finally:
            games.close()
