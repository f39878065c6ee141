"""The batch's progress bar: games done, running (and the limit on games at once, which
adapts by default) and failed; model calls in flight;
tokens; steps per second; estimated time left."""

import time
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from autowerewolf.batch.runner import BatchStats


class BatchProgress:
    def __init__(self, progress: Progress, task: TaskID, stats: BatchStats) -> None:
        self.progress, self.task, self.stats = progress, task, stats
        self.started = time.perf_counter()

    def refresh(self) -> None:
        s, calls = self.stats, self.stats.gates.stats
        elapsed = max(time.perf_counter() - self.started, 1e-9)
        info = (
            f"running {s.running} (limit {s.limit}), failed {s.failed}, "
            f"calls in flight {calls.in_flight}, "
            f"tokens {calls.tokens_in + calls.tokens_out:,}, {s.steps / elapsed:.0f} steps/s"
        )
        self.progress.update(self.task, completed=s.done + s.failed, info=info)


@contextmanager
def batch_progress(
    console: Console, stats: BatchStats, label: str = "games"
) -> Iterator[BatchProgress]:
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[info]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, refresh_per_second=2) as progress:
        task = progress.add_task(label, total=stats.total, info="")
        bar = BatchProgress(progress, task, stats)
        try:
            yield bar
        finally:
            bar.refresh()
