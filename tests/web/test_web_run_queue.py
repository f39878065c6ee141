"""The server wakes LangGraph's run queue when it creates a run (web/run_queue.py): a
human's answer starts the bots at once instead of at the runtime's next 0.5 s poll."""

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

pytest.importorskip("langgraph_runtime_inmem", reason="the web extra is not installed")
from langgraph_runtime_inmem import ops

from autowerewolf.web import run_queue


def test_the_pinned_runtime_has_the_lookup_the_server_wraps() -> None:
    # A runtime upgrade that renames it would silently bring the 0.5 s back.
    assert callable(getattr(ops.Runs, "next", None))


def test_a_created_run_wakes_the_idle_lookup(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[bool] = []

    async def lookup(wait: bool, limit: int = 1) -> AsyncIterator[Any]:
        asked.append(wait)
        yield ("run", 1)

    monkeypatch.setattr(ops.Runs, "next", staticmethod(lookup))
    # Only a wake can end the wait now: an unwoken lookup would outlast the test's timeout.
    monkeypatch.setattr(run_queue, "IDLE_WAIT_S", 600.0)

    async def scenario() -> list[Any]:
        assert run_queue.wake_on_new_runs()
        assert run_queue.wake_on_new_runs()  # idempotent: not wrapped twice
        waiting = asyncio.ensure_future(_collect(ops.Runs.next(wait=True)))
        await asyncio.sleep(0.05)
        assert not waiting.done()
        run_queue.run_created()
        return await asyncio.wait_for(waiting, 30)

    assert asyncio.run(scenario()) == [("run", 1)]
    # The runtime's own lookup is then asked without its sleep.
    assert asked == [False]


async def _collect(runs: AsyncIterator[Any]) -> list[Any]:
    return [run async for run in runs]
