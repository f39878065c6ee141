"""Acceptance on the issue's design, scaled down: heuristic, random and simulated-model
contestants in the plain, estimator and adaptive designs, every probe. Every number of
the report is a cell with an interval over games, the games and n it comes from and a
chance level; an interval has zero width only where every game gave the same value; the
baselines get blunder and illegal-answer rates too. A share (a proportion) never has zero
width: 0 of n keeps Wilson's width over its games."""

import csv
import json
from collections.abc import Hashable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from autowerewolf.evaluation import bootstrap
from autowerewolf.evaluation.debate import stats as debate_stats
from autowerewolf.evaluation.ratings import pairs
from autowerewolf.evaluation.report import designs as design_report
from autowerewolf.evaluation.report import metrics, validity
from autowerewolf.evaluation.report.build import Report, build_report
from autowerewolf.evaluation.report.definitions import metric_keys
from autowerewolf.evaluation.tournament.config import TournamentConfig
from autowerewolf.evaluation.tournament.play import run_tournament
from autowerewolf.evaluation.tournament.results import iter_rows
from tests.fixed import HEX_SECRET

CONFIG = TournamentConfig.model_validate(
    {
        "name": "five",
        "board": "8-arena",
        "games": 10,  # 40 balance the 10 pairs of team blocks; the cells need no balance
        "seed": 4,
        "secret": HEX_SECRET,  # the same games every run: a stable finding
        "concurrency": 2,
        "scaffold_games": 4,  # the scaffold's cells need games, not a stable finding
        "probes": ["pre_vote", "speech_votes", "role_estimates"],
        "models": {"default": {"backend": "simulated", "model": "sim", "latency_s": 0}},
        "contestants": [
            {"name": "heuristic", "kind": "heuristic"},
            {"name": "random", "kind": "random"},
            {"name": "sim-plain", "kind": "llm"},
            {"name": "sim-estimator", "kind": "llm", "agent": "estimator"},
            {"name": "sim-adaptive", "kind": "llm", "agent": "adaptive"},
        ],
    }
)
Ratio = tuple[Hashable, Hashable, dict[str, Any]]


@pytest.fixture(scope="module")
def reported(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Report, list[Any], Path]]:
    """The report, and every ratio and proportion it computed (its kind, its cell, the
    games' own values of it)."""
    folder = tmp_path_factory.mktemp("five")
    run_tournament(CONFIG, folder / "games.db")
    calls: list[Any] = []
    sums_init = bootstrap.Sums.__init__
    matrices: dict[int, tuple[dict[Hashable, int], np.ndarray]] = {}

    def keep_matrix(self: bootstrap.Sums, table: bootstrap.GameTable, *args: Any) -> None:
        sums_init(self, table, *args)
        matrices[id(self)] = (table.index, table.matrix())

    def recording(kind: str) -> Any:
        original = getattr(bootstrap, kind)

        def recorded(sums: bootstrap.Sums, num: Hashable, den: Hashable, chance: Any = None) -> Any:
            cell = original(sums, num, den, chance)
            index, matrix = matrices[id(sums)]
            column = {
                k: matrix[:, index[k]] if k in index else np.zeros(len(matrix)) for k in (num, den)
            }
            with_data = column[den] > 0
            calls.append((kind, num, cell, column[num][with_data] / column[den][with_data]))
            return cell

        return recorded

    patch = pytest.MonkeyPatch()
    patch.setattr(bootstrap.Sums, "__init__", keep_matrix)
    for module in (metrics, debate_stats, design_report, validity, pairs):
        for kind in ("ratio", "proportion"):
            if hasattr(module, kind):
                patch.setattr(module, kind, recording(kind))
    try:
        report = build_report(iter_rows(folder / "games.db"), folder / "report", seed=CONFIG.seed)
    finally:
        patch.undo()
    yield report, calls, folder / "report"


