"""Benchmark: the report over 10,000 stored games, read as a stream of result rows.

Plays a few real games with random players, then stores N result rows resampled from
them (contestant labels reshuffled per row) in a fresh database, and times
`build_report(iter_rows(db))`. Memory is measured twice: tracemalloc's peak of Python
allocations during the report, and the process's peak RSS.

    python benchmarks/report.py [--games 10000] [--real-games 8] [--resamples 1000]
"""

import argparse
import json
import platform
import resource
import sqlite3
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

from autowerewolf.evaluation.facts import GameRow
from autowerewolf.evaluation.report import build_report
from autowerewolf.evaluation.results import connect, iter_rows, row_of
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import Games

CONTESTANTS = ("alpha", "beta", "gamma", "delta")


def real_rows(folder: Path, count: int) -> list[GameRow]:
    games = Games(folder / "real.db", create=True)
    try:
        return [
            row_of(games.start(f"real-{seed}", GameSetup(seed=seed), Seating(default="random")))
            for seed in range(count)
        ]
    finally:
        games.close()


def synthesize(db: Path, base: list[GameRow], count: int, seed: int) -> int:
    """Stores `count` rows; returns the bytes of JSON written."""
    rng = np.random.default_rng(seed)
    conn = connect(db, create=True)
    written = 0
    try:
        with conn:
            for i in range(count):
                row = json.loads(json.dumps(base[int(rng.integers(len(base)))]))
                labels = rng.permutation(np.arange(len(row["seats"])) % len(CONTESTANTS))
                for seat, label in zip(row["seats"].values(), labels, strict=True):
                    seat["contestant"] = CONTESTANTS[int(label)]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--real-games", type=int, default=8)
    parser.add_argument("--resamples", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        base = real_rows(folder, args.real_games)
        db = folder / "bench.db"
        written = synthesize(db, base, args.games, seed=1)
        tracemalloc.start()
        start = time.perf_counter()
        report = build_report(iter_rows(db), folder / "report", resamples=args.resamples)
        seconds = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        # A second, untraced run: tracemalloc slows allocation-heavy code down.
        start = time.perf_counter()
        build_report(iter_rows(db), folder / "report2", resamples=args.resamples)
        untraced = time.perf_counter() - start
        rows = sqlite3.connect(db).execute("SELECT count(*) FROM results").fetchone()[0]
    result = {
        "games": report.games,
        "rows_in_db": rows,
        "row_json_mb": round(written / 1e6, 1),
        "report_seconds": round(untraced, 2),
        "report_seconds_traced": round(seconds, 2),
        "tracemalloc_peak_mb": round(peak / 1e6, 1),
        "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3, 1),
        "bootstrap_resamples": args.resamples,
        "python": platform.python_version(),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
