"""The Ray acceptance scenario, run by test_ray.py in a process of its own (inside a
private network namespace when it can: loopback only). One PostgreSQL, one cluster (head
and two worker nodes), three batches:

1. spread: a batch of LLM seats on the simulated model over both workers finishes;
2. kill a worker: once games of the batch have finished (so both workers are playing), the
   raylet of a node running games is SIGKILLed; its worker restarts on the other node and
   its games resume there;
3. kill the driver: once games of its batch have finished, `autowerewolf batch --ray` is
   SIGKILLed; when Ray has ended its workers, the same command is run again.

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
from collections.abc import Callable
from typing import Any

from autowerewolf.batch.ray_workers import run_on_ray
from autowerewolf.batch.runner import BatchGame
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import Games
from autowerewolf.storage.target import Postgres
from tests.fixed import HEX_SECRET
from tests.scale.identical import differing, simulated
from tests.servers.postgres import postgres_server
from tests.servers.ray_cluster import LocalCluster, local_ray_cluster

LATENCY_S = 0.3
GAMES = 12
# Random games take about half a second of CPU: enough of them, few at once per worker,
# keep the batch going long after the kill (at the kill, 84 of them are still to finish).
RANDOM_GAMES = 96
RANDOM_LANES = 4
# Finished games of a batch before its kill: every lane of both workers is playing by then.
KILL_AFTER_FINISHED = 12
# How long a condition may take before the scenario gives up (a loaded machine is slow).
WAIT_S = 600.0


def batch(prefix: str, seeds: range, players: str) -> list[BatchGame]:
    return [
        BatchGame(
            f"{prefix}-{s}",
            GameSetup(secret=HEX_SECRET, board="12-A", seed=s),
            Seating(default=players),
        )
        for s in seeds
    ]


def finished_count(db: Postgres, prefix: str) -> int:
    games = Games(db, readonly=True)
    try:
        records = [games.peek(i) for i in games.ids() if i.startswith(f"{prefix}-")]
        return sum(r is not None and r.status == "finished" for r in records)
    finally:
        games.close()


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not after {WAIT_S:.0f} s")
        time.sleep(0.2)


def kill_a_worker_mid_batch(cluster: LocalCluster, db: Postgres) -> threading.Thread:
    """Kill worker node 0 once the batch's first games have finished."""

    def kill() -> None:
        wait_until(lambda: finished_count(db, "kill") >= KILL_AFTER_FINISHED, "games of the batch")
        cluster.kill_node(0)

    thread = threading.Thread(target=kill, daemon=True)
    thread.start()
    return thread


def main() -> dict[str, Any]:
    report: dict[str, Any] = {"random_games": RANDOM_GAMES}
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
        killer = kill_a_worker_mid_batch(cluster, db)
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
            "--secret", HEX_SECRET,
        ]  # fmt: skip
        driver = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def driver_played_or_ended() -> bool:
            return finished_count(db, "driver") >= KILL_AFTER_FINISHED or driver.poll() is not None

        wait_until(driver_played_or_ended, "games of the driver's batch")
        driver.send_signal(signal.SIGKILL)
        driver.wait()
        # Ray ends a dead driver's workers: the count is final once they are gone.
        wait_until(lambda: not cluster.game_workers(), "the dead driver's workers to end")
        unfinished_before = RANDOM_GAMES - finished_count(db, "driver")
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
