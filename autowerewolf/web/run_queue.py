"""Starting a game's run as soon as it is created.

LangGraph's in-memory runtime looks for new runs every 0.5 s while it has none
(`langgraph_runtime_inmem.ops.Runs.next`): a human would wait that long after every
answer before the bots even start. This server creates every run itself
(server_games.py), so it wakes the lookup when it does; the 0.5 s stays as the upper
bound, so a run created any other way (LangGraph's own routes) starts as before.
"""

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

log = logging.getLogger(__name__)
IDLE_WAIT_S = 0.5  # the runtime's own wait between lookups
_WAKES = "_autowerewolf_wakes"

_created: asyncio.Event | None = None


def run_created() -> None:
    """A run was just queued: look for it now."""
    if _created is not None:
        _created.set()


def wake_on_new_runs() -> bool:
    """Wrap the runtime's run lookup (call on the server's event loop, once it runs).
    False, with a warning, if this version of the runtime has no such lookup."""
    global _created
    try:
        from langgraph_runtime_inmem import ops
    except ImportError:
        return False
    lookup = getattr(getattr(ops, "Runs", None), "next", None)
    if lookup is None:
        log.warning("this langgraph-runtime-inmem has no Runs.next: runs start on its own poll")
        return False
    if getattr(lookup, _WAKES, False):
        return True
    _created = asyncio.Event()
    created = _created

    async def next_runs(wait: bool, limit: int = 1) -> AsyncIterator[Any]:
        if wait:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(created.wait(), IDLE_WAIT_S)
        # Cleared before looking: a run queued from here on wakes the next lookup.
        created.clear()
        async for found in lookup(wait=False, limit=limit):
            yield found

    setattr(next_runs, _WAKES, True)
    ops.Runs.next = staticmethod(next_runs)
    return True
