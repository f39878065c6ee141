"""Throughput of the asynchronous runner: complete 12-A games per hour with every seat an
LLM player on the simulated model (1 s +- 0.3 s per call by default), so the players'
prompt building, the graph, the rules and the checkpoints are all paid for.

    python benchmarks/throughput.py --db sqlite --concurrency 1 10 100 500 1000
    python benchmarks/throughput.py --processes 2 --concurrency 400
    python benchmarks/throughput.py --db postgres --concurrency 100 500
    python benchmarks/throughput.py --ray --concurrency 500 --games 1000

Steady state (one process): C game slots each play game after game; the slots' first
games start spread over `--stagger` seconds; after `--warmup` seconds, completed games,
graph steps, CPU time (this process, and the PostgreSQL server's) and memory are measured
over `--window` seconds. games/hour counts completed games in the window; "by steps" is
steps/s divided by the mean steps per game, the steadier figure for short windows. The
ideal is C x 3600 / (decision rounds per game x latency): a game cannot be faster than its
rounds of model calls (a simultaneous vote is one round). Memory: RSS growth over the
process's RSS before the games, per 100 concurrent games.

Every core (`--processes N`, as `batch` plays by default: one event loop per process, one
database): N such processes start together, the C slots split among them, each measuring
the same warm-up and window; games/hour and CPU are summed over the processes (CPU per game
is all their CPU over all their games), memory is per 100 concurrent games of a process.

Ray (`--ray`): a local cluster (head and two worker nodes on this machine, PostgreSQL) plays
a complete batch of `--games` games with `--concurrency` games per worker; games/hour is
games over wall time; CPU counts every process of the cluster and the server.

Every line starts with the machine's load average: other work on a shared machine slows
these figures down.
"""

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from autowerewolf.backends.config import PlayerModels  # noqa: E402
from autowerewolf.batch.runner import BatchGame, BatchStats, Runner, batch_gc  # noqa: E402
from autowerewolf.players.seating import Seating  # noqa: E402
from autowerewolf.rules.config import GameSetup  # noqa: E402
from autowerewolf.storage.async_savers import async_saver  # noqa: E402
from autowerewolf.storage.stores import open_store  # noqa: E402
from autowerewolf.storage.target import Database, Postgres  # noqa: E402
from tests.servers.postgres import postgres_server  # noqa: E402


