"""CPU per game of the asynchronous runner: a fixed batch of complete 12-A games, every seat
an LLM player on the simulated model, timed by this process's CPU (not the wall clock), so
the figure holds on a machine that other work shares.

    python benchmarks/game_cpu.py                       # 60 games, 60 at once, 0.05 s calls
    python benchmarks/game_cpu.py --games 400 --concurrency 200 --latency 1
    python benchmarks/game_cpu.py --profile game.prof   # and the top functions (cProfile)

The games are the same on every run (seeds 0..N-1 and a fixed secret), so two runs, or two
versions of the code, play the same decisions. One warm-up game first (imports, caches).
The latency only sets how many games wait at once; a short one makes the run quick. Under
`--profile` the CPU is about twice the plain figure (cProfile's own cost, CPU-timed).
"""

import argparse
import asyncio
import cProfile
import pstats
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from autowerewolf.backends.config import PlayerModels  # noqa: E402
from autowerewolf.batch.runner import BatchGame, Runner, batch_gc, play_all  # noqa: E402
from autowerewolf.players.seating import Seating  # noqa: E402
from autowerewolf.rules.config import GameSetup  # noqa: E402
from autowerewolf.storage.async_savers import async_saver  # noqa: E402
from autowerewolf.storage.stores import open_store  # noqa: E402

SECRET = "00" * 32  # any fixed secret: the same deals on every run


def game(prefix: str, seed: int) -> BatchGame:
    setup = GameSetup(secret=SECRET, board="12-A", seed=seed)
    return BatchGame(f"{prefix}-{seed}", setup, Seating(default="llm"))


async def timed(db: Path, args: argparse.Namespace) -> None:
    models = PlayerModels.model_validate(
        {"default": {"backend": "simulated", "model": "sim", "latency_s": args.latency,
                     "jitter_s": args.latency * 0.3}}
    )  # fmt: skip
    async with async_saver(db) as saver:
        runner = Runner(saver, models)
        await runner.play(game("warm", 10**6))
        games = [game("g", seed) for seed in range(args.games)]
        profile = cProfile.Profile(time.process_time) if args.profile else None
        steps0, cpu0, wall0 = runner.stats.steps, time.process_time(), time.perf_counter()
        if profile is not None:
            profile.enable()
        outcomes = await play_all(runner, games, args.concurrency)
        if profile is not None:
            profile.disable()
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    failed = [o for o in outcomes if o.status != "finished"]
    if failed:
        raise SystemExit(f"error: {len(failed)} games did not finish: {failed[0]}")
    print(
        f"{args.games} games, {args.concurrency} at once, {args.latency} s calls: "
        f"CPU {cpu / args.games:.3f} s per game ({runner.stats.steps - steps0} steps; "
        f"wall {wall:.0f} s)",
        flush=True,
    )
    if profile is not None:
        profile.dump_stats(args.profile)
        pstats.Stats(args.profile).sort_stats("cumulative").print_stats(args.top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--concurrency", type=int, default=60)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--profile", help="write cProfile's statistics to this file")
    parser.add_argument("--top", type=int, default=40, help="--profile: functions shown")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "games.db"
        open_store(db, create=True).close()
        with batch_gc():
            asyncio.run(timed(db, args))


if __name__ == "__main__":
    main()
