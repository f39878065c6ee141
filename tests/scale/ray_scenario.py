"""The Ray acceptance scenario, run by test_ray.py in a process of its own (inside a
private network namespace when it can: loopback only). One PostgreSQL, one cluster (head
and two worker nodes), three batches:

1. spread: a batch of LLM seats on the simulated model over both workers finishes;
2. kill a worker: the raylet of a node running games is SIGKILLed mid-batch; its worker
   restarts on the other node and its games resume there;
3. kill the driver: `autowerewolf batch --ray` is SIGKILLed mid-batch, then run again.

Every game must then be finished and identical to its uninterrupted run, decision records
included. The batches that are interrupted have random players: an LLM seat's memory is
rebuilt from its view when its game resumes, and on this version that changes the
recorded prompts after a resume (docs/scale.md). Prints one JSON line with what happened.

    python -m tests.scale.ray_scenario
"""

import json
import signal
import subprocess
import sys
import threading
import time
from typing import Any

from autowerewolf.batch.ray_workers import run_on_ray
from autowerewolf.batch.runner import BatchGame
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import Games
from autowerewolf.storage.target import Postgres
from tests.scale.identical import differing, simulated
from tests.servers.postgres import postgres_server
from tests.servers.ray_cluster import LocalCluster, local_ray_cluster

LATENCY_S = 0.3
GAMES = 12
# Random games take about half a second of CPU: enough of them, few at once per worker,
# keep the batch going long after the kill.
RANDOM_GAMES = 240
RANDOM_LANES = 4


def batch(prefix: str, seeds: range, players: str) -> list[BatchGame]:
    return [
        BatchGame(f"{prefix}-{s}", GameSetup(board="12-A", seed=s), Seating(default=players))
        for s in seeds
    ]


def finished_count(db: Postgres) -> int:
    games = Games(db, readonly=True)
    try:
        records = [games.peek(i) for i in games.ids() if i.startswith("driver")]
        return sum(r is not None and r.status == "finished" for r in records)
    finally:
        games.close()


def kill_a_worker_later(cluster: LocalCluster, after_s: float) -> threading.Thread:
    def kill() -> None:
        time.sleep(after_s)
        cluster.kill_node(0)

    thread = threading.Thread(target=kill, daemon=True)
    thread.start()
    return thread


def main() -> dict[str, Any]:
    report: dict[str, Any] = {}
    models = simulated(LATENCY_S)
    with postgres_server() as url, local_ray_cluster(workers=2) as cluster:
        db = Postgres(url)
        # 1. spread over both workers
        seeds = range(0, GAMES)
        games = batch("spread", seeds, "llm")
        outcomes = run_on_ray(cluster.address, db, games, concurrency=50, models=models)
        report["spread"] = {
            "finished": sum(o.status == "finished" for o in outcomes),
            "differing": differing(db, seeds, "llm", "spread"),
        }
        # 2. a worker node killed mid-batch
        seeds = range(1000, 1000 + RANDOM_GAMES)
        killer = kill_a_worker_later(cluster, after_s=15.0)
        games = batch("kill", seeds, "random")
        outcomes = run_on_ray(cluster.address, db, games, concurrency=RANDOM_LANES, workers=2)
        killer.join()
        report["kill_worker"] = {
            "finished": sum(o.status == "finished" for o in outcomes),
            "resumed": sorted(o.resumed_from for o in outcomes if o.resumed_from is not None),
            "differing": differing(db, seeds, "random", "kill"),
        }
        # 3. the driver killed mid-batch, then run again
        seeds = range(2000, 2000 + RANDOM_GAMES)
        command = [
            sys.executable, "-m", "autowerewolf", "batch", "--games", str(RANDOM_GAMES),
            "--seed-start", "2000", "--prefix", "driver", "--players", "random",
            "--concurrency", str(RANDOM_LANES), "--db", url, "--ray", cluster.address,
        ]  # fmt: skip
        driver = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(40.0)
        driver.send_signal(signal.SIGKILL)
        driver.wait()
        time.sleep(5.0)  # Ray ends the dead driver's workers
        unfinished_before = RANDOM_GAMES - finished_count(db)
        again = subprocess.run(command, capture_output=True, text=True, timeout=600)
        report["kill_driver"] = {
            "rerun_exit": again.returncode,
            "rerun_output": again.stdout[-400:] + again.stderr[-400:],
            "unfinished_before": unfinished_before,
            "differing": differing(db, seeds, "random", "driver"),
        }
    return report


if __name__ == "__main__":
    print(json.dumps(main()), flush=True)
