"""Games saved in one SQLite file: open it safely, list what it holds.

Two ways to open a database, chosen by the caller (`open_saver(path, create=, readonly=)`):

- **Readers** (`readonly=True`: games, inspect, history, replay, report) open the file
  through a read-only SQLite URI and never switch the journal mode or create tables, so a
  copied, foreign, damaged, empty or read-only file is byte-identical afterwards. Without a
  `-wal` file the whole database is the `.db` file and it is opened `immutable=1` (plain
  `mode=ro` would create `-wal`/`-shm` files beside it); with a `-wal` file (a game still
  being played, or a crashed one) it is opened `mode=ro&readonly_shm=1`, which reads the
  committed steps in the `-wal` without writing to the `-shm`.
- **Writers** (`play`, `resume`, `batch`, `fork`, `tournament`, the web server) refuse a
  file that is not a game database of this project (another program's SQLite file keeps
  its tables to itself) or that fails SQLite's `quick_check` (a damaged file is not written
  into), and stamp the databases they create with `APPLICATION_ID` and `SCHEMA_VERSION`.

A new database is created 0600 in folders created 0700 (private_files.py).

Databases written before the stamp (application id 0 holding only this project's tables)
are accepted by both; a writer stamps them.
"""

import sqlite3
from pathlib import Path

from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite import SqliteSaver

from autowerewolf.errors import StoreError
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import Seating
from autowerewolf.players.simple import ScriptedAnswer
from autowerewolf.private_files import create_private_file
from autowerewolf.rules import config, events, roles, state, variants

# Each game's busy writer waits this long for another process's transaction.
BUSY_TIMEOUT_S = 60
# Written into the SQLite header (bytes 68-71, "AWWF") so a writer can tell its own files.
APPLICATION_ID = 0x41575746
SCHEMA_VERSION = 1
# LangGraph's checkpoint tables, tournaments' designs and result rows, batches' failed games.
# model_answers: the recorded model calls a tournament is replayed from (backends/recorded.py).
OWN_TABLES = frozenset(
    {"checkpoints", "writes", "results", "failures", "tournaments", "model_answers"}
)


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


def wal_path(path: Path) -> Path:
    """The write-ahead log beside `path`: committed steps not yet copied into the `.db`."""
    return path.with_name(path.name + "-wal")


def shm_path(path: Path) -> Path:
    return path.with_name(path.name + "-shm")


def _check_file(path: Path, *, create: bool) -> None:
    """Refuse what is not a file holding a SQLite database, before SQLite touches it."""
    if not path.exists():
        if not create:
            raise StoreError(f"no game database at {path}")
        return
    if path.is_dir():
        raise StoreError(f"{path} is a directory, not a game database")
    if not path.is_file():
        raise StoreError(f"{path} is not a regular file")
    if path.stat().st_size > 0 and not _is_sqlite(path):
        raise StoreError(f"{path} is not a SQLite database")


def _is_sqlite(path: Path) -> bool:
    """Whether the file starts with SQLite's header, read through SQLite itself: closing a
    plain file handle on a database would drop every lock this process's connections hold
    on it (POSIX), and another process closing its last connection would then delete the
    -wal and -shm under them ("disk I/O error"). SQLite's own files are closed safely."""
    probe = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro&immutable=1", uri=True)
    try:
        probe.execute("PRAGMA schema_version").fetchone()
    except sqlite3.DatabaseError:
        return False
    finally:
        probe.close()
    return True


def _readonly_uri(path: Path) -> str:
    uri = path.absolute().as_uri()
    wal, shm = wal_path(path), shm_path(path)
    if not wal.exists() or (wal.stat().st_size == 0 and not shm.exists()):
        # Nothing lives outside the .db file: read it as an unchanging file (no locks, no
        # -wal/-shm created). A writer starting during the read is the one risk (docs).
        return f"{uri}?mode=ro&immutable=1"
    if not shm.exists():
        raise StoreError(
            f"{path} has a -wal file but no -shm file beside it: copy both with the .db, "
            "or open it once with `autowerewolf resume`"
        )
    return f"{uri}?mode=ro&readonly_shm=1"


def _tables(conn: sqlite3.Connection) -> set[str]:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    # sqlite_sequence, sqlite_stat1...: SQLite's own bookkeeping, present in any database.
    return {row[0] for row in rows if not row[0].startswith("sqlite_")}


