"""Promise: a writer (play, batch, fork) refuses a database that fails SQLite's own check
with one `error:` line and writes nothing into it (issue 24: `play` into a page-flipped
database used to exit 0 and write into it). `resume` of a finished game only reads."""

from pathlib import Path

import pytest

from .helpers import FileState, cli, error_line

PAGE = 4096  # SQLite's default page size, the one `play` creates


def _damage_page_header(db: Path, page: int) -> None:
    """Flip a byte of a b-tree page's header (where its cell content starts): the game's
    tables still open and count their rows, SQLite's own check fails."""
    data = bytearray(db.read_bytes())
    data[(page - 1) * PAGE + 5] ^= 0x5A
    db.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "args",
    [
        ("play", "--players", "random", "--seed", "1", "--narration", "off"),
        ("batch", "--games", "1", "--players", "random"),
        ("fork", "g", "--step", "3"),
    ],
    ids=lambda a: a[0],
)
def test_writers_refuse_a_damaged_database(game_db: Path, args: tuple[str, ...]) -> None:
    _damage_page_header(game_db, 4)
    before = FileState.of(game_db)
    line = error_line(cli(*args, "--db", game_db))
    assert "damaged" in line or "not a usable game database" in line, line
    assert FileState.of(game_db) == before
