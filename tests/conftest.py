"""Shared fixtures: a fresh game database; a real PostgreSQL server on 127.0.0.1; the
folder the web app's screenshots go to (`--screenshots DIR`; none are taken without it)."""

import importlib.util
from collections.abc import Iterator
from pathlib import Path

import pytest

from autowerewolf.runner import Games
from tests.graph.graph_helpers import new_games

# Under CI=true a skipped test fails unless its reason is allowed (tests/skip_policy.py);
# every test has a time limit (tests/time_limits.py).
pytest_plugins = ["tests.skip_policy", "tests.time_limits"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--screenshots",
        metavar="DIR",
        type=Path,
        default=None,
        help="save the browser tests' screenshots of the web app into DIR (docs/screenshots "
        "in the README's command); without it none are taken: tests write only to "
        "temporary folders",
    )


@pytest.fixture(scope="session")
def screenshots(request: pytest.FixtureRequest) -> Path | None:
    folder: Path | None = request.config.getoption("--screenshots")
    return folder.resolve() if folder is not None else None


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
