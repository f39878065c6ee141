"""One worker process of a batch on every core (cores.py): `python -m
autowerewolf.batch.core_worker PARENT_PID` reads its share of the games as JSON on standard
input, plays them with local.py's runner, writes progress and its outcomes as JSON lines on
standard output, and dies with its parent."""

import json
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from autowerewolf.backends.config import PlayerModels
from autowerewolf.batch.local import run_batch
from autowerewolf.batch.runner import BatchGame, BatchStats
from autowerewolf.errors import first_line
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.storage.target import database


def _progress(stats: BatchStats) -> dict[str, int]:
    calls = stats.gates.stats
    return {
        "done": stats.done, "running": stats.running, "failed": stats.failed,
        "steps": stats.steps, "limit": stats.limit, "in_flight": calls.in_flight,
        "tokens_in": calls.tokens_in, "tokens_out": calls.tokens_out,
    }  # fmt: skip


def _die_with(parent: int) -> None:
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _work(job: dict[str, Any], say: Callable[[dict[str, Any]], None]) -> None:
    models = job["models"]
    games = [
        BatchGame(
            g["game_id"],
            GameSetup.model_validate(g["setup"]),
            Seating.model_validate(g["seating"]),
            PlayerModels.model_validate(g["models"]) if g["models"] else None,
        )
        for g in job["games"]
    ]
    outcomes = run_batch(
        database(job["db"]), games, concurrency=job["concurrency"],
        models=PlayerModels.model_validate(models) if models else None, processes=1,
        report=lambda stats: say({"progress": _progress(stats)}),
    )  # fmt: skip
    say({"outcomes": [asdict(o) for o in outcomes]})


def main() -> None:
    _die_with(int(sys.argv[1]))
    lock = threading.Lock()

    def say(message: dict[str, Any]) -> None:
        with lock:
            sys.stdout.write(json.dumps(message) + "\n")
            sys.stdout.flush()

    try:
        _work(json.load(sys.stdin), say)
    except Exception as err:  # the parent reports it as the batch's error
        print(f"{type(err).__name__}: {first_line(err)}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
