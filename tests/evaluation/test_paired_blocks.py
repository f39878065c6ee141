"""Deals as the unit: block resampling, paired differences, and null tournaments."""

from pathlib import Path

import numpy as np
import pytest

from autowerewolf.evaluation.bootstrap import Cell, Resamples
from autowerewolf.evaluation.ratings.pairs import paired_differences
from autowerewolf.evaluation.report.build import build_report
from autowerewolf.evaluation.tournament.results import iter_rows


def test_block_resamples_draw_the_games_of_a_block_together() -> None:
    blocks = (0, 0, 1, 1, 1, 2)
    for weights in Resamples(6, 300, 4, blocks=blocks).chunks():
        assert (weights[:, 0] == weights[:, 1]).all()
        assert (weights[:, 2] == weights[:, 4]).all()
        # Three draws of three blocks: a one-game block counts 0 to 3 times.
        assert set(np.unique(weights[:, 5])) <= {0.0, 1.0, 2.0, 3.0}


def _two_game_blocks(blocks: int, luck: float, seed: int) -> tuple[np.ndarray, list[int]]:
    """A and B in blocks of two games; each block's deal adds `luck` to A's score in its
    first game and to B's in the second (team blocks: A holds the lucky camp, then B)."""
    rng = np.random.default_rng(seed)
    rows, ids = [], []
    for b in range(blocks):
        deal = luck * rng.choice([-1.0, 1.0])
        noise = rng.normal(0, 0.05, 2)
        rows += [[0.5 + deal + noise[0], 0.5 - deal], [0.5 - deal + noise[1], 0.5 + deal]]
        ids += [b, b]
    return np.array(rows), ids


def _width(cell: Cell) -> float:
    assert cell["lo"] is not None and cell["hi"] is not None
    return cell["hi"] - cell["lo"]


def _excludes_zero(cell: Cell) -> bool:
    assert cell["lo"] is not None and cell["hi"] is not None
    return cell["lo"] > 0 or cell["hi"] < 0


def test_pairing_within_blocks_removes_the_luck_of_the_deal() -> None:
    wins, blocks = _two_game_blocks(60, 0.4, 1)
    (pair,) = paired_differences(["A", "B"], wins, np.ones_like(wins), blocks, 1000, 0)
    assert pair["blocks"] == 60 and pair["games"] == 120
    assert pair["variance_reduction"] is not None and pair["variance_reduction"] > 20
    assert _width(pair["paired"]) < _width(pair["unpaired"]) / 4


def test_without_a_shared_deal_pairing_changes_little() -> None:
    wins, blocks = _two_game_blocks(60, 0.0, 2)
    rng = np.random.default_rng(3)
    wins = rng.random(wins.shape)
    (pair,) = paired_differences(["A", "B"], wins, np.ones_like(wins), blocks, 2000, 0)
    assert pair["variance_reduction"] is not None
    assert 0.6 < pair["variance_reduction"] < 1.6


def test_the_report_shows_each_pairs_paired_difference(study_db: Path, tmp_path: Path) -> None:
    report = build_report(iter_rows(study_db, "study"), tmp_path, resamples=200, gte=False)
    (pair,) = report.data["paired"]
    # The study's schedule: 24 games of two contestants, two games a block.
    assert pair["games"] == 24 and pair["blocks"] == 12
    assert pair["paired"]["value"] == pytest.approx(
        report.data["pairs"][0]["win_difference"]["value"]
    )
    assert "Pairs within blocks" in (tmp_path / "report.md").read_text(encoding="utf-8")


NULL_TOURNAMENTS = 40
# Of 40 tournaments, each 5% likely to exclude 0, more than 5 do so with probability 1.4%.
MOST_EXCLUDING = 5


@pytest.mark.long
def test_null_tournaments_exclude_zero_at_most_five_percent_plus_noise() -> None:
    from benchmarks.paired_blocks import measure, study_config

    excluded = {"unpaired": 0, "paired": 0}
    for seed in range(NULL_TOURNAMENTS):
        # Identical random players under two names: any difference is noise. No secret:
        # each game draws its own, so a block's games share the deal but not every draw
        # (with one, identical seeded players would play a block's games identically).
        kinds = ("random", "random")
        config = study_config(kinds, 12, 100 + seed, 0.5, secret=None)
        pair = measure(config, kinds, resamples=400)
        excluded["unpaired"] += _excludes_zero(pair["unpaired"])
        excluded["paired"] += _excludes_zero(pair["paired"])
    assert excluded["unpaired"] <= MOST_EXCLUDING, excluded
    assert excluded["paired"] <= MOST_EXCLUDING, excluded
