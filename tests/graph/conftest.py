"""Game-graph tests: shared helpers live in graph_helpers.py (a unique module name, so it
cannot clash with another test folder's helpers when the whole suite runs)."""

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = str(Path(__file__).parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from graph_helpers import new_games  # noqa: E402

from autowerewolf.runner import Games  # noqa: E402


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def games(db: Path) -> Iterator[Games]:
    store = new_games(db)
    yield store
    store.close()
