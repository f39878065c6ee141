"""Model calls of the asynchronous runner: one gate per server and process.

A gate lets at most `max_in_flight` calls wait on its server at once and, with
`requests_per_s`, starts at most that many calls a second (aiolimiter's leaky bucket, the
`ratelimit` extra). A call that fails transiently (408, 409, 429, 5xx, a refused or timed
out connection) is retried with random exponential backoff (tenacity), or after the
server's Retry-After when it gives one (up to twice it, at random, so that calls refused
together do not come back together); its slot is free while it waits. The chat clients
behind a gate are built with their own retries off, so retries happen (and are counted)
here only.

A server that still fails after the retries, or refuses us (401, 403, 404), raises
`ModelUnavailable`: the game stops as failed (retryable) instead of playing on with random
fallback answers. On the synchronous path (`play`, `resume`, whose seats of a simultaneous
decision ask from threads) a gate only holds calls to `max_in_flight` at once: the embedded
server's (players/factory.py); there the clients retry by themselves.
"""

import asyncio
import email.utils
import random
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

import httpx
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable, RunnableConfig
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception,
    wait_random_exponential,
)

from autowerewolf.backends.answer_format import ANSWER_TIMEOUTS
from autowerewolf.backends.config import ModelConfig, PlayerModels
from autowerewolf.backends.local_server import DEFAULT_IN_FLIGHT
from autowerewolf.backends.wrapped import WrappedChatModel
from autowerewolf.errors import SettingsError

T = TypeVar("T")
TRANSIENT_STATUS = frozenset({408, 409, 429})
REFUSED_STATUS = frozenset({401, 403, 404})
# A Retry-After longer than this is not waited for: the call fails as unavailable.
MAX_RETRY_AFTER_S = 120.0
# A call the server keeps asking to wait (a rate limit's Retry-After) is retried for up to
# this long, beyond `attempts`: the server is up and says when to come back, so giving up
# after a few waits would fail a game that only had to queue.
RATE_LIMITED_BUDGET_S = 300.0
RATE_EXTRA_HINT = 'pip install -e ".[ratelimit]"'


class ModelUnavailable(RuntimeError):
    """The model server could not be used: the game fails rather than play on fallbacks."""


def status_of(err: BaseException) -> int | None:
    status = getattr(err, "status_code", None)
    return status if isinstance(status, int) else None


def retry_after_of(err: BaseException) -> float | None:
    """Seconds from a `retry-after-ms` or `retry-after` header (seconds or an HTTP date)."""
    headers = getattr(getattr(err, "response", None), "headers", None)
    if headers is None:
        return getattr(err, "retry_after_s", None)
    if (millis := headers.get("retry-after-ms")) is not None:
        try:
            return float(millis) / 1000
        except ValueError:
            return None
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        when = email.utils.parsedate_to_datetime(value) if value.strip() else None
        return None if when is None else max(0.0, when.timestamp() - time.time())


def is_timeout(err: BaseException) -> bool:
    """The call got no answer by its client's deadline (openai's, httpx's or asyncio's)."""
    openai = sys.modules.get("openai")
    late: tuple[type[BaseException], ...] = (
        TimeoutError,
        httpx.TimeoutException,
        *((openai.APITimeoutError,) if openai is not None else ()),
    )
    return getattr(err, "timed_out", False) or isinstance(err, late)


def is_transient(err: BaseException) -> bool:
    # openai's connection errors include its timeouts; httpx's are Ollama's. An openai error
    # exists only once openai is imported, which a game of programs never pays for.
    openai = sys.modules.get("openai")
    transport: tuple[type[BaseException], ...] = (
        ConnectionError,
        TimeoutError,
        httpx.TransportError,
        *((openai.APIConnectionError,) if openai is not None else ()),
    )
    if getattr(err, "connection_failed", False) or isinstance(err, transport):
        return True
    status = status_of(err)
    return status is not None and (status in TRANSIENT_STATUS or status >= 500)


@dataclass
class CallStats:
    """What every gate of a process has seen, for the progress bar."""

    in_flight: int = 0
    calls: int = 0
    retries: int = 0
    tokens_in: int = 0
    tokens_out: int = 0