def _check_identity(conn: sqlite3.Connection, path: Path, *, readonly: bool) -> bool:
    """Whether `path` is a game database of this project; False if it is still empty.

    Raises StoreError for another program's database."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    tables = _tables(conn)
    if app_id not in (0, APPLICATION_ID):
        raise StoreError(
            f"{path} belongs to another program (SQLite application id {app_id:#x}), "
            "not a game database"
        )
    if not tables:
        if readonly:
            raise StoreError(f"{path} is empty, not a game database")
        return False
    foreign = sorted(tables - OWN_TABLES)
    if foreign or "checkpoints" not in tables or "writes" not in tables:
        held = ", ".join(sorted(tables)[:5]) or "no tables"
        raise StoreError(f"{path} is not a game database (it holds {held})")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if app_id == 0:
        # Games of 0.1.0 were saved before databases were stamped, in a state layout this
        # version no longer reads (docs/reliability.md): refuse rather than misread them.
        raise StoreError(
            f"{path} holds games saved by autowerewolf 0.1.0, which this version cannot "
            "read; open it with 0.1.0, or start a new database"
        )
    if version != SCHEMA_VERSION:
        newer = "a newer" if version > SCHEMA_VERSION else "an older"
        raise StoreError(
            f"{path} was written by {newer} autowerewolf (database schema {version}; this "
            f"version reads schema {SCHEMA_VERSION})"
        )
    return True


def _check_integrity(conn: sqlite3.Connection, path: Path) -> None:
    """Refuse a database that fails SQLite's own check (a truncated file, a flipped page)
    before anything is written into it: a reader of such a file fails on its first damaged
    page, and a writer must not add games to it."""
    problems = [str(row[0]) for row in conn.execute("PRAGMA quick_check(3)")]
    if problems != ["ok"]:
        found = " ".join("; ".join(problems).replace("*** in database main ***", "").split())
        raise StoreError(f"{path} is damaged (SQLite's check: {found})")


def _open_readonly(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(_readonly_uri(path), uri=True, check_same_thread=False)
    try:
        _check_identity(conn, path, readonly=True)
    except BaseException:
        conn.close()
        raise
    return conn


def _open_writable(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, check_same_thread=False, timeout=BUSY_TIMEOUT_S)
    try:
        if not _check_identity(conn, path, readonly=False):
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        else:
            _check_integrity(conn, path)
        conn.execute("PRAGMA journal_mode=WAL")
        # WAL with synchronous=NORMAL survives a process kill (only an OS crash can lose
        # the last commits); FULL would cost ~4x per step (notes/langgraph.md).
        conn.execute("PRAGMA synchronous=NORMAL")
    except BaseException:
        conn.close()
        raise
    return conn


def connect(path: Path, *, create: bool = False, readonly: bool = False) -> sqlite3.Connection:
    """A checked connection to the game database `path` (see the module docstring)."""
    _check_file(path, create=create and not readonly)
    if create and not readonly:
        create_private_file(path)  # its -wal and -shm take its mode
    try:
        return _open_readonly(path) if readonly else _open_writable(path)
    except (sqlite3.DatabaseError, UnicodeDecodeError) as err:  # damaged pages or text
        raise StoreError(f"{path} is not a usable game database ({err})") from None


def open_saver(path: Path, *, create: bool = False, readonly: bool = False) -> SqliteSaver:
    """A checkpointer on `path`.

    `create`: a missing file becomes a new database (writers only). `readonly`: a reader's
    connection; LangGraph's table set-up is skipped because the tables were checked."""
    conn = connect(path, create=create, readonly=readonly)
    saver = SqliteSaver(conn, serde=serializer())
    try:
        if readonly:
            saver.is_setup = True
        else:
            saver.setup()
        conn.execute("SELECT count(*) FROM checkpoints").fetchone()
    except (sqlite3.DatabaseError, UnicodeDecodeError) as err:
        conn.close()
        raise StoreError(f"{path} is not a usable game database ({err})") from None
    return saver


def thread_ids(conn: sqlite3.Connection) -> list[str]:
    """The ids of the games with checkpoints; a damaged id is a damaged database."""
    ids = [row[0] for row in conn.execute("SELECT DISTINCT thread_id FROM checkpoints")]
    if not all(isinstance(i, str) for i in ids):
        raise StoreError("the database is damaged: a checkpoint has no text game id")
    return sorted(ids)


def game_ids(saver: SqliteSaver) -> list[str]:
    return thread_ids(saver.conn)
