"""Shared by the reliability tests: running the CLI in-process and watching files."""

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from typer.testing import CliRunner

from autowerewolf.cli import app

_runner = CliRunner()

# Every command that only reads a database, with the arguments it needs for game `g`.
READERS: dict[str, tuple[str, ...]] = {
    "games": ("games",),
    "inspect": ("inspect", "g"),
    "inspect-step": ("inspect", "g", "--step", "3"),
    "history": ("history", "g"),
    "replay": ("replay", "g"),
    "replay-public": ("replay", "g", "--as", "public"),
}


def cli(*args: Any) -> Result:
    """Run the `autowerewolf` app in-process (stdout and stderr kept apart)."""
    return _runner.invoke(app, [str(a) for a in args])


def reader_args(name: str, db: Path, out: Path) -> list[Any]:
    """A reading command on `db`; `report` writes its output into `out`."""
    if name == "report":
        return ["report", db, "--out", out, "--resamples", 100]
    return [*READERS[name], "--db", db]


ALL_READERS = (*READERS, "report")


def problems(result: Result, *, allow_ok: bool) -> list[str]:
    """What is wrong with how a command ended: a traceback, an exit code other than 2 (or
    0 when `allow_ok`), or an error that is not exactly one `error:` line."""
    found = []
    output = result.stdout + result.stderr
    if "Traceback" in output or not isinstance(result.exception, SystemExit | None):
        found.append(f"traceback or uncaught {type(result.exception).__name__}")
    if result.exit_code == 0 and not allow_ok:
        found.append("accepted with exit code 0")
    elif result.exit_code not in (0, 2):
        found.append(f"exit code {result.exit_code}")
    if result.exit_code == 2 and not _usage_error(result):
        lines = result.stderr.strip().splitlines()
        if len(lines) != 1 or not lines[0].startswith("error: "):
            found.append(f"not one error line: {result.stderr[:300]!r}")
    return found


def _usage_error(result: Result) -> bool:
    """Typer's own usage panel for a malformed flag (acceptable, exit code 2)."""
    return "Usage:" in result.stderr and "error:" not in result.stderr


@dataclass(frozen=True)
class FileState:
    """Bytes and modification times of a database, its -wal and -shm, and its folder."""

    files: dict[str, tuple[bytes, int]]
    names: tuple[str, ...]

    @classmethod
    def of(cls, db: Path) -> "FileState":
        folder = db.parent
        files = {}
        for path in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
            if path.is_file():
                files[path.name] = (path.read_bytes(), path.stat().st_mtime_ns)
        return cls(files, tuple(sorted(p.name for p in folder.iterdir())))


def foreign_database(path: Path) -> None:
    """Another program's SQLite file, with tables of its own."""
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        conn.execute("INSERT INTO notes (body) VALUES ('keep me')")
    conn.close()


def not_a_database(db: Path, kind: str) -> None:
    """Put at `db` what a reader refuses as no game database: another program's SQLite
    file (`foreign`), an `empty` file, a `text` file or a `directory`."""
    if kind == "foreign":
        foreign_database(db)
    elif kind == "empty":
        db.touch()
    elif kind == "text":
        db.write_text("not a database\n", encoding="utf-8")
    else:
        assert kind == "directory", kind
        db.mkdir()


def error_line(result: Result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    return lines[0]


# A writer killed mid-game, leaving its committed steps in the -wal file only.
CRASHED_WRITER = """
import os, sys
from pathlib import Path
from autowerewolf.runner import Games
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
games = Games(Path(sys.argv[1]), create=True)
setup = GameSetup(board="8-arena", seed=3)
stream = games.graph.stream({"setup": setup, "seating": Seating()},
    games.run_config("crashed"), context=games.context, durability="sync", stream_mode="updates")
for n, _ in enumerate(stream):
    if n == 12:
        os._exit(0)  # killed mid-game: the committed steps are in the -wal file only
"""


SEED = 108
# With this secret, a short 12-A random game (72 steps, day 4). The secret is fixed so
# that every run damages the same game: a random one changes its length, and with it
# whether the transcript's delta channel has written a full snapshot (every 100 updates).
SECRET = "3" * 32


def play_random(db: Path, *extra: str, secret: str = SECRET) -> None:
    """Play the random game `g` of SEED and `secret` into `db` with `autowerewolf play`."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AUTOWEREWOLF_LOG_DIR", str(db.parent / "logs"))
        result = cli("play", "--players", "random", "--seed", SEED, "--secret", secret,
                     "--game-id", "g", "--db", db, "--narration", "off", *extra)  # fmt: skip
    assert result.exit_code == 0, result.stderr
