"""A batch on every core of this machine: one process per core, each the asynchronous runner
of local.py (one event loop) on its share of the games, all on one database.

One event loop saturates one core near 200 concurrent games (docs/scale.md), so a second
core doubles what a machine plays. Every process writes the same database: SQLite's writers
take turns (each process group-commits, and waits out the other's transaction within the
busy timeout); PostgreSQL takes them at once. A game is one process's alone (its id is in
one share), so a rerun resumes it wherever it lands.

A worker is `python -m autowerewolf.batch.core_worker` (core_worker.py): it reads its share
as JSON on standard input, writes a progress line a half second and its outcomes at the end
on standard output, and dies with its parent (a killed batch leaves no process playing on: a
rerun would play the same games twice). Plain processes, not multiprocessing: nothing
depends on how the caller's program was started (a notebook, a script without a main
guard). The parent shows one progress bar, and hears of each finished game (`finished`)
once all are done.

Games on the embedded local model stay in one process: each process would start its own
model server on the same cores.
"""

import contextlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from typing import IO

from rich.console import Console

from autowerewolf.backends.config import ModelConfig, PlayerModels
from autowerewolf.batch.progress import batch_progress
from autowerewolf.batch.runner import BatchGame, BatchStats, Outcome
from autowerewolf.runner import GameRecord, Games
from autowerewolf.storage.target import Database, Postgres

REPORT_EVERY_S = 0.5
_COUNTS = (
    "done", "running", "failed", "steps", "limit", "in_flight", "tokens_in", "tokens_out",
)  # fmt: skip


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def on_local_model(games: Sequence[BatchGame], models: PlayerModels | None) -> bool:
    """Whether any LLM seat may play on the embedded model (started by each process)."""

    def local(config: ModelConfig | None) -> bool:
        return config is not None and config.managed_local

    for game in games:
        chosen = game.models or models
        has_llm = game.seating.default == "llm" or "llm" in game.seating.seats.values()
        if not has_llm:
            continue
        if chosen is None:  # the default models: the embedded one
            return True
        overrides = [*chosen.camps.values(), *chosen.roles.values(), *chosen.seats.values()]
        if local(chosen.default) or any(o.backend == "local" for o in overrides):
            return True
    return False


# A worker costs 1.5-2 s of CPU to start (its imports), a game of rule-based players about
# 0.1-0.3 s, and one event loop holds hundreds of games waiting on models: a second process
# pays off only for a larger batch.
MIN_SHARE = 20


def processes_for(
    games: Sequence[BatchGame], models: PlayerModels | None, asked: int | None
) -> int:
    """How many processes play: as asked, else one per core (one on the local model), each
    with a share of at least MIN_SHARE games."""
    if asked is not None:
        return max(1, min(asked, len(games)))
    if on_local_model(games, models):
        return 1
    return max(1, min(cores(), len(games) // MIN_SHARE))


# --- the parent ---------------------------------------------------------------------------


def _share_json(
    db: Database, share: Sequence[BatchGame], concurrency: int | None, models: PlayerModels | None
) -> str:
    return json.dumps(
        {
            "db": db.url if isinstance(db, Postgres) else str(db),
            "concurrency": concurrency,
            "models": models.model_dump(mode="json") if models is not None else None,
            "games": [
                {
                    "game_id": g.game_id,
                    "setup": g.setup.model_dump(mode="json"),
                    "seating": g.seating.model_dump(mode="json"),
                    "models": g.models.model_dump(mode="json") if g.models else None,
                }
                for g in share
            ],
        }
    )


class _Worker:
    """One worker process and what it said."""

    def __init__(self, share: str) -> None:
        # Its log goes to a file, read if it fails: a pipe left unread would fill and stop it.
        self.log = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 - closed in result()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "autowerewolf.batch.core_worker", str(os.getpid())],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, text=True,
        )  # fmt: skip
        self.progress: dict[str, int] = dict.fromkeys(_COUNTS, 0)
        self.outcomes: list[Outcome] | None = None
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(share)
        self.process.stdin.close()
        self.reader = threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True)
        self.reader.start()

    def _read(self, out: IO[str]) -> None:
        for line in out:
            message = json.loads(line)
            if "progress" in message:
                self.progress = message["progress"]
            if "outcomes" in message:
                self.outcomes = [Outcome(**o) for o in message["outcomes"]]

    def result(self) -> list[Outcome]:
        self.process.wait()
        self.reader.join()
        self.log.seek(0)
        error = self.log.read().strip()
        self.log.close()
        if self.outcomes is None:
            last = error.splitlines()[-1] if error else f"exit code {self.process.returncode}"
            raise RuntimeError(f"a batch worker process failed: {last}")
        return self.outcomes


def run_on_cores(
    db: Database,
    games: Sequence[BatchGame],
    *,
    processes: int,
    concurrency: int | None,
    models: PlayerModels | None = None,
    console: Console | None = None,
    finished: Callable[[GameRecord], None] | None = None,
) -> list[Outcome]:
    """Play `games` in `processes` processes, at most `concurrency` at once in each (None:
    each adapts its own)."""
    shares = [list(games[i::processes]) for i in range(processes)]
    workers = [_Worker(_share_json(db, share, concurrency, models)) for share in shares]
    stats = BatchStats(total=len(games))
    try:
        shown = batch_progress(console, stats) if console else contextlib.nullcontext()
        with shown as bar:
            while any(w.process.poll() is None for w in workers):
                _total(workers, stats)
                if bar is not None:
                    bar.refresh()
                time.sleep(REPORT_EVERY_S)
            outcomes = [outcome for worker in workers for outcome in worker.result()]
            _total(workers, stats)
    finally:
        for worker in workers:  # an interrupted parent takes its workers with it
            if worker.process.poll() is None:
                worker.process.kill()
    if finished is not None:
        _tell_finished(db, outcomes, finished)
    return outcomes


def _total(workers: Sequence[_Worker], stats: BatchStats) -> None:
    counts = {key: sum(w.progress.get(key, 0) for w in workers) for key in _COUNTS}
    stats.done, stats.running, stats.failed = counts["done"], counts["running"], counts["failed"]
    stats.steps, stats.limit = counts["steps"], counts["limit"]
    calls = stats.gates.stats
    calls.in_flight, calls.tokens_in = counts["in_flight"], counts["tokens_in"]
    calls.tokens_out = counts["tokens_out"]


def _tell_finished(
    db: Database, outcomes: list[Outcome], finished: Callable[[GameRecord], None]
) -> None:
    """Every finished game, read back in the parent (as one process tells them)."""
    games = Games(db)
    try:
        for outcome in outcomes:
            if outcome.status == "finished":
                finished(games.load(outcome.game_id))
    finally:
        games.close()
