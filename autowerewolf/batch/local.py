"""A batch on this machine: every game an asyncio task of one event loop, in one process,
or in one process per core (cores.py).

Failed games are noted in the database's `failures` table with their error (shown by
`autowerewolf games`); running the batch again retries them and clears the note.
"""

import asyncio
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from typing import Any, TypeVar

from rich.console import Console

from autowerewolf.backends.config import PlayerModels
from autowerewolf.batch.cores import processes_for, run_on_cores
from autowerewolf.batch.progress import BatchProgress, batch_progress
from autowerewolf.batch.runner import (
    BatchGame,
    BatchStats,
    Outcome,
    Runner,
    batch_gc,
    play_all,
)
from autowerewolf.players.agents.pool import ExperiencePool, harvest
from autowerewolf.runner import GameRecord
from autowerewolf.storage.async_savers import async_saver
from autowerewolf.storage.stores import Store, clear_failed, failures, mark_failed, open_store
from autowerewolf.storage.target import Database

# Connections per process to a Postgres server: writes are short, so a few carry hundreds
# of games (docs/scale.md); processes x pool size must stay below max_connections.
POOL_SIZE = 8
T = TypeVar("T")


class FailureBook:
    """Keeps the `failures` table in step with the outcomes."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.known = failures(store)

    def note(self, outcome: Outcome) -> None:
        if outcome.status == "failed" and outcome.error is not None:
            mark_failed(self.store, outcome.game_id, outcome.error)
        elif outcome.game_id in self.known:
            clear_failed(self.store, outcome.game_id)


def run_batch(
    db: Database,
    games: Sequence[BatchGame],
    *,
    concurrency: int | None,
    models: PlayerModels | None = None,
    console: Console | None = None,
    experience: ExperiencePool | None = None,
    finished: Callable[[GameRecord], None] | None = None,
    processes: int | None = None,
    report: Callable[[BatchStats], None] | None = None,
) -> list[Outcome]:
    """Play (or resume) every game of `games` on `db`; progress on `console` if given;
    `experience` seats read (and, unless it is frozen, learn into) that pool. `processes`:
    how many processes play (default one per core, cores.py); `report` hears the progress.
    `concurrency`: games at once per process; None adapts it (batch/adaptive.py)."""
    # Experience seats share one pool file, read (and learnt into) in order: one process.
    pooled = any("experience" in game.seating.agents.names() for game in games)
    processes = 1 if pooled else processes_for(games, models, processes)
    store = open_store(db, create=True)  # checks the database, creates the tables
    if processes > 1:
        # Kept open while the workers play: closing one of this process's connections to a
        # SQLite file can drop the shared lock its other connections (a tournament's results
        # table) hold on the -shm, and the last worker to finish then deletes the -wal and
        # -shm under them ("disk I/O error").
        try:
            return run_on_cores(
                db, games, processes=processes, concurrency=concurrency, models=models,
                console=console, finished=finished,
            )  # fmt: skip
        finally:
            store.close()
    try:
        book = FailureBook(store)
        stats = BatchStats(total=len(games))

        def learn(record: GameRecord) -> None:
            if experience is not None:
                harvest(experience, record.game_id, record.events, record.records)
            if finished is not None:
                finished(record)

        async def main() -> list[Outcome]:
            async with async_saver(db, POOL_SIZE) as saver:
                runner = Runner(saver, models, stats, experience)
                shown = batch_progress(console, stats) if console else nullcontext()
                with shown as bar:
                    ticking = bar is not None or report is not None
                    ticker = asyncio.create_task(_tick(bar, stats, report)) if ticking else None
                    try:
                        return await play_all(runner, games, concurrency, book.note, learn)
                    finally:
                        if ticker is not None:
                            ticker.cancel()
                        if report is not None:
                            report(stats)
                        runner.pool.close()

        with batch_gc():
            return run_loop(main())
    finally:
        store.close()


def run_loop(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run`, also where this thread already runs an event loop (a notebook, a
    caller's own loop): the batch then gets a loop of its own in a worker thread."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(main)
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, main).result()


async def _tick(
    bar: BatchProgress | None, stats: BatchStats, report: Callable[[BatchStats], None] | None
) -> None:
    while True:
        if bar is not None:
            bar.refresh()
        if report is not None:
            report(stats)
        await asyncio.sleep(0.5)
