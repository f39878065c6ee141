"""Acceptance: a heuristic-vs-random tournament is ranked correctly, with separated
intervals; re-running it continues instead of replaying; the report renders in Chromium."""

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from autowerewolf.cli import app
from autowerewolf.evaluation.report.build import Report, build_report
from autowerewolf.evaluation.tournament.play import pending, run_tournament
from autowerewolf.evaluation.tournament.results import iter_rows
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import Games
from tests.evaluation.conftest import STUDY, heuristic_vs_random
from tests.fixed import SECRET
from tests.graph.graph_helpers import load_record

CONFIG = heuristic_vs_random("accept", 48, 11)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Report]]:
    folder = tmp_path_factory.mktemp("tournament")
    db = folder / "games.db"
    outcomes = run_tournament(CONFIG, db)
    assert sum(v for k, v in outcomes.items() if k != "already finished") == CONFIG.games
    report = build_report(iter_rows(db, tournament="accept"), folder / "report", seed=CONFIG.seed)
    yield db, report


@pytest.mark.long
def test_heuristic_ranks_above_random_with_separated_intervals(
    played: tuple[Path, Report],
) -> None:
    _, report = played
    bt = report.bt
    h, r = bt.names.index("heuristic"), bt.names.index("random")
    assert report.games == CONFIG.games
    assert bt.lo[h] > bt.hi[r], (bt.lo, bt.hi)
    assert bt.p_above[h, r] > 0.99
    by_name = {m["contestant"]: m for m in report.metrics}
    assert by_name["heuristic"]["win"]["lo"] > by_name["random"]["win"]["hi"]


@pytest.mark.long
def test_every_game_records_its_contestants(played: tuple[Path, Report]) -> None:
    db, _ = played
    record = load_record(db, "accept-00003")
    assert set(record.seating.contestants.values()) <= {"heuristic", "random"}
    assert len(record.seating.contestants) == 12


@pytest.mark.long
def test_rerun_continues_without_replaying(played: tuple[Path, Report]) -> None:
    db, _ = played
    found = pending(CONFIG, db)
    assert (found.todo, found.done, found.note) == ([], CONFIG.games, None)
    longer = CONFIG.model_copy(update={"games": CONFIG.games + 2, "concurrency": 1})
    assert run_tournament(longer, db)["already finished"] == CONFIG.games


def test_games_without_result_rows_are_read_from_checkpoints(tmp_path: Path) -> None:
    db = tmp_path / "plain.db"
    games = Games(db, create=True)
    try:
        games.start("plain-1", GameSetup(secret=SECRET, seed=4), Seating(default="heuristic"))
        games.start("plain-2", GameSetup(secret=SECRET, seed=5), Seating(default="random"))
    finally:
        games.close()
    rows = list(iter_rows(db))
    assert [r["game_id"] for r in rows] == ["plain-1", "plain-2"]
    assert {s["contestant"] for s in rows[0]["seats"].values()} == {"heuristic"}


def test_a_reports_tournament_takes_its_games_without_rows_by_their_seating(
    tmp_path: Path,
) -> None:
    db = tmp_path / "web.db"  # as the web app plays a tournament: no result rows
    seating = Seating(default="heuristic", contestants={"P01": "alice"}, tournament="people")
    games = Games(db, create=True)
    try:
        games.start("of-people", GameSetup(secret=SECRET, seed=4), seating)
        games.start("of-nobody", GameSetup(secret=SECRET, seed=5), Seating(default="random"))
        # A branch is no game the tournament planned: its report leaves it out.
        games.fork("of-people", 20, "branch", player_seed=1)
        assert games.resume("branch").status == "finished"
    finally:
        games.close()
    rows = list(iter_rows(db, tournament="people"))
    assert [r["game_id"] for r in rows] == ["of-people"]
    assert rows[0]["seats"]["P01"]["contestant"] == "alice"
    assert [r["game_id"] for r in iter_rows(db)] == ["branch", "of-nobody", "of-people"]


