"""The default `batch` command end to end, as a user runs it: `autowerewolf batch --games
1200 --players llm` with every seat on the simulated model (1 s +- 0.3 s per call), its
concurrency left to adapt (batch/adaptive.py), in a fresh process, imports and start-up
included, on a new SQLite file.

    python benchmarks/default_batch.py [--games 1200] [--latency 1.0] [-- EXTRA BATCH ARGS]

Prints complete games per hour over the wall time, with the machine's load average before
and after: other work on a shared machine slows the figure down.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1200)
    parser.add_argument("--latency", type=float, default=1.0)
    parser.add_argument("extra", nargs="*", help="more `batch` options, after --")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        models = Path(tmp, "models.yaml")
        models.write_text(
            "default: {backend: simulated, model: sim, "
            f"latency_s: {args.latency}, jitter_s: 0.3, seed: 0}}\n"
        )
        command = [
            sys.executable, "-m", "autowerewolf", "batch", "--games", str(args.games),
            "--players", "llm", "--models", str(models), "--db", str(Path(tmp, "games.db")),
            *args.extra,
        ]  # fmt: skip
        load_before = os.getloadavg()[0]
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        wall_s = time.perf_counter() - started
        load_after = os.getloadavg()[0]
    if done.returncode != 0:
        sys.exit(f"error: the batch failed: {done.stderr.strip().splitlines()[-1:]}")
    print(done.stdout.strip().splitlines()[-1])
    print(
        f"load {load_before:.1f} -> {load_after:.1f}: {args.games} games in {wall_s:.0f} s, "
        f"{args.games * 3600 / wall_s:,.0f} complete games per hour"
    )


if __name__ == "__main__":
    main()