@runtime_checkable
class CallListener(Protocol):
    """Hears how the server answers (the batch's adaptive limit, batch/adaptive.py)."""

    def call(self, latency_s: float) -> None:
        """A call answered after `latency_s`, its waits for a slot and the rate included."""

    def overload(self) -> None:
        """A call failed transiently (429, timeout, 5xx) and waits to be retried."""


@dataclass
class ModelGate:
    max_in_flight: int | None = None
    requests_per_s: float | None = None
    attempts: int = 3
    stats: CallStats = field(default_factory=CallStats)
    backoff_max_s: float = 30.0
    listener: CallListener | None = None

    def __post_init__(self) -> None:
        # Created lazily: asyncio objects belong to the loop that first uses them.
        self._slots: asyncio.Semaphore | None = None
        self._places = (
            None if self.max_in_flight is None else threading.BoundedSemaphore(self.max_in_flight)
        )
        self._rate: Any = None
        self._backoff = wait_random_exponential(multiplier=0.5, max=self.backoff_max_s)
        if self.requests_per_s is not None:
            try:
                from aiolimiter import AsyncLimiter
            except ImportError:
                raise SettingsError(
                    f"requests_per_s needs the 'ratelimit' extra: {RATE_EXTRA_HINT}"
                ) from None
            self._rate = AsyncLimiter(self.requests_per_s, 1.0)

    def _wait(self, state: RetryCallState) -> float:
        err = state.outcome.exception() if state.outcome else None
        after = retry_after_of(err) if err is not None else None
        if after is None:
            return self._backoff(state)
        # Spread over [after, 2 x after]: calls refused together and retried together
        # would all be refused again.
        return after * (1 + random.random())

    def _stop(self, state: RetryCallState) -> bool:
        err = state.outcome.exception() if state.outcome else None
        if err is not None and status_of(err) == 429 and retry_after_of(err) is not None:
            return (state.seconds_since_start or 0.0) > RATE_LIMITED_BUDGET_S
        return state.attempt_number >= self.attempts

    def _retry(self, err: BaseException) -> bool:
        after = retry_after_of(err)
        return is_transient(err) and (after is None or after <= MAX_RETRY_AFTER_S)

    def _count_retry(self, state: RetryCallState) -> None:
        self.stats.retries += 1
        if self.listener is not None:
            self.listener.overload()

    @contextmanager
    def held(self) -> Iterator[None]:
        """A synchronous call's place: at most `max_in_flight` threads call at once."""
        if self._places is None:
            yield
            return
        with self._places:
            yield

    async def call(self, make_call: Callable[[], Awaitable[T]]) -> T:
        """`make_call()` makes a fresh awaitable for each attempt."""
        if self._slots is None and self.max_in_flight is not None:
            self._slots = asyncio.Semaphore(self.max_in_flight)
        # The first attempt outside tenacity, whose set-up costs about a third of a
        # simulated call's CPU; a failure goes to `_retried` as tenacity's first attempt.
        started = time.monotonic()
        try:
            result = await self._once(make_call)
        except Exception as err:
            failed = err
        else:
            if self.listener is not None:
                self.listener.call(time.monotonic() - started)
            return result
        return await self._retried(make_call, failed)

    async def _retried(self, make_call: Callable[[], Awaitable[T]], failed: Exception) -> T:
        """The call after its first attempt failed with `failed`: tenacity decides from that
        attempt on, as if it had made it (the same retries, waits and final error)."""
        first = True
        timeouts = 0

        async def attempt_once() -> T:
            nonlocal first, timeouts
            if first:
                first = False
                timeouts += is_timeout(failed)
                raise failed
            try:
                return await self._once(make_call)
            except Exception as err:
                timeouts += is_timeout(err)
                raise

        try:
            async for attempt in AsyncRetrying(
                retry=retry_if_exception(self._retry),
                wait=self._wait,
                stop=self._stop,
                before_sleep=self._count_retry,
                reraise=True,
            ):
                with attempt:
                    return _noted_timeouts(await attempt_once(), timeouts)
        except Exception as err:
            if is_transient(err) or status_of(err) in REFUSED_STATUS:
                raise ModelUnavailable(f"{type(err).__name__}: {err}") from None
            raise
        raise AssertionError("unreachable: tenacity returns or raises")

    async def _once(self, make_call: Callable[[], Awaitable[T]]) -> T:
        if self._slots is not None:
            await self._slots.acquire()
        try:
            if self._rate is not None:
                await self._rate.acquire()
            self.stats.in_flight += 1
            self.stats.calls += 1
            try:
                return await make_call()
            finally:
                self.stats.in_flight -= 1
        finally:
            if self._slots is not None:
                self._slots.release()


