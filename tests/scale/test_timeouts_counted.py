"""Timeouts are counted per decision and per model (docs/evaluation.md, "Clean-game
ratings"): a model server that answers some calls after the client's deadline has each such
attempt retried by the gate and recorded on its decision, and the report's validity table
and contestant metrics give the timeout rate beside the illegal and fallback rates; rows
saved before timeouts were counted still report."""

import hashlib
import json
import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest

from autowerewolf.evaluation.report.build import build_report
from autowerewolf.evaluation.report.validity import ALL_STEPS
from autowerewolf.evaluation.tournament.config import TournamentConfig
from autowerewolf.evaluation.tournament.play import run_tournament
from autowerewolf.evaluation.tournament.results import iter_rows
from autowerewolf.runner import Games
from tests.fakes.http import QuietHandler, filled_completion, send_json, serving
from tests.fixed import HEX_SECRET

TIMEOUT_S = 0.3
LATE_EVERY = 10  # every 10th call is answered after the deadline


class Late:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.calls = 0
        self.late = 0

    def is_late(self) -> bool:
        with self.lock:
            self.calls += 1
            late = self.calls % LATE_EVERY == 0
            self.late += late
            return late


@contextmanager
def slow_now_and_then(seen: Late) -> Iterator[str]:
    class Handler(QuietHandler):
        def do_POST(self) -> None:
            request = self.json_body()
            if seen.is_late():
                time.sleep(TIMEOUT_S * 3)
            # Seeded by the request: the same questions get the same answers in any call order.
            digest = hashlib.sha256(json.dumps(request["messages"]).encode()).digest()
            with suppress(OSError):  # the client gave up on a late answer
                send_json(self, filled_completion(request, random.Random(digest)))

    with serving(Handler) as url:
        yield url


@pytest.fixture(scope="module")
def played(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Path, Late, TournamentConfig]]:
    seen = Late()
    with slow_now_and_then(seen) as url:
        config = TournamentConfig.model_validate(
            {
                "name": "late",
                "board": "8-arena",
                "games": 2,
                "seed": 1,
                "secret": HEX_SECRET,
                "concurrency": 1,  # one call at a time: the same calls are late in every run
                "scaffold_games": 0,
                "models": {
                    "default": {
                        "backend": "api",
                        "base_url": url,
                        "model": "m",
                        "timeout_s": TIMEOUT_S,
                        "retries": 3,
                    },
                },
                "contestants": [
                    {"name": "model", "kind": "llm"},
                    {"name": "heuristic", "kind": "heuristic"},
                ],
            }
        )
        db = tmp_path_factory.mktemp("late") / "games.db"
        run_tournament(config, db)
    yield db, seen, config


def test_every_late_attempt_is_on_its_decisions_record(
    played: tuple[Path, Late, TournamentConfig],
) -> None:
    db, seen, _ = played
    games = Games(db)
    try:
        records = [r for game_id in games.ids() for r in games.load(game_id).records]
    finally:
        games.close()
    assert seen.late >= 2
    assert sum(r.timeouts for r in records) == seen.late
    assert all(r.model == "m" for r in records if r.timeouts)
    assert not any(r.fallback for r in records if r.timeouts)  # retried, then answered


def test_the_report_gives_the_timeout_rate_per_model_and_contestant(
    played: tuple[Path, Late, TournamentConfig], tmp_path: Path
) -> None:
    db, _, _ = played
    report = build_report(iter_rows(db, tournament="late"), tmp_path / "report", seed=1)
    by_model = {(v["player"], v["step"]): v for v in report.data["validity"]}
    model = by_model[("m", ALL_STEPS)]
    assert model["timeout_rate"]["value"] > 0
    assert (
        model["timeout_rate"]["lo"] < model["timeout_rate"]["value"] < model["timeout_rate"]["hi"]
    )
    assert by_model[("heuristic", ALL_STEPS)]["timeout_rate"]["value"] == 0
    metrics = {m["contestant"]: m for m in report.metrics}
    assert metrics["model"]["timeout_rate"]["value"] > 0
    assert metrics["heuristic"]["timeout_rate"]["value"] == 0
    assert "timeout" in (tmp_path / "report" / "report.md").read_text()
    with (tmp_path / "report" / "validity.csv").open() as f:
        assert any(",timeout_rate," in line for line in f)


def test_rows_saved_before_timeouts_were_counted_still_report(
    played: tuple[Path, Late, TournamentConfig], tmp_path: Path
) -> None:
    db, _, _ = played
    old: list[Any] = []
    for stored in iter_rows(db, tournament="late"):
        row: dict[str, Any] = {**stored, "v": 5}
        for seat in row["seats"].values():
            seat["steps"] = {step: counts[:4] for step, counts in seat["steps"].items()}
        old.append(row)
    report = build_report(old, tmp_path / "report", resamples=100)
    assert report.data["validity"]
    assert all(entry["timeout_rate"]["value"] == 0 for entry in report.data["validity"])
    assert all(m["timeout_rate"]["value"] == 0 for m in report.metrics)


def test_a_replay_retries_where_the_run_timed_out_and_plays_the_same_games(
    played: tuple[Path, Late, TournamentConfig], tmp_path: Path
) -> None:
    """The recorded failures keep what the gate retries on: with the server gone, the
    replay answers every call from the book, late ones included, and records the same."""
    db, _, config = played
    again = tmp_path / "again.db"
    outcomes = run_tournament(config, again, replay_from=db)
    assert outcomes.get("failed", 0) == 0, outcomes

    def decisions(path: Path) -> list[tuple[object, ...]]:
        games = Games(path)
        try:
            return [
                (r.key, r.seat, r.option, r.text, r.valid, r.fallback, r.timeouts)
                for game_id in sorted(games.ids())
                for r in games.load(game_id).records
            ]
        finally:
            games.close()

    assert decisions(again) == decisions(db)
