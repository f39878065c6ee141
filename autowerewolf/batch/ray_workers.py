"""A batch on a Ray cluster (`batch --ray auto|HEAD:PORT`, the `ray` extra).

Each worker is an asynchronous Ray actor running many games with the asynchronous runner on
its own event loop; every worker checkpoints to the same PostgreSQL database. Game ids are
fixed before anything runs, and playing a game is idempotent (a finished game is read
back, a started one resumes from its last checkpoint), so:

- a worker that dies (its process or its whole node) is restarted by Ray
  (`max_restarts=-1`) on a node that can hold it, and the calls it had in flight or queued
  are sent to it again (`max_task_retries=-1`): its games resume from their checkpoints;
- a driver that dies takes its workers with it; running the same command again resumes
  every unfinished game.

Each worker reserves half a CPU, so a lost node's workers fit on the surviving ones.
Not handled: two live workers on one game after a network partition (docs/scale.md).
"""

import asyncio
import gc
import os
import time
from collections.abc import Sequence
from contextlib import AsyncExitStack
from typing import Any

from rich.console import Console

from autowerewolf.backends.config import PlayerModels
from autowerewolf.batch.local import POOL_SIZE, FailureBook
from autowerewolf.batch.progress import batch_progress
from autowerewolf.batch.runner import (
    BATCH_GC_THRESHOLD,
    BatchGame,
    BatchStats,
    Outcome,
    Runner,
    error_line,
)
from autowerewolf.errors import SettingsError
from autowerewolf.storage.async_savers import async_saver
from autowerewolf.storage.stores import open_store
from autowerewolf.storage.target import Database, Postgres

RAY_EXTRA_HINT = 'pip install -e ".[ray,postgres]"'
WORKER_CPUS = 0.5
# How often the driver asks the workers for their counters (progress bar).
POLL_S = 1.0


class GameWorker:
    """One worker's games (made a Ray actor class by `_actor_class`)."""

    def __init__(self, db: Postgres, models: PlayerModels | None, pool_size: int) -> None:
        gc.set_threshold(*BATCH_GC_THRESHOLD)
        self.db, self.models, self.pool_size = db, models, pool_size
        self.stats = BatchStats()
        self._runner: Runner | None = None
        self._opening: asyncio.Lock | None = None
        self._resources = AsyncExitStack()

    async def _ready(self) -> Runner:
        # Opened in the first call: the connection pool belongs to the actor's running loop.
        if self._opening is None:
            self._opening = asyncio.Lock()
        async with self._opening:
            if self._runner is None:
                saver = await self._resources.enter_async_context(
                    async_saver(self.db, self.pool_size)
                )
                self._runner = Runner(saver, self.models, self.stats)
        return self._runner

    async def play(self, game: BatchGame) -> Outcome:
        return await (await self._ready()).play(game)

    async def counters(self) -> dict[str, int]:
        calls = self.stats.gates.stats
        return {
            "running": self.stats.running,
            "steps": self.stats.steps,
            "in_flight": calls.in_flight,
            "tokens": calls.tokens_in + calls.tokens_out,
        }

    async def where(self) -> dict[str, Any]:
        import ray

        return {"pid": os.getpid(), "node": ray.get_runtime_context().get_node_id()}


def require_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise SettingsError(f"--ray needs the 'ray' extra: {RAY_EXTRA_HINT}") from None
    return ray


def start_workers(
    db: Postgres, models: PlayerModels | None, count: int, concurrency: int
) -> list[Any]:
    ray = require_ray()
    actor = ray.remote(GameWorker)
    return [
        actor.options(
            max_restarts=-1,
            max_task_retries=-1,
            # Calls at once into one asynchronous actor: its games plus the counters.
            max_concurrency=concurrency + 4,
            num_cpus=WORKER_CPUS,
            scheduling_strategy="SPREAD",
        ).remote(db, models, POOL_SIZE)
        for _ in range(count)
    ]


def run_on_ray(
    address: str,
    db: Database,
    games: Sequence[BatchGame],
    *,
    concurrency: int,
    models: PlayerModels | None = None,
    workers: int | None = None,
    console: Console | None = None,
) -> list[Outcome]:
    """Play every game of `games` on the cluster at `address` ("auto": the one started on
    this machine with `ray start`)."""
    ray = require_ray()
    if not isinstance(db, Postgres):
        raise SettingsError("--ray needs a postgresql:// --db that every worker can reach")
    store = open_store(db, create=True)  # migrations once, before the workers race to it
    try:
        book = FailureBook(store)
        ray.init(address=address, logging_level="ERROR", log_to_driver=False)
        try:
            count = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
            actors = start_workers(db, models, count, concurrency)
            return _drive(ray, actors, games, book, console)
        finally:
            ray.shutdown()
    finally:
        store.close()


def _drive(
    ray: Any,
    actors: list[Any],
    games: Sequence[BatchGame],
    book: FailureBook,
    console: Console | None,
) -> list[Outcome]:
    pending = {actors[i % len(actors)].play.remote(g): g for i, g in enumerate(games)}
    stats = BatchStats(total=len(games))
    outcomes: list[Outcome] = []
    polls: list[Any] = []
    last_poll = 0.0
    with batch_progress(console or Console(quiet=True), stats) as bar:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=len(pending), timeout=POLL_S)
            for ref in ready:
                game = pending.pop(ref)
                try:
                    outcome = ray.get(ref)
                except Exception as err:  # the call itself failed (not the game's own error)
                    outcome = Outcome(game.game_id, "failed", error=error_line(err))
                outcomes.append(outcome)
                book.note(outcome)
                stats.done += outcome.status != "failed"
                stats.failed += outcome.status == "failed"
            if time.monotonic() - last_poll >= POLL_S:
                polls = _poll(ray, actors, polls, stats)
                last_poll = time.monotonic()
            bar.refresh()
    return outcomes


def _poll(ray: Any, actors: list[Any], polls: list[Any], stats: BatchStats) -> list[Any]:
    """Sum the counters the workers sent since the last poll (a restarting worker is
    skipped), and ask again."""
    answered, _ = ray.wait(polls, num_returns=len(polls), timeout=0) if polls else ([], [])
    if polls and len(answered) < len(polls):
        return polls
    if answered:
        counters = [ray.get(ref) for ref in answered]
        calls = stats.gates.stats
        stats.running = sum(c["running"] for c in counters)
        stats.steps = sum(c["steps"] for c in counters)
        calls.in_flight = sum(c["in_flight"] for c in counters)
        calls.tokens_in, calls.tokens_out = sum(c["tokens"] for c in counters), 0
    return [actor.counters.remote() for actor in actors]
