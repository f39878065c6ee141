"""PostgreSQL connections (the `postgres` extra): a reader's or writer's connection for the
synchronous commands, a pooled asynchronous checkpointer for the asynchronous runner.

LangGraph's Postgres savers read rows by column name (`dict_row`) and run migrations with
`CREATE INDEX CONCURRENTLY` (autocommit). A reader's connection is read-only on the server
(`default_transaction_read_only`), so a reader cannot write even by mistake.
"""

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from autowerewolf.errors import SettingsError, StoreError
from autowerewolf.storage.target import Postgres

if TYPE_CHECKING:
    import psycopg
    from langgraph.checkpoint.postgres import PostgresSaver
    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

POSTGRES_EXTRA_HINT = 'pip install -e ".[postgres]"'
CONNECT_TIMEOUT_S = 10


def require_postgres() -> None:
    """One line naming the extra when its packages are missing."""
    try:
        import langgraph.checkpoint.postgres  # noqa: F401
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError as err:
        raise SettingsError(
            f"a postgresql:// database needs the 'postgres' extra (module {err.name!r} is "
            f"missing): {POSTGRES_EXTRA_HINT}"
        ) from None


def _options(readonly: bool) -> dict[str, Any]:
    from psycopg.rows import dict_row

    # prepare_threshold=0: prepared statements at once (set None behind pgbouncer's
    # transaction mode, which cannot keep them).
    kwargs: dict[str, Any] = {"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row}
    if readonly:
        kwargs["options"] = "-c default_transaction_read_only=on"
    return kwargs


def connect(db: Postgres, *, readonly: bool) -> "psycopg.Connection[Any]":
    require_postgres()
    import psycopg

    try:
        return psycopg.connect(db.url, connect_timeout=CONNECT_TIMEOUT_S, **_options(readonly))
    except psycopg.Error as err:
        raise StoreError(f"cannot open {db}: {str(err).strip().splitlines()[0]}") from None


def sync_saver(conn: "psycopg.Connection[Any]", *, readonly: bool) -> "PostgresSaver":
    from langgraph.checkpoint.postgres import PostgresSaver

    from autowerewolf.store import serializer

    saver = PostgresSaver(conn, serde=serializer())
    if not readonly:
        saver.setup()
    return saver


@asynccontextmanager
async def async_saver(db: Postgres, pool_size: int) -> AsyncIterator["AsyncPostgresSaver"]:
    """A checkpointer on a pool of `pool_size` connections, for one event loop. The tables
    exist already (a synchronous writer opened the database first)."""
    require_postgres()
    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
    from psycopg_pool import AsyncConnectionPool

    from autowerewolf.store import serializer

    pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
        db.url,
        min_size=pool_size,
        max_size=pool_size,
        open=False,
        timeout=60,
        kwargs={**_options(False), "connect_timeout": CONNECT_TIMEOUT_S},
    )
    await pool.open(wait=True)
    try:
        saver = AsyncPostgresSaver(pool, serde=serializer())
        # langgraph#7259: the saver holds one asyncio.Lock around every query, even with a
        # pool, so a pool of n works like one connection. With a pool (never with a single
        # shared connection) n queries at once are safe.
        saver.lock = asyncio.Semaphore(pool_size)  # type: ignore[assignment]
        yield saver
    finally:
        await pool.close()
