"""The synchronous face of the graph's asynchronous nodes: a node's one body is a
coroutine, and a synchronous run (`play`, `resume`, `graph.invoke`) awaits it on one event
loop that lives for the process in a thread of its own.

One loop, not one per call: model clients keep connections bound to the loop that opened
them, so a loop made and closed per step would strand them. The coroutine runs in a copy
of the caller's context, so LangGraph's run config, runtime and `interrupt()` are the
caller's. Synchronous players run on the loop's worker threads, as many as a table has
seats."""

import asyncio
import contextvars
import threading
from collections.abc import Coroutine
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
# Synchronous players (plug-ins, programs) asked at once: more than any board's seats.
PLAYER_THREADS = 128

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None


def _running_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _lock:
        if _loop is None or _loop.is_closed():
            loop = asyncio.new_event_loop()
            loop.set_default_executor(ThreadPoolExecutor(PLAYER_THREADS, "aw-player"))
            threading.Thread(target=loop.run_forever, name="aw-graph-loop", daemon=True).start()
            _loop = loop
        return _loop


def run_sync(coroutine: Coroutine[Any, Any, T]) -> T:
    """Await `coroutine` on the process's graph loop, in a copy of the caller's context, and
    return its result (or raise its exception, a graph interrupt included)."""
    loop = _running_loop()
    context = contextvars.copy_context()
    done: Future[T] = Future()

    def start() -> None:
        task = loop.create_task(coroutine, context=context)
        task.add_done_callback(lambda finished: _settle(finished, done))

    loop.call_soon_threadsafe(start)
    return done.result()


def _settle(task: "asyncio.Task[T]", done: "Future[T]") -> None:
    if task.cancelled():
        done.cancel()
    elif (error := task.exception()) is not None:
        done.set_exception(error)
    else:
        done.set_result(task.result())
