"""Fixtures of the reliability tests: saved games to damage, copy and read."""

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from .helpers import play_random


@pytest.fixture(autouse=True)
def log_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The CLI's log file goes to the test's folder, never to the user's home."""
    folder = tmp_path / "logs"
    monkeypatch.setenv("AUTOWEREWOLF_LOG_DIR", str(folder))
    return folder


@pytest.fixture(scope="session")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database holding one finished random game `g`, played by `autowerewolf play`."""
    db = tmp_path_factory.mktemp("played") / "games.db"
    play_random(db)
    return db


@pytest.fixture(scope="session")
def played_two_kinds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished game `g` with two kinds of players, so that `report` has a ranking."""
    db = tmp_path_factory.mktemp("played2") / "games.db"
    play_random(db, "--seat", "P01=heuristic", "--seat", "P02=heuristic")
    return db


@pytest.fixture
def game_db(played: Path, tmp_path: Path) -> Iterator[Path]:
    """A private copy of `played` to damage or read."""
    folder = tmp_path / "db"
    folder.mkdir()
    copy = folder / "games.db"
    shutil.copyfile(played, copy)
    yield copy
