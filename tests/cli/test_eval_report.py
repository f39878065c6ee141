"""`report` on a database of several tournaments: one tournament by name, or all of them
when asked, never pooled without a word; a mistyped name and too few resamples are one
`error:` line each."""

import csv
from collections.abc import Iterator
from pathlib import Path

import pytest

from autowerewolf.evaluation.tournament.config import TournamentConfig
from autowerewolf.evaluation.tournament.play import run_tournament
from tests.fixed import HEX_SECRET
from tests.graph.graph_helpers import assert_user_error, cli, flat

NAMES = ("alpha", "beta")
GAMES = 4


@pytest.fixture(scope="module")
def two_tournaments(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One database, two short tournaments of the same contestant names."""
    db = tmp_path_factory.mktemp("two") / "games.db"
    for seed, name in enumerate(NAMES):
        config = TournamentConfig.model_validate(
            {
                "name": name,
                "board": "8-arena",
                "games": GAMES,
                "seed": seed,
                "secret": HEX_SECRET,
                "contestants": [
                    {"name": "h", "kind": "heuristic"},
                    {"name": "r", "kind": "random"},
                ],
            }
        )
        run_tournament(config, db)
    yield db


def test_several_tournaments_are_not_pooled_without_a_word(two_tournaments: Path) -> None:
    result = cli("report", two_tournaments, "--no-gte")
    line = assert_user_error(result, "holds 2 tournaments (alpha, beta)", "--tournament NAME")
    assert "--all" in line


def test_a_mistyped_name_lists_the_known_ones(two_tournaments: Path) -> None:
    result = cli("report", two_tournaments, "--tournament", "alhpa", "--no-gte")
    assert_user_error(result, "no tournament named alhpa; known: alpha, beta")


@pytest.mark.parametrize("resamples", ["0", "99", "-5"])
def test_too_few_resamples_is_one_line(two_tournaments: Path, resamples: str) -> None:
    result = cli("report", two_tournaments, "--tournament", "alpha", "--resamples", resamples)
    assert_user_error(result, f"--resamples must be at least 100, not {resamples}")


def test_tournament_and_all_together_are_refused(two_tournaments: Path) -> None:
    result = cli("report", two_tournaments, "--tournament", "alpha", "--all")
    assert_user_error(result, "not both")


def _games(folder: Path) -> dict[str, str]:
    with (folder / "ratings.csv").open() as f:
        return {r["contestant"]: r["games"] for r in csv.DictReader(f)}


def test_one_tournament_by_name(two_tournaments: Path, tmp_path: Path) -> None:
    one = cli("report", two_tournaments, "--tournament", "beta", "--out", tmp_path,
              "--no-gte", "--resamples", "100")  # fmt: skip
    assert one.exit_code == 0, one.output
    assert "Tournament beta" in flat(one.stdout)
    assert _games(tmp_path) == {"h": str(GAMES), "r": str(GAMES)}


def test_all_pools_every_tournament_and_says_so(two_tournaments: Path, tmp_path: Path) -> None:
    pooled = cli("report", two_tournaments, "--all", "--out", tmp_path, "--no-gte",
                 "--resamples", "100")  # fmt: skip
    assert pooled.exit_code == 0, pooled.output
    assert "pooling 2 tournaments (alpha, beta)" in flat(pooled.stdout)
    assert _games(tmp_path) == {"h": str(2 * GAMES), "r": str(2 * GAMES)}
