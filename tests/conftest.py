"""Shared fixtures: a fresh game database; a real PostgreSQL server on 127.0.0.1."""

import importlib.util
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


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL from Debian's `postgresql` package (.ci/run installs it),
    for the whole session."""
    from tests.servers.postgres import bindir, postgres_server

    if bindir() is None:
        pytest.skip("PostgreSQL is not installed (apt-get install -y postgresql)")
    if importlib.util.find_spec("langgraph.checkpoint.postgres") is None:
        pytest.skip('the postgres extra is not installed (pip install -e ".[postgres]")')
    with postgres_server() as url:
        yield url
