"""The LangGraph server's checkpointer (`checkpointer.path` in langgraph.json): the game
database itself, so that games played in the browser are ordinary saved games
(`autowerewolf games`, `replay`, `fork` read them) and survive a server restart.

The file is opened through the command line's writer first (store.py `connect`): a file
that is not this project's game database, or fails SQLite's own check, is refused, and a
new one is stamped like any other, so every CLI command reads what the server wrote. Same
file settings and the same allow-list serializer as the command line's store; the server
runs every game with `durability="sync"`, so each step is committed before the next starts.

Beyond LangGraph's `AsyncSqliteSaver`, the server asks a custom checkpointer for
(langgraph-api 0.16 `_checkpointer/_adapter.py`): `adelete_for_runs` (a run rolled back by
`multitask_strategy="rollback"` leaves no checkpoints), `acopy_thread` (a thread's copy in
one statement, not checkpoint by checkpoint) and `aprune` (history pruning).
"""

import json
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

import aiosqlite
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from autowerewolf.store import BUSY_TIMEOUT_S, connect, serializer
from autowerewolf.web.settings import database_path

PRUNE_STRATEGIES = ("keep_latest", "delete")


class GameSaver(AsyncSqliteSaver):
    async def adelete_for_runs(self, run_ids: Sequence[str]) -> None:
        """Delete the checkpoints and writes of the given runs (the server stamps each
        checkpoint's metadata with its run id). A rolled-back run's checkpoints are the
        newest of their thread, so no later step's delta channels depend on them."""
        if isinstance(run_ids, str):
            raise TypeError("run_ids must be a sequence of run ids, not a str")
        ids = json.dumps([str(r) for r in run_ids])
        doomed = (
            "SELECT thread_id, checkpoint_ns, checkpoint_id FROM checkpoints "
            "WHERE json_valid(metadata) "
            "AND json_extract(metadata, '$.run_id') IN (SELECT value FROM json_each(?))"
        )
        async with self.lock, self.conn.cursor() as cur:
            await cur.execute(
                f"DELETE FROM writes WHERE (thread_id, checkpoint_ns, checkpoint_id) IN ({doomed})",
                (ids,),
            )
            await cur.execute(
                "DELETE FROM checkpoints "
                f"WHERE (thread_id, checkpoint_ns, checkpoint_id) IN ({doomed})",
                (ids,),
            )
            await self.conn.commit()

    async def acopy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        """Copy a thread's every checkpoint and write (its whole parent chain, which its
        delta channels are rebuilt from) under a new thread id, in one transaction."""
        source, target = str(source_thread_id), str(target_thread_id)
        metadata = (
            "CASE WHEN json_valid(metadata) AND json_type(metadata, '$.thread_id') IS NOT NULL "
            "THEN json_set(metadata, '$.thread_id', ?) ELSE metadata END"
        )
        async with self.lock, self.conn.cursor() as cur:
            await cur.execute(
                "INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, "
                "parent_checkpoint_id, type, checkpoint, metadata) "
                "SELECT ?, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, "
                f"{metadata} FROM checkpoints WHERE thread_id = ?",
                (target, target, source),
            )
            await cur.execute(
                "INSERT INTO writes (thread_id, checkpoint_ns, checkpoint_id, task_id, "
                "task_path, idx, channel, type, value) SELECT ?, checkpoint_ns, checkpoint_id, "
                "task_id, task_path, idx, channel, type, value FROM writes WHERE thread_id = ?",
                (target, source),
            )
            await self.conn.commit()

    async def aprune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        """`delete`: every checkpoint of the threads. `keep_latest` is refused, as
        LangGraph's own Postgres saver refuses it for threads with delta channels: a game's
        transcript lives in delta channels, whose latest checkpoint holds only what its
        step added. `autowerewolf db prune` keeps a finished game's final state correctly
        (it rewrites the game as one complete checkpoint: storage/prune.py)."""
        if isinstance(thread_ids, str):
            raise TypeError("thread_ids must be a sequence of thread ids, not a str")
        if strategy not in PRUNE_STRATEGIES:
            raise ValueError(f"unknown prune strategy {strategy!r}")
        if strategy == "keep_latest":
            raise NotImplementedError(
                "keep_latest would lose a game's transcript (delta channels): run "
                "`autowerewolf db prune` on the database instead"
            )
        for thread_id in thread_ids:
            await self.adelete_thread(str(thread_id))


@asynccontextmanager
async def make_saver() -> AsyncIterator[GameSaver]:
    path = database_path()
    # Checks, creates and stamps the file as every CLI writer does (store.py).
    connect(path, create=True).close()
    conn = await aiosqlite.connect(path, timeout=BUSY_TIMEOUT_S)
    try:
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA synchronous=NORMAL")
        saver = GameSaver(conn, serde=serializer())
        await saver.setup()
        yield saver
    finally:
        await conn.close()