def test_the_command_line_refuses_a_tournament_with_a_human_contestant(tmp_path: Path) -> None:
    spec = tmp_path / "people.yaml"
    spec.write_text(
        "name: people\ncontestants: [{name: alice, kind: human}, {name: r, kind: random}]\n"
    )
    result = CliRunner().invoke(app, ["tournament", str(spec), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.output.startswith("error: contestant 'alice' is human: ")
    assert "web app" in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


@pytest.mark.long
def test_report_command_writes_every_output(played: tuple[Path, Report], tmp_path: Path) -> None:
    db, _ = played
    result = CliRunner().invoke(
        app, ["report", str(db), "--out", str(tmp_path), "--resamples", "200"]
    )
    assert result.exit_code == 0, result.output
    assert "heuristic" in result.output
    for name in (
        "report.html",
        "report.md",
        "metrics.json",
        "contestants.csv",
        "ratings.csv",
        "pairs.csv",
        "bt_by_role.csv",
        "designs.csv",
        "validity.csv",
        "debate.csv",
        "plots/ratings.png",
    ):
        assert (tmp_path / name).is_file(), name
    html = (tmp_path / "report.html").read_text()
    assert html.count("data:image/png;base64,") == 6


@pytest.mark.long
def test_report_renders_with_plots_in_headless_chromium(
    played: tuple[Path, Report], tmp_path: Path
) -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    from matplotlib.image import imread

    html = played[1].files[0].parent.parent / "report.html"
    shot = tmp_path / "shot.png"
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            f"--screenshot={shot}",
            "--window-size=1200,3000",
            html.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    pixels = (imread(shot)[:, :, :3] * 255).round().astype(int)
    assert pixels.shape[:2] == (3000, 1200)
    colors = {tuple(p) for p in pixels.reshape(-1, 3)[::7]}
    assert len(colors) > 100  # a blank or text-only page has a handful of greys

    def near(rgb: tuple[int, int, int]) -> int:
        return int((np.abs(pixels - np.array(rgb)).sum(axis=2) < 30).sum())

    # The contestants' bar colours only come from the rendered plots.
    assert near((31, 119, 180)) > 5000  # heuristic blue
    assert near((214, 39, 40)) > 5000  # random red


def test_rows_of_version_3_still_report_without_chance_levels(
    study_db: Path, tmp_path: Path
) -> None:
    """A database written before chance levels: the report reads it; chance is n/a."""
    old: list[Any] = []
    for stored in list(iter_rows(study_db, tournament=STUDY.name))[:12]:
        row: dict[str, Any] = {**stored, "v": 3}
        row.pop("exile_chance")
        for seat in row["seats"].values():
            for key in ("irp_chance", "vss_chance", "kpi_chance", "steps"):
                seat.pop(key)
            seat["blunders"] = {m: cell[:2] for m, cell in seat["blunders"].items()}
            seat["est"] = seat["est"][:2]
        old.append(row)
    report = build_report(old, tmp_path / "report", resamples=100)
    heuristic = next(m for m in report.metrics if m["contestant"] == "heuristic")
    assert heuristic["irp_ballot"]["value"] is not None
    assert heuristic["irp_ballot"]["chance"] is None
    assert heuristic["blunders"]["overall"]["chance"] is None
    assert heuristic["win"]["chance"] is not None  # outcomes need no options


def test_tournament_and_contestant_names_keep_to_a_portable_alphabet() -> None:
    with pytest.raises(ValidationError, match=r"tournament name 'a/b' may only use letters"):
        heuristic_vs_random("a/b", 2, 1)
    odd = [{"name": "x y", "kind": "random"}, {"name": "y", "kind": "random"}]
    with pytest.raises(ValidationError, match=r"contestant name 'x y' may only use letters"):
        heuristic_vs_random("ok", 2, 1, contestants=odd)
