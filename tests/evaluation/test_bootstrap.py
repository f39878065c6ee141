"""Intervals over games: the bootstrap resamples whole games, covers a known effect on
simulated clustered data (where intervals over pooled ballots do not), and a null
tournament of two identical contestants puts "no difference" inside every difference
interval."""

from pathlib import Path

import numpy as np
import pytest

from autowerewolf.evaluation.bootstrap import (
    Cell,
    GameTable,
    Resamples,
    Sums,
    divide,
    percentiles,
    widened,
    wilson,
)
from autowerewolf.evaluation.report.build import build_report
from autowerewolf.evaluation.tournament.config import TournamentConfig
from autowerewolf.evaluation.tournament.play import run_tournament
from autowerewolf.evaluation.tournament.results import iter_rows
from tests.fixed import HEX_SECRET


def test_resamples_draw_whole_games_reproducibly() -> None:
    draws = Resamples(games=7, count=250, seed=3)
    blocks = list(draws.chunks())
    weights = np.vstack(blocks)
    assert weights.shape == (250, 7) and [len(b) for b in blocks] == [100, 100, 50]
    assert (weights.sum(axis=1) == 7).all()  # each resample is 7 games, drawn with repeats
    assert (weights == np.vstack(list(Resamples(7, 250, 3).chunks()))).all()
    assert (draws.first(120) == weights[:120]).all()


GAMES = 80  # per simulated tournament
TRUTH = (0.30, 0.40)  # the two contestants' expected rates: a known effect of -0.10


def simulated(rng: np.random.Generator) -> GameTable:
    """Two contestants' opportunities and successes per game. Inside a game they are not
    independent: each game has its own rate (a beta around the truth; one confused player
    makes several errors), and 4-20 opportunities."""
    table = GameTable()
    for _ in range(GAMES):
        values: dict[object, float] = {}
        for name, truth in zip("ab", TRUTH, strict=True):
            rate = rng.beta(truth * 4, (1 - truth) * 4)
            n = int(rng.integers(4, 21))
            values[(name, "n")] = n
            values[(name, "hits")] = float(rng.binomial(n, rate))
        table.add(values)
    return table


def test_cluster_bootstrap_covers_a_known_effect_where_pooled_ballots_do_not() -> None:
    rng = np.random.default_rng(11)
    covered = pooled_covered = 0
    runs = 300
    for run in range(runs):
        sums = Sums(simulated(rng), Resamples(GAMES, 1000, run))
        boot = {
            name: divide(sums.get((name, "hits"))[1], sums.get((name, "n"))[1]) for name in "ab"
        }
        lo, hi = percentiles(boot["a"] - boot["b"])
        assert lo is not None and hi is not None
        covered += lo <= TRUTH[0] - TRUTH[1] <= hi
        hits, n = sums.get(("a", "hits"))[0], sums.get(("a", "n"))[0]
        pooled_lo, pooled_hi = wilson(hits, n)  # as if every opportunity were independent
        pooled_covered += pooled_lo <= TRUTH[0] <= pooled_hi
    assert covered / runs >= 0.90
    assert pooled_covered / runs < 0.80


@pytest.mark.long
@pytest.mark.parametrize("kind", ["random"])
def test_a_null_tournament_puts_no_difference_inside_every_interval(
    kind: str, tmp_path: Path
) -> None:
    """Two identical contestants, 100 games (8-arena: the same schedule, shorter games)."""
    config = TournamentConfig.model_validate(
        {
            "name": "null",
            "board": "8-arena",
            "games": 100,
            "seed": 2,
            "secret": HEX_SECRET,  # the same games every run: a stable finding
            "concurrency": 2,
            "contestants": [{"name": "one", "kind": kind}, {"name": "two", "kind": kind}],
        }
    )
    db = tmp_path / "games.db"
    run_tournament(config, db)
    report = build_report(iter_rows(db, "null"), tmp_path / "report", seed=config.seed)
    (pair,) = report.data["pairs"]
    assert pair["games"] == 100
    for part, null in (("bt_difference", 0.0), ("win_difference", 0.0), ("head_to_head", 0.5)):
        cell = pair[part]
        assert cell["lo"] < null < cell["hi"], (part, cell)
        assert cell["chance"] == pytest.approx(null)
    assert 0.05 < pair["p_above"] < 0.95


def test_an_interval_with_no_width_is_widened_to_wilson_and_a_wide_one_kept() -> None:
    """Ten games with 0 blunders each resample to 0 every time: an empty interval that would
    claim certainty; the Wilson interval of 0 of 40 is not empty."""
    flat = Cell(value=0.0, lo=0.0, hi=0.0, n=40, games=10, chance=0.2)
    assert widened(flat) == {**flat, "hi": wilson(0, 40)[1]} and wilson(0, 40)[1] > 0.05
    wide = Cell(value=0.5, lo=0.0, hi=1.0, n=40, games=2, chance=None)
    assert widened(wide) == wide
    unseen = Cell(value=None, lo=None, hi=None, n=0, games=0, chance=None)
    assert widened(unseen) == unseen
