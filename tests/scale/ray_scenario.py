"""The Ray acceptance scenario, run by test_ray.py in a process of its own (inside a
private network namespace when it can: loopback only). One PostgreSQL, one cluster (head
and two worker nodes), three batches:

1. spread: a batch over both workers finishes;
2. kill a worker: the raylet of a node running games is SIGKILLed mid-batch; its worker
   restarts on the other node and its games resume there;
3. kill the driver: `autowerewolf batch --ray` is SIGKILLed mid-batch, then run again.

Every game must then be finished and identical to its uninterrupted run. Prints one JSON
line with what happened.

    python -m tests.scale.ray_scenario
"""

import json
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from autowerewolf.batch.ray_workers import run_on_ray
from autowerewolf.batch.runner import BatchGame
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.storage.target import Postgres
from tests.scale.identical import differing, simulated, write_models
from tests.servers.postgres import postgres_server
from tests.servers.ray_cluster import LocalCluster, local_ray_cluster

LATENCY_S = 0.3
GAMES = 12


def batch(prefix: str, seeds: range) -> list[BatchGame]:
    return [
        BatchGame(f"{prefix}-{s}", GameSetup(board="12-A", seed=s), Seating(default="llm"))
        for s in seeds
    ]


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
        outcomes = run_on_ray(
            cluster.address, db, batch("spread", seeds), concurrency=50, models=models
        )
        report["spread"] = {
            "finished": sum(o.status == "finished" for o in outcomes),
            "differing": differing(db, seeds, "llm", "spread"),
        }
        # 2. a worker node killed mid-batch
        seeds = range(100, 100 + GAMES)
        killer = kill_a_worker_later(cluster, after_s=8.0)
        outcomes = run_on_ray(
            cluster.address, db, batch("kill", seeds), concurrency=50, models=models
        )
        killer.join()
        report["kill_worker"] = {
            "finished": sum(o.status == "finished" for o in outcomes),
            "resumed": sorted(o.resumed_from for o in outcomes if o.resumed_from is not None),
            "differing": differing(db, seeds, "llm", "kill"),
        }
        # 3. the driver killed mid-batch, then run again
        seeds = range(200, 200 + GAMES)
        folder = Path(tempfile.mkdtemp())
        command = [
            sys.executable, "-m", "autowerewolf", "batch", "--games", str(GAMES),
            "--seed-start", "200", "--prefix", "driver", "--players", "llm",
            "--models", str(write_models(folder, LATENCY_S)), "--db", url,
            "--ray", cluster.address,
        ]  # fmt: skip
        driver = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        time.sleep(25.0)
        driver.send_signal(signal.SIGKILL)
        driver.wait()
        time.sleep(5.0)  # Ray ends the dead driver's workers
        again = subprocess.run(command, capture_output=True, text=True, timeout=600)
        report["kill_driver"] = {
            "rerun_exit": again.returncode,
            "rerun_output": again.stdout[-400:] + again.stderr[-400:],
            "differing": differing(db, seeds, "llm", "driver"),
        }
    return report


if __name__ == "__main__":
    print(json.dumps(main()), flush=True)
