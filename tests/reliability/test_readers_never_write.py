"""Promise: `games`, `inspect`, `history`, `replay` and `report` open databases read-only:
a copied, foreign, empty, damaged or read-only file is byte-identical afterwards (its
-wal and -shm too), and no file appears beside it; the steps held in a crashed game's
-wal file are read all the same.
"""

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from autowerewolf.runner import Games

from .helpers import (
    ALL_READERS,
    CRASHED_WRITER,
    FileState,
    cli,
    error_line,
    not_a_database,
    reader_args,
)


def test_readers_leave_a_saved_game_byte_identical(game_db: Path, tmp_path: Path) -> None:
    before = FileState.of(game_db)
    for name in ALL_READERS:
        result = cli(*reader_args(name, game_db, tmp_path / "out"))
        # report: one contestant kind (all random) has no ranking, after reading every game.
        assert result.exit_code == (2 if name == "report" else 0), (name, result.stderr)
        assert FileState.of(game_db) == before, name
    assert before.names == ("games.db",)


def test_report_writes_only_its_output(played_two_kinds: Path, tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    shutil.copyfile(played_two_kinds, db)
    before = FileState.of(db)
    result = cli("report", db, "--resamples", 100)
    assert result.exit_code == 0, result.stderr
    after = FileState.of(db)
    assert after.files == before.files and after.names == ("games.db", "report")
    tables = {r[0] for r in sqlite3.connect(db).execute("SELECT name FROM sqlite_master")}
    assert "results" not in tables
    assert (tmp_path / "report" / "report.html").is_file()


@pytest.mark.parametrize("kind", ["foreign", "empty", "text", "directory"])
def test_readers_refuse_what_is_not_a_game_database(tmp_path: Path, kind: str) -> None:
    db = tmp_path / "games.db"
    not_a_database(db, kind)
    before = FileState.of(db) if db.is_file() else None
    expected = {"foreign": "not a game database (it holds notes)", "empty": "is empty",
                "text": "not a SQLite database", "directory": "is a directory"}  # fmt: skip
    for name in ALL_READERS:
        line = error_line(cli(*reader_args(name, db, tmp_path / "out")))
        assert expected[kind] in line or (name == "report" and kind == "directory"), line
        if before is not None:
            assert FileState.of(db) == before, name


def test_a_newer_schema_is_refused(game_db: Path, tmp_path: Path) -> None:
    conn = sqlite3.connect(game_db)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    for name in ("games", "replay"):
        assert "newer autowerewolf" in error_line(cli(*reader_args(name, game_db, tmp_path)))


def test_read_only_file_and_folder(game_db: Path, tmp_path: Path) -> None:
    """chmod 0444 file in a 0555 folder. (Run as root, permissions do not bind: the test
    then still checks that nothing changed and nothing was created.)"""
    folder = game_db.parent
    game_db.chmod(0o444)
    folder.chmod(0o555)
    try:
        before = FileState.of(game_db)
        for name in ALL_READERS:
            result = cli(*reader_args(name, game_db, tmp_path / "out"))
            assert result.exit_code == (2 if name == "report" else 0), (name, result.stderr)
            assert FileState.of(game_db) == before, name
    finally:
        folder.chmod(0o755)
        game_db.chmod(0o644)


def test_a_crashed_games_wal_is_read_and_left_alone(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    subprocess.run([sys.executable, "-c", CRASHED_WRITER, str(db)], check=True, timeout=120)
    wal = db.with_name("games.db-wal")
    assert wal.stat().st_size > 0 and db.with_name("games.db-shm").exists()
    # The -wal is part of the database: the .db alone does not hold the game yet.
    alone = tmp_path / "alone" / "games.db"
    alone.parent.mkdir()
    shutil.copyfile(db, alone)
    assert "is empty, not a game database" in error_line(cli("inspect", "crashed", "--db", alone))

    before = FileState.of(db)
    listing = cli("games", "--db", db)
    assert listing.exit_code == 0 and "crashed" in listing.stdout and "unfinished" in listing.stdout
    for args in (("inspect", "crashed"), ("history", "crashed"), ("replay", "crashed")):
        assert cli(*args, "--db", db).exit_code == 0, args
    assert FileState.of(db) == before

    # A writer then continues the game from the -wal's last step.
    assert cli("resume", "crashed", "--db", db).exit_code == 0
    games = Games(db, readonly=True)
    try:
        assert games.load("crashed").status == "finished"
    finally:
        games.close()


def test_a_wal_without_its_shm_is_refused_not_rebuilt(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    subprocess.run([sys.executable, "-c", CRASHED_WRITER, str(db)], check=True, timeout=120)
    os.remove(db.with_name("games.db-shm"))
    before = FileState.of(db)
    assert "-wal file but no -shm" in error_line(cli("games", "--db", db))
    assert FileState.of(db) == before
