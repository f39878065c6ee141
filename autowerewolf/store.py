"""Games saved in one SQLite file: open it safely, list what it holds."""

import sqlite3
from pathlib import Path

from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite import SqliteSaver

from autowerewolf.errors import StoreError
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import Seating
from autowerewolf.players.simple import ScriptedAnswer
from autowerewolf.rules import config, events, roles, state, variants

# Each game's busy writer waits this long for another process's transaction.
BUSY_TIMEOUT_S = 60


# Types restored from checkpoints. The serializer refuses unlisted classes (a saved game
# must not be able to instantiate arbitrary code), so every stored model and enum is here.
STORED_TYPES: tuple[type, ...] = (
    config.GameConfig, config.GameSetup, variants.Variants, variants.WinMode,
    variants.BadgeSwallow, roles.Role, roles.Camp, state.GameState, state.Seat, state.Night,
    state.Election, state.Vote, state.ChainTask, state.Step, state.Cause, state.BadgeStatus,
    state.TaskKind, events.Event, events.EventKind, events.Audience, Seating, ScriptedAnswer,
    DecisionRecord,
)  # fmt: skip


def serializer() -> JsonPlusSerializer:
    return JsonPlusSerializer(
        allowed_msgpack_modules=[(t.__module__, t.__qualname__) for t in STORED_TYPES]
    )


def open_saver(path: Path, *, create: bool) -> SqliteSaver:
    """A checkpointer on `path`. Refuses a missing file unless `create`, and never writes
    to a file that is not a readable SQLite database."""
    if not path.exists() and not create:
        raise StoreError(f"no game database at {path}")
    if path.exists() and path.is_dir():
        raise StoreError(f"{path} is a directory, not a game database")
    if path.exists() and path.stat().st_size > 0:
        with path.open("rb") as f:
            if f.read(16) != b"SQLite format 3\x00":
                raise StoreError(f"{path} is not a SQLite database")
    if create:
        path.parent.mkdir(parents=True, exist_ok=True)
    try:
        conn = sqlite3.connect(path, check_same_thread=False, timeout=BUSY_TIMEOUT_S)
        conn.execute("PRAGMA journal_mode=WAL")
        # WAL with synchronous=NORMAL survives a process kill (only an OS crash can lose
        # the last commits); FULL would cost ~4x per step (notes/langgraph.md).
        conn.execute("PRAGMA synchronous=NORMAL")
        saver = SqliteSaver(conn, serde=serializer())
        saver.setup()
        conn.execute("SELECT count(*) FROM checkpoints").fetchone()
    except sqlite3.DatabaseError as err:
        raise StoreError(f"{path} is not a usable game database ({err})") from None
    return saver


def game_ids(saver: SqliteSaver) -> list[str]:
    rows = saver.conn.execute("SELECT DISTINCT thread_id FROM checkpoints ORDER BY thread_id")
    return [row[0] for row in rows]
