"""Clean-game ratings: games decided by fallbacks or illegal answers are voided, and the
rating over the rest no longer carries the harness's errors."""

import csv
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from autowerewolf.evaluation.report.build import build_report
from autowerewolf.evaluation.report.clean import clean_ratings, is_clean
from autowerewolf.evaluation.report.metrics import GameTeams
from autowerewolf.evaluation.tournament.config import TournamentConfig
from autowerewolf.evaluation.tournament.play import run_tournament
from autowerewolf.evaluation.tournament.results import iter_rows


def seat(steps: dict[str, list[int]]) -> dict[str, Any]:
    return {"steps": steps}


def test_a_game_with_a_fallback_or_an_illegal_answer_is_not_clean() -> None:
    fine = {"seats": {"P1": seat({"vote": [3, 0, 0, 1]}), "P2": seat({})}}
    illegal = {"seats": {"P1": seat({"vote": [3, 1, 0, 1]})}}
    fallback = {"seats": {"P1": seat({"vote": [3, 0, 0, 0]}), "P2": seat({"kill": [1, 0, 1, 0]})}}
    assert is_clean(fine)  # type: ignore[arg-type]
    assert not is_clean(illegal)  # type: ignore[arg-type]
    assert not is_clean(fallback)  # type: ignore[arg-type]


def test_voided_games_no_longer_decide_the_rating() -> None:
    """`flaky` plays as well as `steady` in clean games, but loses every game it falls back
    in: over all games it trails, over the clean games the two are level."""
    rng = np.random.default_rng(5)
    teams, clean = [], []
    for game in range(400):
        flaky_good = game % 2 == 0
        voided = rng.random() < 0.3
        good_won = bool(rng.random() < 0.5) if not voided else not flaky_good
        good, wolf = ({"flaky": 8}, {"steady": 4}) if flaky_good else ({"steady": 8}, {"flaky": 4})
        teams.append(GameTeams(good, wolf, float(good_won), {}))
        clean.append(not voided)
    names = ["flaky", "steady"]
    found = clean_ratings(teams, clean, names, resamples=300, seed=1)
    by_name = {e["contestant"]: e for e in found["skills"]}
    assert found["games"] + found["voided_games"] == 400
    assert found["voided_games"] == clean.count(False)
    for name in names:
        voided = by_name[name]["voided"]
        assert voided["value"] == clean.count(False) / 400
        assert voided["lo"] <= voided["value"] <= voided["hi"]
        assert by_name[name]["clean_games"] == clean.count(True)
    flaky, steady = by_name["flaky"]["skill"], by_name["steady"]["skill"]
    assert flaky["lo"] < steady["value"] < flaky["hi"]

    everything = clean_ratings(teams, [True] * 400, names, resamples=300, seed=1)
    overall = {e["contestant"]: e["skill"] for e in everything["skills"]}
    assert overall["flaky"]["hi"] < overall["steady"]["lo"]


def test_no_rating_without_two_contestants_in_clean_games() -> None:
    teams = [GameTeams({"a": 8}, {"b": 4}, 1.0, {})]
    found = clean_ratings(teams, [False], ["a", "b"], resamples=100, seed=0)
    assert [e["skill"]["value"] for e in found["skills"]] == [None, None]
    assert [e["voided"]["value"] for e in found["skills"]] == [1.0, 1.0]


def test_the_report_shows_clean_game_ratings(tmp_path: Path) -> None:
    config = TournamentConfig.model_validate(
        {
            "name": "clean",
            "board": "8-arena",
            "games": 6,
            "seed": 2,
            "contestants": [
                {"name": "heuristic", "kind": "heuristic"},
                {"name": "random", "kind": "random"},
            ],
        }
    )
    db = tmp_path / "games.db"
    run_tournament(config, db)
    report = build_report(iter_rows(db, tournament="clean"), tmp_path / "report", resamples=100)
    with (tmp_path / "report" / "clean_ratings.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    # Rule-based players never fall back: every game is clean, so the ratings agree.
    assert {(r["contestant"], r["metric"]) for r in rows} == {
        (name, metric) for name in ("heuristic", "random") for metric in ("voided", "clean_skill")
    }
    assert {float(r["value"]) for r in rows if r["metric"] == "voided"} == {0.0}
    clean = {r["contestant"]: float(r["value"]) for r in rows if r["metric"] == "clean_skill"}
    for i, name in enumerate(report.bt.names):
        assert clean[name] == pytest.approx(report.bt.skill[i])
    assert "Clean-game ratings" in (tmp_path / "report" / "report.md").read_text()
    assert {"voided", "clean_skill", "clean_games"} <= set(report.data["definitions"])
