"""The `results` table: one JSON row per finished game, next to the checkpoints.

Restoring a game through LangGraph costs ~10-20 ms, so reports read these rows instead,
one at a time. Finished games that have no row (played by `play`/`batch`, or whose
process died between the last step and the row write) are extracted from their
checkpoints as a fallback, also one at a time.
"""

import json
import sqlite3
from collections.abc import Iterator, Mapping
from pathlib import Path

from autowerewolf.errors import StoreError
from autowerewolf.evaluation.config import Price
from autowerewolf.evaluation.facts import GameRow, game_row
from autowerewolf.runner import GameRecord
from autowerewolf.store import BUSY_TIMEOUT_S

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    game_id TEXT PRIMARY KEY,
    tournament TEXT,
    row TEXT NOT NULL
)
"""


def connect(db: Path, *, create: bool = False) -> sqlite3.Connection:
    if not db.is_file() and not create:
        raise StoreError(f"no game database at {db}")
    db.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(db, timeout=BUSY_TIMEOUT_S)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(SCHEMA)
    return conn


def row_of(record: GameRecord, prices: Mapping[str, Price] | None = None) -> GameRow:
    return game_row(
        record.game_id,
        record.events,
        record.records,
        record.seating,
        prices,
        seed=record.game.config.seed,
    )


def save_row(conn: sqlite3.Connection, row: GameRow, tournament: str | None) -> None:
    with conn:
        conn.execute(
            "INSERT OR REPLACE INTO results (game_id, tournament, row) VALUES (?, ?, ?)",
            (row["game_id"], tournament, json.dumps(row, separators=(",", ":"))),
        )


def finished_ids(conn: sqlite3.Connection, tournament: str | None = None) -> set[str]:
    if tournament is None:
        return {r[0] for r in conn.execute("SELECT game_id FROM results")}
    query = "SELECT game_id FROM results WHERE tournament = ?"
    return {r[0] for r in conn.execute(query, (tournament,))}


def _checkpoint_ids(conn: sqlite3.Connection) -> set[str]:
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "checkpoints" not in tables:
        return set()
    return {r[0] for r in conn.execute("SELECT DISTINCT thread_id FROM checkpoints")}


def iter_rows(db: Path, tournament: str | None = None) -> Iterator[GameRow]:
    """Every finished game of `db` as a row, streamed in game-id order."""
    conn = connect(db)
    try:
        query = "SELECT row FROM results"
        params: tuple[str, ...] = ()
        if tournament is not None:
            query += " WHERE tournament = ?"
            params = (tournament,)
        for (text,) in conn.execute(query + " ORDER BY game_id", params):
            yield json.loads(text)
        missing = sorted(_checkpoint_ids(conn) - finished_ids(conn))
    finally:
        conn.close()
    if missing and tournament is None:
        yield from _from_checkpoints(db, missing)


def _from_checkpoints(db: Path, game_ids: list[str]) -> Iterator[GameRow]:
    # Imported here: building the game graph is only worth it when some rows are missing.
    from autowerewolf.runner import Games

    games = Games(db)
    try:
        for game_id in game_ids:
            record = games.load(game_id)
            if record.status == "finished":
                yield row_of(record)
    finally:
        games.close()


def databases(path: Path) -> list[Path]:
    """A database file, or every `*.db` in a directory."""
    if path.is_dir():
        found = sorted(path.glob("*.db"))
        if not found:
            raise StoreError(f"no *.db game database in {path}")
        return found
    if not path.is_file():
        raise StoreError(f"no game database at {path}")
    return [path]