def _noted_timeouts(result: T, timeouts: int) -> T:
    """A structured answer that came after timed-out attempts says how many on its message,
    for the seat's record (players/llm/calls.py)."""
    raw = result.get("raw") if isinstance(result, dict) else None
    if timeouts and isinstance(raw, BaseMessage):
        raw.additional_kwargs[ANSWER_TIMEOUTS] = timeouts
    return result


def _count_tokens(stats: CallStats, result: Any) -> None:
    raw = result.get("raw") if isinstance(result, dict) else result
    usage = getattr(raw, "usage_metadata", None) or {}
    stats.tokens_in += int(usage.get("input_tokens") or 0)
    stats.tokens_out += int(usage.get("output_tokens") or 0)


class GatedChatModel(WrappedChatModel):
    """A chat model whose asynchronous calls go through a gate; synchronous calls only wait
    for a place among the gate's `max_in_flight`."""

    prefix = "gated"
    gate: ModelGate

    def _held(self) -> AbstractContextManager[object]:
        return self.gate.held()

    async def _through(self, make_call: Callable[[], Awaitable[Any]]) -> Any:
        return await self.gate.call(make_call)

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Runnable[Any, Any]:
        return GatedRunnable(self.inner.with_structured_output(schema, **kwargs), self.gate)


class GatedRunnable(Runnable[Any, Any]):
    """The wrapped model's structured output, its asynchronous calls through the gate. A
    plain Runnable rather than a RunnableLambda, whose per-call config and callback set-up
    cost more CPU than a simulated model's whole answer; the wrapped chain still runs (and
    traces) as LangChain's."""

    def __init__(self, structured: Runnable[Any, Any], gate: ModelGate) -> None:
        self.structured = structured
        self.gate = gate

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        with self.gate.held():
            return self.structured.invoke(input, config, **kwargs)

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        result = await self.gate.call(lambda: self.structured.ainvoke(input, config, **kwargs))
        _count_tokens(self.gate.stats, result)
        return result


def check_rate_limits(models: PlayerModels) -> None:
    """A one-line error before anything runs if a config asks for a request rate and the
    `ratelimit` extra is missing."""
    overrides = [*models.camps.values(), *models.roles.values(), *models.seats.values()]
    rates = [models.default.requests_per_s, *(o.requests_per_s for o in overrides)]
    if any(rate is not None for rate in rates):
        ModelGate(requests_per_s=1.0)


class Gates:
    """The gates of one process: one per server (base URL and key variable; a simulated
    model per name). The first config seen for a server sets its limits."""

    def __init__(self, listener: CallListener | None = None) -> None:
        self.stats = CallStats()
        self.listener = listener
        self._gates: dict[tuple[str, str | None, str | None], ModelGate] = {}

    def gate(self, config: ModelConfig) -> ModelGate:
        server = config.model if config.backend == "simulated" else config.base_url
        key = (config.backend, server, config.api_key_env)
        if key not in self._gates:
            in_flight = config.max_in_flight
            if in_flight is None and config.managed_local:
                # The embedded server computes best two calls at a time (local_server.py).
                in_flight = DEFAULT_IN_FLIGHT
            self._gates[key] = ModelGate(
                in_flight, config.requests_per_s, config.retries + 1, self.stats,
                listener=self.listener,
            )  # fmt: skip
        return self._gates[key]
