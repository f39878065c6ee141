"""Intervals over games: the bootstrap resamples whole games, covers a known effect on
simulated clustered data (where intervals over pooled ballots do not), and a null
tournament of two identical contestants puts "no difference" inside every difference
interval; a share keeps a width at 0 and 1 and in cells of a few games."""

from pathlib import Path

import numpy as np
import pytest

from autowerewolf.evaluation.bootstrap import (
    MIN_GAMES,
    GameTable,
    Resamples,
    Sums,
    divide,
    effective_n,
    empty,
    percentiles,
    proportion,
    ratio,
    small,
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


def shares(games: int, rng: np.random.Generator, clustered: bool) -> tuple[GameTable, float]:
    """A random player's blunders over `games` games of 3-15 decisions, each decision's
    chance of a blunder one of a few option counts' (clustered: a game-wide rate drawn
    around it), and the rate those decisions' chances add up to: its chance level."""
    table, expected, decisions = GameTable(), 0.0, 0
    for _ in range(games):
        m = int(rng.integers(3, 16))
        p = float(rng.choice([0.1, 0.2, 1 / 3, 0.5]))
        if clustered:
            p = float(rng.beta(p * 2, (1 - p) * 2))
        table.add({"n": m, "hits": float(rng.binomial(m, p))})
        expected, decisions = expected + p * m, decisions + m
    return table, expected / decisions


@pytest.mark.parametrize("clustered", [False, True])
def test_small_cells_cover_the_chance_level_where_the_bare_bootstrap_does_not(
    clustered: bool,
) -> None:
    """Cells of 2-6 games: the percentile bootstrap alone excluded a random player's own
    chance level in 11% of the issue's cells; the proportion's interval (Wilson at Korn
    and Graubard's effective count) stays within 95% plus noise."""
    rng = np.random.default_rng(5)
    runs, missed, bare_missed = 240, 0, 0
    for run in range(runs):
        table, truth = shares(2 + run % 5, rng, clustered)
        sums = Sums(table, Resamples(table.games, 300, run))
        cell, bare = proportion(sums, "hits", "n"), ratio(sums, "hits", "n")
        assert cell["lo"] is not None and cell["hi"] is not None
        assert bare["lo"] is not None and bare["hi"] is not None
        missed += not cell["lo"] <= truth <= cell["hi"]
        bare_missed += not bare["lo"] <= truth <= bare["hi"]
    assert missed / runs <= 0.05
    assert bare_missed / runs > 0.08


def test_a_share_at_0_or_1_keeps_wilsons_width_over_its_games() -> None:
    """0 of 40 decisions in 8 games resample to 0 every time: the interval is Wilson's of
    0 of 8 (the games: the decisions of one game may move together), not a point."""
    none, every = GameTable(), GameTable()
    for _ in range(8):
        none.add({"n": 5.0})
        every.add({"n": 5.0, "hits": 5.0})
    for table, hits, lo, hi in ((none, 0, 0.0, wilson(0, 8)[1]), (every, 8, wilson(8, 8)[0], 1.0)):
        cell = proportion(Sums(table, Resamples(8, 200, 0)), "hits", "n")
        assert (cell["value"], cell["n"], cell["games"]) == (hits / 8, 40, 8)
        assert (cell["lo"], cell["hi"]) == pytest.approx((lo, hi))
        assert cell["lo"] is not None and cell["hi"] is not None
        assert cell["hi"] - cell["lo"] > 0.3
    assert small(cell) and not small({**cell, "games": MIN_GAMES})
    assert not small(empty())  # a cell without data is n/a, not small


def test_a_large_cell_keeps_about_the_bootstraps_width() -> None:
    """Many games: the effective count is large and Wilson's interval about the
    bootstrap's (the widening costs little where the bootstrap is sound)."""
    table, _ = shares(300, np.random.default_rng(2), clustered=True)
    sums = Sums(table, Resamples(table.games, 1000, 1))
    cell, bare = proportion(sums, "hits", "n"), ratio(sums, "hits", "n")
    assert cell["lo"] is not None and cell["hi"] is not None
    assert bare["lo"] is not None and bare["hi"] is not None
    assert cell["lo"] <= bare["lo"] and cell["hi"] >= bare["hi"]
    assert cell["hi"] - cell["lo"] < 1.1 * (bare["hi"] - bare["lo"])
    assert effective_n(0.0, np.zeros(5), 7) == 7.0
