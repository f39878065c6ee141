"""Promise: only play, resume, batch, fork and tournament write, and they refuse a file that
is not a game database of this project instead of adding tables to it; the databases they
create carry the project's SQLite application id.
"""

import sqlite3
from pathlib import Path

from autowerewolf.store import APPLICATION_ID, SCHEMA_VERSION

from .helpers import FileState, cli, error_line, foreign_database


def _header(db: Path) -> tuple[int, int]:
    conn = sqlite3.connect(db)
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        return app_id, conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


def test_new_databases_are_stamped(played: Path) -> None:
    assert _header(played) == (APPLICATION_ID, SCHEMA_VERSION)


def test_writers_refuse_another_programs_database(tmp_path: Path) -> None:
    db = tmp_path / "other.db"
    foreign_database(db)
    tournament = tmp_path / "t.yaml"
    tournament.write_text(
        "name: t\nboard: 8-arena\ngames: 2\n"
        "contestants: [{name: a, kind: random}, {name: b, kind: heuristic}]\n",
        encoding="utf-8",
    )
    before = FileState.of(db)
    for args in (
        ("play", "--players", "random", "--seed", "1", "--db", db),
        ("batch", "--games", "1", "--players", "random", "--db", db),
        ("resume", "g", "--db", db),
        ("fork", "g", "--step", "1", "--db", db),
        ("tournament", tournament, "--db", db, "--out", tmp_path / "out"),
    ):
        line = error_line(cli(*args))
        assert "not a game database" in line, (args, line)
        assert FileState.of(db) == before, args


def test_another_application_id_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "other.db"
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA application_id = 1234")
    conn.close()
    line = error_line(cli("play", "--players", "random", "--seed", "1", "--db", db))
    assert "belongs to another program" in line


def test_an_unstamped_game_database_is_accepted_and_stamped(played: Path, tmp_path: Path) -> None:
    """Databases written before the stamp hold only the project's tables."""
    db = tmp_path / "old.db"
    db.write_bytes(played.read_bytes())
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA application_id = 0")
    conn.execute("PRAGMA user_version = 0")
    conn.close()
    assert cli("games", "--db", db).exit_code == 0
    assert _header(db) == (0, 0)  # a reader does not stamp it
    result = cli("play", "--players", "random", "--seed", "2", "--game-id", "h", "--db", db)
    assert result.exit_code == 0, result.stderr
    assert _header(db) == (APPLICATION_ID, SCHEMA_VERSION)


def test_an_empty_file_becomes_a_game_database_for_a_writer(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    db.touch()
    result = cli("play", "--players", "random", "--seed", "1", "--game-id", "g", "--db", db)
    assert result.exit_code == 0, result.stderr
    assert _header(db) == (APPLICATION_ID, SCHEMA_VERSION)
