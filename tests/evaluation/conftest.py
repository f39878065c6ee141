"""A small heuristic-vs-random tournament shared by the studies' tests (positions,
experiments, GTE, export), and the builder of such tournaments. Tests that read it must
leave it byte-identical."""

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from autowerewolf.evaluation.tournament.config import TournamentConfig
from autowerewolf.evaluation.tournament.play import run_tournament
from tests.fixed import HEX_SECRET


def heuristic_vs_random(name: str, games: int, seed: int, **fields: Any) -> TournamentConfig:
    """The heuristic player against the random one, two games at once, on a fixed secret:
    the same games in every run, so what a test finds is stable. `fields` add to the
    config's."""
    return TournamentConfig.model_validate(
        {
            "name": name,
            "games": games,
            "seed": seed,
            "secret": HEX_SECRET,
            "concurrency": 2,
            "contestants": [
                {"name": "heuristic", "kind": "heuristic"},
                {"name": "random", "kind": "random"},
            ],
            **fields,
        }
    )


STUDY = heuristic_vs_random("study", 24, 5)


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
