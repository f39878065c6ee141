"""Promise: a database of games saved by an earlier version (0.1.0, before databases were
stamped) is refused with one line naming that version, by readers and writers alike, and
stays byte-identical. `data/autowerewolf-0.1.0.db.gz` is a finished 8-arena game saved by
autowerewolf 0.1.0 (commit c03f844)."""

import gzip
from pathlib import Path

import pytest

from tests.graph.graph_helpers import assert_user_error, cli

from .helpers import FileState

DATA = Path(__file__).parent / "data" / "autowerewolf-0.1.0.db.gz"


@pytest.fixture
def old_db(tmp_path: Path) -> Path:
    db = tmp_path / "old.db"
    db.write_bytes(gzip.decompress(DATA.read_bytes()))
    return db


@pytest.mark.parametrize(
    "args",
    [
        ["games"],
        ["inspect", "old-game"],
        ["history", "old-game"],
        ["replay", "old-game"],
        ["resume", "old-game"],
        ["fork", "old-game", "--step", "3"],
        ["play", "--players", "random", "--seed", "1"],
    ],
)
def test_games_of_0_1_0_are_refused_naming_the_version(old_db: Path, args: list[str]) -> None:
    before = FileState.of(old_db)
    assert_user_error(cli(*args, "--db", old_db), "saved by autowerewolf 0.1.0")
    assert FileState.of(old_db) == before
