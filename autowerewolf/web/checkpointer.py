"""The LangGraph server's checkpointer (`checkpointer.path` in langgraph.json): the game
database itself, so that games played in the browser are ordinary saved games
(`autowerewolf games`, `replay`, `fork` read them) and survive a server restart.

Same file settings and the same allow-list serializer as the command line's store
(store.py); the server runs every game with `durability="sync"`, so each step is committed
before the next one starts.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiosqlite
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from autowerewolf.store import BUSY_TIMEOUT_S, serializer
from autowerewolf.web.settings import database_path


@asynccontextmanager
async def make_saver() -> AsyncIterator[AsyncSqliteSaver]:
    conn = await aiosqlite.connect(database_path(), timeout=BUSY_TIMEOUT_S)
    try:
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA synchronous=NORMAL")
        saver = AsyncSqliteSaver(conn, serde=serializer())
        await saver.setup()
        yield saver
    finally:
        await conn.close()
