"""Scaffold baselines (docs/evaluation.md): beside every metric of an LLM contestant, what a
uniformly random answerer scores through that contestant's harness, played by the
tournament offline and kept apart from its games."""

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from autowerewolf.backends.config import RANDOM_ANSWERER, ModelConfig, ModelOverride, PlayerModels
from autowerewolf.evaluation.report.build import build_report
from autowerewolf.evaluation.tournament.config import TournamentConfig, scaffold_name
from autowerewolf.evaluation.tournament.fingerprint import design
from autowerewolf.evaluation.tournament.play import run_tournament
from autowerewolf.evaluation.tournament.results import iter_rows, tournament_names
from autowerewolf.evaluation.tournament.schedule import plan, scaffold_plan
from tests.fixed import HEX_SECRET
from tests.graph.graph_helpers import cli, load_record

GAMES = 12
CONFIG = TournamentConfig.model_validate(
    {
        "name": "null",
        "board": "8-arena",
        "games": GAMES,
        "scaffold_games": GAMES,
        "seed": 5,
        "secret": HEX_SECRET,
        "concurrency": 4,
        "models": {"default": {"backend": "simulated", "model": "sim", "latency_s": 0}},
        "contestants": [
            {"name": "sim", "kind": "llm"},  # a random answerer itself
            {"name": "heur", "kind": "heuristic"},
        ],
    }
)
# What a decision's quality is judged by; outcomes (wins, survival) and per-game costs
# depend on the opponents, and a scaffold twin's opponents are itself.
DECISION_METRICS = ("blunders", "irp_ballot", "vss_ballot", "second_look_rate")


def cells(tree: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(tree, dict) and "value" in tree and "n" in tree:
        yield path, tree
    elif isinstance(tree, dict):
        for key, value in tree.items():
            yield from cells(value, f"{path}.{key}" if path else key)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("scaffold") / "games.db"
    run_tournament(CONFIG, db)
    return db


def test_the_twin_keeps_the_harness_and_drops_the_model() -> None:
    local = ModelConfig(backend="local", model="embedded")
    twin = local.as_random_answerer()
    assert (twin.backend, twin.model) == ("simulated", RANDOM_ANSWERER)
    assert twin.bounds() == local.bounds()  # budget and speech form of the local backend
    models = PlayerModels(default=local, random_answerer=True)
    assert models.resolve("P01", "seer") == twin
    for game in scaffold_plan(CONFIG):
        for seat, kind in game.seating.seats.items():
            assert kind == "llm" and game.seating.contestants[seat] == "sim"
            assert game.models is not None and game.models.resolve(seat, "villager").model == (
                RANDOM_ANSWERER
            )
    # The tournament's own deals, in order: common random numbers with its games.
    first_deals = list({g.block: g.setup for g in plan(CONFIG)}.values())
    assert [g.setup for g in scaffold_plan(CONFIG)][: len(first_deals)] == first_deals


def test_scaffold_games_are_filed_apart_from_the_tournament(played: Path) -> None:
    assert tournament_names([played]) == ["null"]
    assert len(list(iter_rows(played))) == GAMES
    assert len(list(iter_rows(played, tournament="null"))) == GAMES
    twins = list(iter_rows(played, tournament=scaffold_name("null")))
    assert len(twins) == GAMES
    record = load_record(played, twins[0]["game_id"], readonly=True)
    models = {r.model for r in record.records if r.player == "llm"}
    assert models == {RANDOM_ANSWERER}
    # A rerun plays nothing twice.
    again = run_tournament(CONFIG, played)
    assert again["already finished"] == GAMES
    assert len(list(iter_rows(played, tournament=scaffold_name("null")))) == GAMES


def test_a_random_answerer_sits_on_its_scaffold_baseline(played: Path, tmp_path: Path) -> None:
    report = build_report(
        iter_rows(played, tournament="null"),
        tmp_path,
        resamples=200,
        scaffold=iter_rows(played, tournament=scaffold_name("null")),
        gte=False,
    )
    by_name = {m["contestant"]: m for m in report.metrics}
    assert report.data["scaffold"] == {"sim": GAMES}
    judged = [
        (path, cell)
        for metric in DECISION_METRICS
        for path, cell in cells(by_name["sim"][metric], metric)
        if cell["value"] is not None and cell["scaffold"] is not None
    ]
    assert len(judged) >= 8
    # Two samples of one process, each a 95% interval over a dozen games: every interval
    # meets its baseline's.
    apart = [p for p, c in judged if c["lo"] > c["scaffold_hi"] or c["hi"] < c["scaffold_lo"]]
    assert apart == []
    # Chance is the wrong null: the scaffold alone moves a random answerer's blunders.
    overall = by_name["sim"]["blunders"]["overall"]
    assert overall["chance"] > overall["scaffold_hi"]
    # Other contestants have no scaffold; every cell of an LLM contestant has one.
    assert all("scaffold_games" not in c for _, c in cells(by_name["heur"]))
    assert all("scaffold_games" in c for _, c in cells(by_name["sim"]) if "head_to_head" not in _)


def test_the_report_command_shows_the_baseline_beside_chance(played: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = cli("report", str(played), "--out", str(out), "--resamples", "100", "--no-gte")
    assert result.exit_code == 0, result.output
    text = (out / "report.md").read_text(encoding="utf-8")
    assert "| chance | scaffold baseline |" in text
    assert f"({GAMES} games)" in text
    with (out / "contestants.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    win = {r["contestant"]: r for r in rows if r["metric"] == "win"}
    assert float(win["sim"]["scaffold_lo"]) <= float(win["sim"]["scaffold"])
    assert int(win["sim"]["scaffold_games"]) == GAMES
    assert win["heur"]["scaffold"] == ""
    data = json.loads((out / "metrics.json").read_text(encoding="utf-8"))
    assert data["games"] == GAMES  # the twins' games are not the tournament's
    assert "scaffold" in data["definitions"]


def test_old_designs_keep_their_fingerprint() -> None:
    """A tournament recorded before scaffold baselines existed continues: neither the
    scaffold's size nor the models' switch is part of its design."""
    recorded = design(CONFIG)
    assert "scaffold_games" not in recorded
    assert "random_answerer" not in recorded["models"]
    assert "second_look" not in recorded["models"]["default"]
    assert all("second_look" not in (c["model"] or {}) for c in recorded["contestants"])
    # Set away from the value that played before, it is part of the design.
    off = CONFIG.model_copy(
        update={
            "contestants": [
                CONFIG.contestants[0].model_copy(
                    update={"model": ModelOverride(second_look=False)}
                ),
                CONFIG.contestants[1],
            ]
        }
    )
    assert design(off)["contestants"][0]["model"]["second_look"] is False
    assert design(CONFIG.model_copy(update={"scaffold_games": 0})) == recorded