def cells(data: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(data, dict):
        if "value" in data and "lo" in data:
            yield path, data
        for key, value in data.items():
            if key != "definitions":  # its texts define "value", "lo"... but are no cell
                yield from cells(value, f"{path}/{key}")
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from cells(value, f"{path}/{i}")


@pytest.mark.long  # a five-contestant tournament with every probe
def test_the_issues_design_reports_citable_numbers(
    reported: tuple[Report, list[Any], Path],
) -> None:
    """One test (one tournament per pytest-xdist worker): the checks below in turn."""
    report, calls, folder = reported
    every_cell_has_an_interval_over_games_with_games_n_and_chance(report, folder)
    zero_width_only_where_every_game_gave_the_same_value(calls)
    tables_and_csvs_show_games_n_and_chance(folder)
    baselines_get_blunders_and_illegal_answer_rates(report)
    every_published_key_has_a_definition(folder)


def every_cell_has_an_interval_over_games_with_games_n_and_chance(
    report: Report, folder: Path
) -> None:
    found = list(cells(json.loads((folder / "metrics.json").read_text())))
    assert len(found) > 500
    for path, cell in found:
        assert {"games", "n", "chance"} <= set(cell), path
        if cell["value"] is None:
            continue
        assert cell["games"] >= 1 and cell["n"] > 0, path
        assert cell["lo"] is not None and cell["lo"] <= cell["hi"], path
    # Every metric of every contestant has a chance level where it has data, but speeches
    # out of character: a random player writes no text.
    for m in report.metrics:
        for path, cell in cells(m):
            if cell["value"] is not None and path != "/out_of_character":
                assert cell["chance"] is not None, (m["contestant"], path)
    by_name = {m["contestant"]: m for m in report.metrics}
    assert by_name["sim-plain"]["out_of_character"]["n"] > 0
    assert by_name["random"]["out_of_character"]["n"] == 0


def zero_width_only_where_every_game_gave_the_same_value(calls: list[Any]) -> None:
    flat = shares_at_zero = 0
    for kind, num, cell, per_game in calls:
        if cell["value"] is None:
            continue
        if kind == "proportion":
            assert cell["lo"] < cell["hi"], (num, cell)
            shares_at_zero += cell["value"] == 0
            continue
        if cell["lo"] != cell["hi"]:
            continue
        flat += 1
        assert np.allclose(per_game, per_game[0]), (num, cell, per_game)
    assert flat  # some means are always 0 here (tokens of rule-based players...)
    assert shares_at_zero  # and some shares (fallbacks of rule-based players...)


def tables_and_csvs_show_games_n_and_chance(folder: Path) -> None:
    markdown = (folder / "report.md").read_text()
    for block in markdown.split("\n## ")[1:]:
        header = block.splitlines()[2] if "|" in block else ""
        if "[95% interval]" in header:
            assert "| games |" in header and "| n |" in header and "| chance |" in header, header
    written = sorted(folder.glob("*.csv"))
    assert {p.name for p in written} >= {"ratings.csv", "bt_by_role.csv", "pairs.csv"}
    for path in written:
        with path.open() as f:
            assert {"games", "n", "chance", "small"} <= set(next(csv.reader(f))), path.name
    assert "Bradley-Terry skill by role" in markdown


def baselines_get_blunders_and_illegal_answer_rates(report: Report) -> None:
    by_name = {m["contestant"]: m for m in report.metrics}
    for name in ("heuristic", "random"):
        overall = by_name[name]["blunders"]["overall"]
        assert overall["n"] > 0 and overall["chance"] is not None
        assert (
            by_name[name]["illegal_rate"]["value"] == 0 and by_name[name]["illegal_rate"]["n"] > 0
        )
    players = {v["player"] for v in report.data["validity"]}
    assert {"heuristic", "random", "sim"} <= players
    # The simulated model's seats never name anyone in a speech: vote swing says why.
    assert by_name["sim-plain"]["vote_swing"]["value"] is None
    assert (
        "none of its speeches named another seat"
        in (report.files[0].parent.parent / "report.md").read_text()
    )


def every_published_key_has_a_definition(folder: Path) -> None:
    """The keys come from the report itself and the code's registries of metrics
    (definitions.metric_keys): none is listed by hand here."""
    data = json.loads((folder / "metrics.json").read_text())
    keys = metric_keys(data)
    assert {"blunders:overall", "kpi_seer", "tokens_per_game", "vote_swing", "small"} <= keys
    undefined = sorted(k for k in keys if k not in data["definitions"])
    assert not undefined, undefined
