"""Shared fixtures: a fresh game database."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from autowerewolf.runner import Games
from tests.graph.graph_helpers import new_games


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def games(db: Path) -> Iterator[Games]:
    store = new_games(db)
    yield store
    store.close()
