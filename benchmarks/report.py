"""Benchmark: `autowerewolf report` on large synthetic tournaments.

Plays a few real games with random players (optionally with every probe), then stores N
result rows resampled from them in a fresh database: half as mixed games (the seats
labelled evenly among the K contestants by a seeded shuffle) and half as team games (one
contestant per camp), as a tournament's schedule has them. Then times the `report` command
itself (a fresh process: imports, reading the rows, 1,000 resamples of the games, GTE's
200 solves, plots and files), and `build_report` in this process stage by stage (with
--memory, under tracemalloc: much slower, for its peak).

    python benchmarks/report.py [--games 1000 10000] [--contestants 8] [--probes] [--memory]
"""

import argparse
import json
import os
import platform
import random
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from autowerewolf.evaluation.games.facts import GameRow
from autowerewolf.evaluation.report.build import build_report
from autowerewolf.evaluation.tournament.results import connect, iter_rows, row_of
from autowerewolf.players.seating import Seating
from autowerewolf.prompts.probes import PROBES
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import Games


def real_rows(folder: Path, count: int, probes: bool) -> list[GameRow]:
    games = Games(folder / "real.db", create=True)
    seating = Seating(default="random", probes=tuple(PROBES) if probes else ())
    try:
        return [
            row_of(games.start(f"real-{seed}", GameSetup(seed=seed), seating))
            for seed in range(count)
        ]
    finally:
        games.close()


def synthesize(db: Path, base: list[GameRow], count: int, contestants: int, seed: int) -> int:
    """Stores `count` rows in `db`'s results table; returns the bytes of JSON written."""
    rng = random.Random(seed)
    names = [f"c{i}" for i in range(contestants)]
    connect(db, create=True).close()  # the tables
    written = 0
    conn = sqlite3.connect(db)
    try:
        with conn:
            for i in range(count):
                row = json.loads(json.dumps(rng.choice(base)))
                seats = list(row["seats"].values())
                if i % 2:  # a team game: one contestant per camp
                    good, wolf = rng.sample(names, 2)
                    for seat in seats:
                        seat["contestant"] = wolf if seat["camp"] == "wolf" else good
                else:  # a mixed game
                    labels = [names[j % contestants] for j in range(len(seats))]
                    rng.shuffle(labels)
                    for seat, label in zip(seats, labels, strict=True):
                        seat["contestant"] = label
                row["game_id"] = f"bench-{i:06d}"
                text = json.dumps(row, separators=(",", ":"))
                written += len(text)
                conn.execute(
                    "INSERT INTO results (game_id, tournament, row) VALUES (?, ?, ?)",
                    (row["game_id"], "bench", text),
                )
    finally:
        conn.close()
    return written


def time_command(db: Path, out: Path, resamples: int) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of `autowerewolf report` in a fresh process:
    on a shared machine the wall time grows with the load, the CPU time much less."""
    command = [sys.executable, "-m", "autowerewolf", "report", str(db), "--out", str(out)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([*command, "--resamples", str(resamples)], check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


class Stages:
    """build_report's progress, timed: seconds per stage."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.current: str | None = None
        self.began = time.perf_counter()

    def stage(self, name: str, total: int | None) -> None:
        self._close()
        self.current, self.began = name, time.perf_counter()

    def advance(self, amount: int = 1) -> None:
        pass

    def _close(self) -> None:
        if self.current is not None:
            self.seconds[self.current] = round(time.perf_counter() - self.began, 2)

    def done(self) -> dict[str, float]:
        self._close()
        self.current = None
        return self.seconds


def measure(folder: Path, base: list[GameRow], games: int, args: argparse.Namespace) -> dict:
    db = folder / f"bench-{games}.db"
    written = synthesize(db, base, games, args.contestants, seed=1)
    command_s, command_cpu = time_command(db, folder / f"report-{games}", args.resamples)
    stages = Stages()
    start = time.perf_counter()
    report = build_report(
        iter_rows(db), folder / f"staged-{games}", resamples=args.resamples, progress=stages
    )
    result = {
        "games": report.games,
        "contestants": len(report.metrics),
        "probes": args.probes,
        "row_json_mb": round(written / 1e6, 1),
        "report_command_seconds": round(command_s, 1),
        "report_command_cpu_seconds": round(command_cpu, 1),
        "build_report_seconds": round(time.perf_counter() - start, 1),
        "stages_seconds": stages.done(),
        "gte_resamples": (report.data["ratings"]["gte"] or {}).get("resamples"),
    }
    if args.memory:
        tracemalloc.start()
        build_report(iter_rows(db), folder / f"traced-{games}", resamples=args.resamples)
        result["tracemalloc_peak_mb"] = round(tracemalloc.get_traced_memory()[1] / 1e6, 1)
        tracemalloc.stop()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 10_000])
    parser.add_argument("--contestants", type=int, default=8)
    parser.add_argument("--real-games", type=int, default=8)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--probes", action="store_true", help="real games with every probe")
    parser.add_argument("--memory", action="store_true", help="also trace Python memory")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        base = real_rows(folder, args.real_games, args.probes)
        results = [measure(folder, base, games, args) for games in args.games]
    print(
        json.dumps(
            {
                "load_average": [round(x, 1) for x in os.getloadavg()],
                "runs": results,
                "bootstrap_resamples": args.resamples,
                "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3),
                "python": platform.python_version(),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
