"""The game graph with SQLite checkpoints: wall time and database size of a complete random
12-player game, per-step overhead against no checkpointer, batch throughput.

Usage: python benchmarks/graph.py [--games N]
"""

import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from autowerewolf.graph.builder import RECURSION_LIMIT, build_graph
from autowerewolf.graph.context import GameContext
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import Games


def db_size(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path.stat().st_size


def checkpointed(games: int, folder: Path) -> tuple[list[float], list[int], list[int]]:
    times, sizes, steps = [], [], []
    for seed in range(games):
        db = folder / f"one-{seed}.db"
        store = Games(db, create=True)
        started = time.perf_counter()
        record = store.start("g", GameSetup(seed=seed), Seating())
        times.append(time.perf_counter() - started)
        store.close()
        sizes.append(db_size(db))
        steps.append(record.game.ply)
    return times, sizes, steps


def unchecked(games: int) -> list[float]:
    graph = build_graph().compile()
    times = []
    for seed in range(games):
        started = time.perf_counter()
        graph.invoke(
            {"setup": GameSetup(seed=seed), "seating": Seating()},
            {"recursion_limit": RECURSION_LIMIT},
            context=GameContext(),
        )
        times.append(time.perf_counter() - started)
    return times


def batch(games: int, concurrency: int, folder: Path) -> float:
    db = folder / f"batch-{concurrency}.db"
    command = [
        sys.executable, "-m", "autowerewolf", "batch", "--games", str(games),
        "--concurrency", str(concurrency), "--players", "random", "--db", str(db),
    ]  # fmt: skip
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return games / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        times, sizes, steps = checkpointed(args.games, folder)
        plain = unchecked(args.games)
        per_step_ckpt = sum(times) / sum(steps) * 1000
        per_step_plain = sum(plain) / sum(steps) * 1000
        print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
        print(
            f"SQLite-checkpointed game: median {statistics.median(times):.2f} s, "
            f"max {max(times):.2f} s ({statistics.mean(steps):.0f} steps on average)"
        )
        print(
            f"database per game: median {statistics.median(sizes) / 1e6:.2f} MB, "
            f"max {max(sizes) / 1e6:.2f} MB"
        )
        print(
            f"per step: {per_step_ckpt:.2f} ms with checkpoints, {per_step_plain:.2f} ms "
            f"without (overhead {per_step_ckpt - per_step_plain:.2f} ms)"
        )
        for concurrency in (1, 2):
            rate = batch(args.games, concurrency, folder)
            print(f"batch of {args.games} at concurrency {concurrency}: {rate:.1f} games/s")


if __name__ == "__main__":
    main()
