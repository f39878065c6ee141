"""One database of games, SQLite or PostgreSQL, for the synchronous commands: its
checkpointer, the ids of its games, and this project's own small tables (`results`, the
tournament's rows; `failures`, the batch games that failed and why).

SQL here is written once, with `?` placeholders and `ON CONFLICT` upserts, which both
databases understand; the Postgres store turns `?` into `%s`.
"""

import sqlite3
from collections.abc import Sequence
from typing import Any, Protocol

from langgraph.checkpoint.base import BaseCheckpointSaver

from autowerewolf.errors import StoreError
from autowerewolf.storage import postgres
from autowerewolf.storage.target import Database, Postgres
from autowerewolf.store import open_saver

OWN_TABLE_SCHEMAS = {
    "results": "CREATE TABLE IF NOT EXISTS results "
    "(game_id TEXT PRIMARY KEY, tournament TEXT, row TEXT NOT NULL)",
    "failures": "CREATE TABLE IF NOT EXISTS failures "
    "(game_id TEXT PRIMARY KEY, error TEXT NOT NULL)",
    # A tournament's design, to refuse a rerun with another one
    # (evaluation/tournament/fingerprint.py).
    "tournaments": "CREATE TABLE IF NOT EXISTS tournaments "
    "(name TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, spec TEXT NOT NULL)",
}


class Store(Protocol):
    @property
    def db(self) -> Database: ...

    @property
    def saver(self) -> BaseCheckpointSaver[Any]: ...

    @property
    def readonly(self) -> bool: ...

    @property
    def errors(self) -> tuple[type[Exception], ...]:
        """What the database driver raises for a database that cannot be used."""

    def writable(self) -> None:
        """Reopen for writing (a reader that is about to write, after its checks)."""

    def close(self) -> None: ...

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Write (writers only); committed at once."""

    def tables(self) -> set[str]: ...


class SqliteStore:
    errors: tuple[type[Exception], ...] = (sqlite3.DatabaseError,)

    def __init__(self, db: Database, *, create: bool, readonly: bool) -> None:
        assert not isinstance(db, Postgres)
        self.db, self.readonly = db, readonly
        self.saver = open_saver(db, create=create, readonly=readonly)

    def writable(self) -> None:
        if self.readonly:
            # Closed first: SQLite shares one -shm mapping per file within a process, and
            # the reader's read-only mapping would make the writer read-only too.
            self.saver.conn.close()
            self.saver, self.readonly = open_saver(self.db), False

    def close(self) -> None:
        self.saver.conn.close()

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return list(self.saver.conn.execute(sql, tuple(params)))

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        with self.saver.conn:
            self.saver.conn.execute(sql, tuple(params))

    def tables(self) -> set[str]:
        return {r[0] for r in self.query("SELECT name FROM sqlite_master WHERE type='table'")}


class PostgresStore:
    def __init__(self, db: Database, *, create: bool, readonly: bool) -> None:
        assert isinstance(db, Postgres)
        postgres.require_postgres()
        import psycopg

        self.errors: tuple[type[Exception], ...] = (psycopg.Error,)
        self.db, self.readonly = db, readonly
        self.conn = postgres.connect(db, readonly=readonly)
        try:
            if readonly and "checkpoints" not in self.tables():
                raise StoreError(f"{db} holds no games (no checkpoint tables)")
            self.saver = postgres.sync_saver(self.conn, readonly=readonly)
        except BaseException:
            self.conn.close()
            raise

    def writable(self) -> None:
        if self.readonly:
            self.conn.close()
            self.conn = postgres.connect(self.db, readonly=False)
            self.saver, self.readonly = postgres.sync_saver(self.conn, readonly=False), False

    def close(self) -> None:
        self.conn.close()

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        from psycopg.rows import tuple_row

        with self.conn.cursor(row_factory=tuple_row) as cur:
            cur.execute(sql.replace("?", "%s"), tuple(params))
            return cur.fetchall()

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        self.conn.execute(sql.replace("?", "%s"), tuple(params))

    def tables(self) -> set[str]:
        rows = self.query(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
        return {r[0] for r in rows}


def open_store(db: Database, *, create: bool = False, readonly: bool = False) -> Store:
    """A store on `db`; `create`: a missing SQLite file becomes a new database."""
    readonly = readonly and not create
    if isinstance(db, Postgres):
        return PostgresStore(db, create=create, readonly=readonly)
    return SqliteStore(db, create=create, readonly=readonly)


def thread_ids(store: Store) -> list[str]:
    """The ids of the games with checkpoints; a damaged id is a damaged database."""
    ids = [row[0] for row in store.query("SELECT DISTINCT thread_id FROM checkpoints")]
    if not all(isinstance(i, str) for i in ids):
        raise StoreError("the database is damaged: a checkpoint has no text game id")
    return sorted(ids)


def own_table(store: Store, name: str) -> bool:
    """Whether the project's table `name` exists; a writer creates it."""
    if name in store.tables():
        return True
    if store.readonly:
        return False
    store.execute(OWN_TABLE_SCHEMAS[name])
    return True


def failures(store: Store) -> dict[str, str]:
    """The games of a batch that failed, with their error (they are retried by a re-run)."""
    if not own_table(store, "failures"):
        return {}
    return {r[0]: r[1] for r in store.query("SELECT game_id, error FROM failures")}


def mark_failed(store: Store, game_id: str, error: str) -> None:
    own_table(store, "failures")
    store.execute(
        "INSERT INTO failures (game_id, error) VALUES (?, ?) "
        "ON CONFLICT (game_id) DO UPDATE SET error = excluded.error",
        (game_id, error),
    )


def clear_failed(store: Store, game_id: str) -> None:
    if own_table(store, "failures"):
        store.execute("DELETE FROM failures WHERE game_id = ?", (game_id,))
