"""Sequential stopping (tournament/sequential.py) and the planner (evaluation/plan.py)."""

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from autowerewolf.cli import app
from autowerewolf.evaluation.plan import estimate
from autowerewolf.evaluation.report.build import build_report
from autowerewolf.evaluation.tournament.config import StopRule, TournamentConfig
from autowerewolf.evaluation.tournament.play import run_tournament
from autowerewolf.evaluation.tournament.results import iter_rows
from autowerewolf.evaluation.tournament.sequential import (
    confidence_sequence,
    decision,
    look_sizes,
    run_sequential,
)
from tests.evaluation.conftest import heuristic_vs_random


def test_the_confidence_sequence_covers_the_mean_and_narrows() -> None:
    rng = np.random.default_rng(0)
    draws = list(np.clip(rng.normal(0.3, 0.4, 400), -1, 1))
    assert confidence_sequence([], 0.05) == (-1.0, 1.0)
    widths = []
    for n in (20, 100, 400):
        lo, hi = confidence_sequence(draws[:n], 0.05)
        assert lo < float(np.mean(draws[:n])) < hi
        widths.append(hi - lo)
    assert widths[0] > widths[1] > widths[2]
    assert confidence_sequence(draws, 0.05)[0] > 0


def test_the_sequence_holds_at_every_look_where_a_fixed_interval_does_not() -> None:
    """Under the null, looking after every block: the sequence errs in at most alpha of
    the runs, the fixed-sample normal interval looked at as often in far more."""
    rng = np.random.default_rng(1)
    runs, looks = 60, range(5, 121, 5)
    sequence_errors = fixed_errors = 0
    for _ in range(runs):
        draws = list(rng.choice([-1.0, -0.5, 0.0, 0.5, 1.0], size=looks[-1]))
        lo, hi = confidence_sequence(draws, 0.05)  # the running intersection: every look
        sequence_errors += lo > 0 or hi < 0
        fixed_errors += any(
            abs(np.mean(draws[:n])) > 1.96 * np.std(draws[:n], ddof=1) / np.sqrt(n) for n in looks
        )
    assert sequence_errors <= 0.05 * runs + 2
    assert fixed_errors > sequence_errors + 0.1 * runs


def test_a_look_decides_by_zero_or_by_the_margin() -> None:
    assert decision(0.01, 0.4, 0.1) == "different"
    assert decision(-0.4, -0.2, 0.1) == "different"
    assert decision(-0.05, 0.08, 0.1) == "equivalent"
    assert decision(-0.05, 0.3, 0.1) is None


def _config(games: int, stop: StopRule | None = None) -> TournamentConfig:
    return heuristic_vs_random("seq", games, 3, stop=stop.model_dump() if stop else None)


def test_looks_fall_at_block_ends() -> None:
    sizes = look_sizes(_config(30), 5)
    assert sizes == [6, 12, 18, 24, 30]  # two games a block: the first end at 5 or more


def test_a_stop_rule_must_name_two_contestants() -> None:
    with pytest.raises(ValueError, match=r"stop\.compare"):
        _config(10, StopRule(compare=("heuristic", "nobody")))


@pytest.mark.long
def test_a_sequential_tournament_stops_on_a_decided_comparison(tmp_path: Path) -> None:
    config = _config(120, StopRule(compare=("heuristic", "random"), every=8))
    db = tmp_path / "games.db"
    record = run_sequential(config, db)
    last = record.stopped
    assert last.decision == "different" and last.lo > 0
    assert last.games < config.games
    assert len(list(iter_rows(db, "seq"))) == last.games
    # Every look before the last was undecided, and the report keeps them all.
    assert all(x.decision is None for x in record.looks[:-1])
    report = build_report(
        iter_rows(db, "seq"), tmp_path / "r", resamples=200, gte=False, sequential=record.as_json()
    )
    assert report.data["sequential"]["looks"][-1]["games"] == last.games
    assert "Sequential stop" in (tmp_path / "r" / "report.md").read_text(encoding="utf-8")


@pytest.mark.long
def test_the_plan_predicts_the_width_the_run_reaches(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    run_tournament(_config(20), db)
    target = 0.4
    found = estimate(iter_rows(db, "seq"), ("heuristic", "random"), target)
    assert found.pilot_games == 20 and found.pilot_blocks == 10
    assert found.games > 20 and found.calls > 0 and found.tokens == 0 and found.dollars == 0
    # The schedule of more games starts with the pilot's: the run extends it.
    run_tournament(_config(found.games), db)
    report = build_report(iter_rows(db, "seq"), tmp_path / "r", resamples=1000, gte=False)
    (pair,) = report.data["paired"]
    reached = pair["paired"]["hi"] - pair["paired"]["lo"]
    assert abs(reached - target) <= 0.3 * target, (found, reached)


def test_plan_prints_the_estimate_and_refuses_bad_input(study_db: Path) -> None:
    runner = CliRunner()
    args = ["plan", str(study_db), "--compare", "heuristic", "random", "--width", "0.2"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "Pilot: 24 games in 12 blocks" in result.output
    assert "For a width of 0.2:" in result.output
    bad = runner.invoke(app, [*args[:3], "heuristic", "nobody", "--width", "0.2"])
    assert bad.exit_code != 0
    assert bad.output.startswith("error:") and "at least 3" in bad.output
    assert "Traceback" not in bad.output
