"""Fixtures of the reliability tests: saved games to damage, copy and read."""

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from .helpers import cli

SEED = 108
# With this secret, a short 12-A random game (72 steps, day 4). The secret is fixed so
# that every run damages the same game: a random one changes its length, and with it
# whether the transcript's delta channel has written a full snapshot (every 100 updates).
SECRET = "3" * 32


@pytest.fixture(autouse=True)
def log_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The CLI's log file goes to the test's folder, never to the user's home."""
    folder = tmp_path / "logs"
    monkeypatch.setenv("AUTOWEREWOLF_LOG_DIR", str(folder))
    return folder


def _play(db: Path, *extra: str) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AUTOWEREWOLF_LOG_DIR", str(db.parent / "logs"))
        result = cli("play", "--players", "random", "--seed", SEED, "--secret", SECRET,
                     "--game-id", "g", "--db", db, "--narration", "off", *extra)  # fmt: skip
    assert result.exit_code == 0, result.stderr


@pytest.fixture(scope="session")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database holding one finished random game `g`, played by `autowerewolf play`."""
    db = tmp_path_factory.mktemp("played") / "games.db"
    _play(db)
    return db


@pytest.fixture(scope="session")
def played_two_kinds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished game `g` with two kinds of players, so that `report` has a ranking."""
    db = tmp_path_factory.mktemp("played2") / "games.db"
    _play(db, "--seat", "P01=heuristic", "--seat", "P02=heuristic")
    return db


@pytest.fixture
def game_db(played: Path, tmp_path: Path) -> Iterator[Path]:
    """A private copy of `played` to damage or read."""
    folder = tmp_path / "db"
    folder.mkdir()
    copy = folder / "games.db"
    shutil.copyfile(played, copy)
    yield copy
