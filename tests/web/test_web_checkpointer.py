"""The server's checkpointer (web/checkpointer.py) does what langgraph-api asks of a custom
one: it stamps the database it creates, deletes a rolled-back run's checkpoints, copies a
thread whole, and prunes by deleting (keep_latest is refused: it would lose a game's
transcript, which lives in delta channels)."""

import asyncio
import sqlite3
from pathlib import Path

import pytest
from langgraph.checkpoint.base import empty_checkpoint

from autowerewolf.errors import StoreError
from autowerewolf.store import APPLICATION_ID, SCHEMA_VERSION
from autowerewolf.web.checkpointer import GameSaver, make_saver
from autowerewolf.web.settings import DB_ENV


def _config(thread: str) -> dict[str, dict[str, str]]:
    return {"configurable": {"thread_id": thread, "checkpoint_ns": ""}}


async def _put(saver: GameSaver, thread: str, run_id: str) -> str:
    checkpoint = empty_checkpoint()
    stored = await saver.aput(_config(thread), checkpoint, {"run_id": run_id, "step": 1}, {})
    await saver.aput_writes(stored, [("events", ["e"])], task_id="t1")
    return str(stored["configurable"]["checkpoint_id"])


def _rows(db: Path, table: str, thread: str) -> int:
    conn = sqlite3.connect(db)
    try:
        query = f"SELECT count(*) FROM {table} WHERE thread_id = ?"
        return int(conn.execute(query, (thread,)).fetchone()[0])
    finally:
        conn.close()


def test_the_saver_stamps_deletes_runs_copies_and_prunes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "server.db"
    monkeypatch.setenv(DB_ENV, str(db))

    async def scenario() -> None:
        async with make_saver() as saver:
            await _put(saver, "a", "run-1")
            await _put(saver, "a", "run-2")
            await _put(saver, "b", "run-2")
            await saver.adelete_for_runs(["run-2"])
            assert [t.metadata["run_id"] async for t in saver.alist(_config("a"))] == ["run-1"]
            assert [t async for t in saver.alist(_config("b"))] == []
            await saver.acopy_thread("a", "c")
            copied = [t async for t in saver.alist(_config("c"))]
            assert [t.metadata["run_id"] for t in copied] == ["run-1"]
            assert copied[0].pending_writes == [(copied[0].pending_writes[0][0], "events", ["e"])]
            with pytest.raises(NotImplementedError, match="db prune"):
                await saver.aprune(["a"])
            await saver.aprune(["a"], strategy="delete")
            assert [t async for t in saver.alist(_config("a"))] == []

    asyncio.run(scenario())
    conn = sqlite3.connect(db)
    header = (conn.execute("PRAGMA application_id").fetchone()[0],
              conn.execute("PRAGMA user_version").fetchone()[0])  # fmt: skip
    conn.close()
    assert header == (APPLICATION_ID, SCHEMA_VERSION)
    assert _rows(db, "writes", "b") == 0 and _rows(db, "writes", "c") == 1


def test_the_saver_refuses_another_programs_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "other.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE notes (x)")
    conn.commit()
    conn.close()
    monkeypatch.setenv(DB_ENV, str(db))

    async def scenario() -> None:
        async with make_saver():
            pass

    with pytest.raises(StoreError, match="not a game database"):
        asyncio.run(scenario())