def rss_mb(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_s(pids: list[int]) -> float:
    """User + system CPU seconds of these processes (and their waited-for children)."""
    total = 0
    for pid in pids:
        fields = _stat(pid)
        if fields:
            total += sum(int(f) for f in fields[11:15])
    return total / os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return []


def server_pids(url: str) -> list[int]:
    """The PostgreSQL server at `url` (on this machine): its postmaster and its children."""
    port = url.rsplit(":", 1)[1].split("/")[0].encode()
    postmaster = None
    for pid in _all_pids():
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if cmd[0].endswith(b"/postgres") and b"port=" + port in cmd:
            postmaster = pid
    if postmaster is None:
        return []
    return [postmaster, *(p for p in _all_pids() if _stat(p)[1:2] == [str(postmaster)])]


def simulated(latency: float, jitter: float) -> PlayerModels:
    return PlayerModels.model_validate(
        {
            "default": {
                "backend": "simulated",
                "model": "sim",
                "latency_s": latency,
                "jitter_s": jitter,
            }
        }
    )


def game(prefix: str, seed: int) -> BatchGame:
    return BatchGame(f"{prefix}-{seed}", GameSetup(board="12-A", seed=seed), Seating(default="llm"))


@dataclass
class Window:
    done: int
    steps: int
    rounds: int
    game_steps: int
    cpu: float
    server_cpu: float
    wall: float


async def steady_state(db: Database, args: argparse.Namespace, server: list[int]) -> dict[str, Any]:
    models = simulated(args.latency, args.jitter)
    stats = BatchStats()
    finished: list[tuple[float, int, int]] = []  # (time, steps, rounds)

    def note(record: Any) -> None:
        keys = {r.key for r in record.records if r.player == "llm"}
        finished.append((time.perf_counter(), record.game.ply, len(keys)))

    async with async_saver(db) as saver:
        runner = Runner(saver, models, stats)
        # One game first, so imports, caches and the model pool are in the base memory.
        await runner.play(game("warm", 10**6), note)
        finished.clear()
        base = rss_mb()
        seeds = iter(range(10**9))
        stop = False

        async def slot(delay: float) -> None:
            await asyncio.sleep(delay)
            while not stop:
                await runner.play(game(args.prefix, next(seeds)), note)

        rng = random.Random(0)
        slots = [asyncio.create_task(slot(rng.uniform(0, args.stagger))) for _ in range(args.one)]
        await asyncio.sleep(args.warmup)
        t0, c0, s0, steps0 = time.perf_counter(), time.process_time(), cpu_s(server), stats.steps
        await asyncio.sleep(args.window)
        t1, c1, s1, steps1 = time.perf_counter(), time.process_time(), cpu_s(server), stats.steps
        peak = rss_mb()
        stop = True
        for task in slots:
            task.cancel()
        await asyncio.gather(*slots, return_exceptions=True)
    in_window = [f for f in finished if t0 <= f[0] <= t1]
    all_games = finished or [(0.0, 1, 1)]
    window = Window(
        done=len(in_window),
        steps=steps1 - steps0,
        rounds=round(sum(f[2] for f in all_games) / len(all_games)),
        game_steps=round(sum(f[1] + 1 for f in all_games) / len(all_games)),
        cpu=c1 - c0,
        server_cpu=s1 - s0,
        wall=t1 - t0,
    )
    return {
        **asdict(window),
        "games_by_steps": window.steps / window.game_steps,
        "slots": args.one,
        "rss_growth_mb": peak - base,
        "base_mb": base,
        "games_finished_total": len(finished),
    }


def summary(parts: list[dict[str, Any]], latency: float) -> dict[str, Any]:
    """The figures of one measurement over its processes (one, or `--processes`)."""
    wall = sum(p["wall"] for p in parts) / len(parts)
    by_steps = sum(p["games_by_steps"] for p in parts)
    cpu = sum(p["cpu"] for p in parts)
    rounds = round(sum(p["rounds"] for p in parts) / len(parts))
    return {
        "games_per_hour": sum(p["done"] / p["wall"] for p in parts) * 3600,
        "games_per_hour_by_steps": by_steps / wall * 3600,
        "ideal_games_per_hour": sum(p["slots"] for p in parts) * 3600 / (rounds * latency),
        "rounds_per_game": rounds,
        "steps_per_game": round(sum(p["game_steps"] for p in parts) / len(parts)),
        "cpu_s_per_game": cpu / max(by_steps, 1e-9),
        # Every process measures the same server over (nearly) the same window: one counts.
        "server_cpu_s_per_game": parts[0]["server_cpu"] / max(by_steps, 1e-9),
        "cores_used": cpu / wall,
        "mb_per_100_games": sum(p["rss_growth_mb"] / p["slots"] * 100 for p in parts) / len(parts),
        "base_mb": sum(p["base_mb"] for p in parts) / len(parts),
    }


def one(args: argparse.Namespace) -> None:
    """One measurement, in this process (the parent starts one process per concurrency)."""
    db: Database = Postgres(args.url) if args.url else Path(args.file)
    open_store(db, create=True).close()
    server = server_pids(args.url) if args.url else []
    with batch_gc():
        result = asyncio.run(steady_state(db, args, server))
    print(json.dumps(result), flush=True)


def shares(total: int, processes: int) -> list[int]:
    """`total` game slots split over `processes` as evenly as they go."""
    return [total // processes + (i < total % processes) for i in range(processes)]


def measure(args: argparse.Namespace, db_arg: list[str], label: str) -> None:
    for concurrency in args.concurrency:
        load = os.getloadavg()[0]
        children = []
        for index, slots in enumerate(shares(concurrency, args.processes)):
            command = [sys.executable, __file__, "--one", str(slots), *db_arg]
            command += ["--prefix", f"c{concurrency}p{index}"]
            command += ["--latency", str(args.latency), "--jitter", str(args.jitter)]
            command += ["--stagger", str(args.stagger), "--warmup", str(args.warmup)]
            command += ["--window", str(args.window)]
            children.append(
                subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            )
        parts, failed = [], []
        for child in children:
            out, err = child.communicate()
            if child.returncode:
                failed.append(err[-2000:])
            else:
                parts.append(json.loads(out.strip().splitlines()[-1]))
        if failed:
            print(f"C={concurrency} failed: {failed[0]}", flush=True)
            continue
        r = summary(parts, args.latency)
        where = f"{label} {args.processes} processes" if args.processes > 1 else label
        print(
            f"[load {load:.1f}->{os.getloadavg()[0]:.1f}] {where} C={concurrency}: "
            f"{r['games_per_hour']:.0f} games/h ({r['games_per_hour_by_steps']:.0f} by steps; "
            f"ideal {r['ideal_games_per_hour']:.0f}, {r['rounds_per_game']} rounds x "
            f"{args.latency} s); CPU {r['cpu_s_per_game']:.3f} s/game "
            f"(+{r['server_cpu_s_per_game']:.3f} server), {r['cores_used']:.2f} cores; "
            f"{r['mb_per_100_games']:.1f} MB per 100 games of a process over {r['base_mb']:.0f} MB",
            flush=True,
        )


def on_ray(args: argparse.Namespace) -> None:
    from autowerewolf.batch.ray_workers import run_on_ray
    from tests.servers.ray_cluster import local_ray_cluster

    with postgres_server(fast=False) as url, local_ray_cluster(workers=2) as cluster:
        for concurrency in args.concurrency:
            load = os.getloadavg()[0]
            games = [game(f"ray{concurrency}", s) for s in range(args.games)]
            pids = server_pids(url) + [p for p in _all_pids() if _sid(p) in cluster.sessions]
            c0, t0 = cpu_s(pids), time.perf_counter()
            outcomes = run_on_ray(
                cluster.address, Postgres(url), games, concurrency=concurrency,
                models=simulated(args.latency, args.jitter), workers=2,
            )  # fmt: skip
            wall = time.perf_counter() - t0
            pids = server_pids(url) + [p for p in _all_pids() if _sid(p) in cluster.sessions]
            used = cpu_s(pids) - c0  # processes that ended meanwhile are not counted
            done = sum(o.status == "finished" for o in outcomes)
            print(
                f"[load {load:.1f}->{os.getloadavg()[0]:.1f}] ray 2 workers x C={concurrency}: "
                f"{done} games in {wall:.0f} s = {done / wall * 3600:.0f} games/h; "
                f"cluster + server CPU {used / max(done, 1):.3f} s/game",
                flush=True,
            )


def _all_pids() -> list[int]:
    return [int(e) for e in os.listdir("/proc") if e.isdigit()]


def _sid(pid: int) -> int:
    try:
        return os.getsid(pid)
    except OSError:
        return -1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 10, 100, 500, 1000])
    parser.add_argument("--latency", type=float, default=1.0)
    parser.add_argument("--jitter", type=float, default=0.3)
    parser.add_argument("--stagger", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=60.0)
    parser.add_argument("--window", type=float, default=120.0)
    parser.add_argument(
        "--processes", type=int, default=1, help="processes sharing the C slots (as batch)"
    )
    parser.add_argument("--ray", action="store_true")
    parser.add_argument("--games", type=int, default=400, help="--ray: games in the batch")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--file", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--prefix", default="c", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        one(args)
    elif args.ray:
        on_ray(args)
    elif args.db == "postgres":
        with postgres_server(fast=False) as url:
            measure(args, ["--url", url], "postgres")
    else:
        with tempfile.TemporaryDirectory() as folder:
            for concurrency in args.concurrency:
                file = str(Path(folder) / f"c{concurrency}.db")
                measure(
                    argparse.Namespace(**{**vars(args), "concurrency": [concurrency]}),
                    ["--file", file],
                    "sqlite",
                )


if __name__ == "__main__":
    main()
