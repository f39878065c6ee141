"""The `results` table: one JSON row per finished game, next to the checkpoints.

Restoring a game through LangGraph costs ~10-20 ms, so reports read these rows instead,
one at a time. Finished games that have no row (played by `play`/`batch`, or whose
process died between the last step and the row write) are extracted from their
checkpoints as a fallback, also one at a time.

Only the tournament (a writer of its own database) writes rows. Reports open every
database read-only and never add the table or rows to it: a report over games played by
`play` re-extracts them from their checkpoints each time.
"""

import json
import sqlite3
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import cast

from autowerewolf.errors import StoreError
from autowerewolf.evaluation.config import Price
from autowerewolf.evaluation.facts import GameRow, game_row
from autowerewolf.runner import GameRecord
from autowerewolf.store import connect as connect_store

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    game_id TEXT PRIMARY KEY,
    tournament TEXT,
    row TEXT NOT NULL
)
"""


def connect(db: Path, *, create: bool = False) -> sqlite3.Connection:
    """A writer's connection (the tournament's), with the `results` table."""
    conn = connect_store(db, create=create)
    conn.execute(SCHEMA)
    return conn


def _tables(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


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
    if "results" not in _tables(conn):
        return set()
    if tournament is None:
        return {r[0] for r in conn.execute("SELECT game_id FROM results")}
    query = "SELECT game_id FROM results WHERE tournament = ?"
    return {r[0] for r in conn.execute(query, (tournament,))}


def _checkpoint_ids(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT DISTINCT thread_id FROM checkpoints")}


def _stored_rows(conn: sqlite3.Connection, tournament: str | None) -> Iterator[GameRow]:
    if "results" not in _tables(conn):
        return
    query = "SELECT row FROM results"
    params: tuple[str, ...] = ()
    if tournament is not None:
        query += " WHERE tournament = ?"
        params = (tournament,)
    for (text,) in conn.execute(query + " ORDER BY game_id", params):
        row = json.loads(text)
        # A damaged row must fail here, as one line, not deep inside the report's arithmetic.
        if not isinstance(row, dict) or not GameRow.__required_keys__ <= row.keys():
            raise ValueError("a row is not a game result")
        yield cast(GameRow, row)


def iter_rows(db: Path, tournament: str | None = None) -> Iterator[GameRow]:
    """Every finished game of `db` as a row, streamed in game-id order (read-only)."""
    conn = connect_store(db, readonly=True)
    try:
        try:
            yield from _stored_rows(conn, tournament)
        except (sqlite3.DatabaseError, ValueError) as err:
            # json.JSONDecodeError and UnicodeDecodeError are ValueErrors.
            first = str(err).splitlines()[0]
            raise StoreError(f"{db} has a damaged result row ({first})") from None
        missing = sorted(_checkpoint_ids(conn) - finished_ids(conn))
    except sqlite3.DatabaseError as err:
        raise StoreError(f"{db} is not a usable game database ({err})") from None
    finally:
        conn.close()
    if missing and tournament is None:
        yield from _from_checkpoints(db, missing)


def _from_checkpoints(db: Path, game_ids: list[str]) -> Iterator[GameRow]:
    # Imported here: building the game graph is only worth it when some rows are missing.
    from autowerewolf.runner import Games

    games = Games(db, readonly=True)
    try:
        for game_id in game_ids:
            record = games.load(game_id)
            if record.status != "finished":
                continue
            try:
                row = row_of(record)
            except (ValueError, KeyError, TypeError) as err:
                # The checkpoints decoded, but the transcript does not add up to a game.
                raise StoreError(f"game {game_id!r} in {db} is damaged ({err!r})") from None
            yield row
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
