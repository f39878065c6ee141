"""Checkpointers for many concurrent games on one event loop (the asynchronous runner).

- SQLite: `GroupCommitSqliteSaver`, LangGraph's AsyncSqliteSaver whose writes from every
  game go to one writer thread with its own connection, which commits all that is queued
  in one transaction and wakes the loop once per batch. Each caller still awaits its own
  commit, so `durability="sync"` keeps its meaning (a step is on disk before the next one
  starts). Same tables and file format, so every other command reads the games. The stock
  saver's round trip through the loop per write capped it at about 200-280 steps/s and
  cost 38% more CPU per step (docs/scale.md).
- PostgreSQL: LangGraph's AsyncPostgresSaver on a connection pool (storage/postgres.py).

Open the database with a synchronous writer first (`storage.stores.open_store`): it checks
the file is a game database of this project and creates the tables.
"""

import asyncio
import json
import queue
import sqlite3
import threading
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    WRITES_IDX_MAP,
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    get_checkpoint_metadata,
)
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from autowerewolf.storage import postgres
from autowerewolf.storage.target import Database, Postgres
from autowerewolf.store import BUSY_TIMEOUT_S, serializer

_PUT = (
    "INSERT OR REPLACE INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, "
    "parent_checkpoint_id, type, checkpoint, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_WRITES_REPLACE = (
    "INSERT OR REPLACE INTO writes (thread_id, checkpoint_ns, checkpoint_id, task_id, "
    "task_path, idx, channel, type, value) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_WRITES_IGNORE = _WRITES_REPLACE.replace("OR REPLACE", "OR IGNORE")
# The most writes committed in one transaction.
MAX_BATCH = 500
Job = tuple[str, list[tuple[Any, ...]], "asyncio.Future[None]"]


def _sqlite(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


class GroupCommitSqliteSaver(AsyncSqliteSaver):
    """AsyncSqliteSaver whose writes are group-committed by one writer thread; reads and
    deletes use the parent's connection (with the same busy timeout)."""

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        super().__init__(conn, serde=serializer())
        self.path = path
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._writer, name="sqlite-writer", daemon=True)

    def start(self) -> None:
        self._thread.start()

    async def stop(self) -> None:
        self._jobs.put(None)
        await asyncio.to_thread(self._thread.join)

    def _writer(self) -> None:
        db = _sqlite(self.path)
        try:
            while (job := self._jobs.get()) is not None:
                batch = [job]
                while len(batch) < MAX_BATCH:
                    try:
                        more = self._jobs.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        self._jobs.put(None)  # stop after this batch
                        break
                    batch.append(more)
                self._commit(db, batch)
        finally:
            db.close()

    def _commit(self, db: sqlite3.Connection, batch: list[Job]) -> None:
        error: BaseException | None = None
        try:
            db.execute("BEGIN IMMEDIATE")
            for sql, rows, _ in batch:
                db.executemany(sql, rows)
            db.execute("COMMIT")
        except BaseException as err:  # every waiting step learns why its write failed
            error = err
            if db.in_transaction:
                db.execute("ROLLBACK")
        self.loop.call_soon_threadsafe(_settle, [f for _, _, f in batch], error)

    async def _write(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        done: asyncio.Future[None] = self.loop.create_future()
        self._jobs.put((sql, rows, done))
        await done

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        configurable = config["configurable"]
        thread_id, namespace = str(configurable["thread_id"]), configurable["checkpoint_ns"]
        kind, blob = self.serde.dumps_typed(checkpoint)
        meta = json.dumps(get_checkpoint_metadata(config, metadata), ensure_ascii=False)
        row = (
            thread_id, namespace, checkpoint["id"], configurable.get("checkpoint_id"), kind,
            blob, meta.encode("utf-8", "ignore"),
        )  # fmt: skip
        await self._write(_PUT, [row])
        return {
            "configurable": {
                "thread_id": thread_id,
                "checkpoint_ns": namespace,
                "checkpoint_id": checkpoint["id"],
            }
        }

    async def aput_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        # As the parent: special writes (errors, interrupts) replace, others never overwrite.
        sql = _WRITES_REPLACE if all(w[0] in WRITES_IDX_MAP for w in writes) else _WRITES_IGNORE
        c = config["configurable"]
        rows = [
            (
                str(c["thread_id"]),
                str(c["checkpoint_ns"]),
                str(c["checkpoint_id"]),
                task_id,
                task_path,
                WRITES_IDX_MAP.get(channel, idx),
                channel,
                *self.serde.dumps_typed(value),
            )
            for idx, (channel, value) in enumerate(writes)
        ]
        await self._write(sql, rows)


def _settle(futures: list["asyncio.Future[None]"], error: BaseException | None) -> None:
    for future in futures:
        if future.done():  # its step was cancelled meanwhile
            continue
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)


@asynccontextmanager
async def async_saver(db: Database, pool_size: int = 8) -> AsyncIterator[BaseCheckpointSaver[Any]]:
    """The asynchronous checkpointer of `db` (SQLite or Postgres), for the running loop."""
    if isinstance(db, Postgres):
        async with postgres.async_saver(db, pool_size) as pg_saver:
            yield pg_saver
        return
    # aiosqlite's worker thread is not a daemon: always close it, or the process hangs.
    async with aiosqlite.connect(db, timeout=BUSY_TIMEOUT_S) as conn:
        saver = GroupCommitSqliteSaver(conn, db)
        saver.is_setup = True  # the synchronous writer created the tables
        saver.start()
        try:
            yield saver
        finally:
            await saver.stop()
