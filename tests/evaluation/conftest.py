"""A small heuristic-vs-random tournament shared by the studies' tests (positions,
experiments, GTE, export). Tests that read it must leave it byte-identical."""

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from autowerewolf.evaluation.tournament.config import TournamentConfig
from autowerewolf.evaluation.tournament.play import run_tournament
from tests.fixed import HEX_SECRET

STUDY = TournamentConfig.model_validate(
    {
        "name": "study",
        "games": 24,
        "seed": 5,
        # A fixed secret: the same games in every run, so what the studies find is stable.
        "secret": HEX_SECRET,
        "concurrency": 2,
        "contestants": [
            {"name": "heuristic", "kind": "heuristic"},
            {"name": "random", "kind": "random"},
        ],
    }
)


def files_digest(db: Path) -> dict[str, str]:
    """The database and any -wal/-shm beside it, by name, with their sha256."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(db.parent.glob(db.name + "*"))
    }


@pytest.fixture(scope="session")
def study_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    db = tmp_path_factory.mktemp("study") / "games.db"
    run_tournament(STUDY, db)
    before = files_digest(db)
    yield db
    assert files_digest(db) == before, "a study wrote into the database it read"
