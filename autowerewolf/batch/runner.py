"""The asynchronous runner: many games as asyncio tasks in one process (`batch`,
`tournament`, and each Ray worker).

Every game is one LangGraph thread run with `astream(..., durability="sync")` on one shared
asynchronous checkpointer, so a step is saved before the next starts and a killed process
loses at most the steps in flight. Playing a game is idempotent: a finished game is only
read back, an unfinished one resumes from its last checkpoint, a new one starts. A game
that raises is a failed outcome with its error; the others go on.

Model calls go through one gate per server (backends/gate.py). In batch mode the garbage
collector runs less often: with thousands of live objects per game its young-generation
passes cost about a quarter of the CPU per step (docs/scale.md). A model call's reference
cycles (retry state, JSON-schema generators) outlive the young collections and pile up in
the oldest generation, so the runner makes a full collection at most every
`FULL_COLLECTION_EVERY_S` when a game ends.
"""

import asyncio
import gc
import logging
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

from langgraph.checkpoint.base import BaseCheckpointSaver

from autowerewolf.backends.config import PlayerModels
from autowerewolf.backends.gate import Gates
from autowerewolf.backends.redact import redact_secrets
from autowerewolf.batch.adaptive import AdaptiveLimit
from autowerewolf.errors import first_line
from autowerewolf.graph.builder import build_graph
from autowerewolf.graph.context import GameContext
from autowerewolf.graph.state import GameInput
from autowerewolf.integrity import checked_game
from autowerewolf.players.agents.pool import ExperiencePool
from autowerewolf.players.factory import ModelPool, PlayerBuilder
from autowerewolf.players.seating import Seating
from autowerewolf.preflight import preflight
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import GameRecord, Games, record_of, status_of

Status = Literal["finished", "failed", "waiting"]
# gc.set_threshold in batch mode: 50,000 allocations between young collections instead of
# 700 took 27% off the CPU per step at 500 games (docs/scale.md).
BATCH_GC_THRESHOLD = (50_000, 20, 100)
# Every 10 s: 121 -> 74 MB of RSS growth with 100 concurrent games, for ~0.3 s per collection.
FULL_COLLECTION_EVERY_S = 10.0
# How often the adaptive limit's timer measures the event loop's lag (and updates it).
LAG_PROBE_S = 0.1
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BatchGame:
    """One game of a batch; its id is fixed in advance, so running again resumes it."""

    game_id: str
    setup: GameSetup
    seating: Seating
    models: PlayerModels | None = None  # for LLM seats; None: the runner's default


@dataclass(frozen=True)
class Outcome:
    game_id: str
    status: Status
    winner: str | None = None
    error: str | None = None
    resumed_from: int | None = None  # the step it resumed at, if it had been started
    played: bool = True  # False: it was already finished


@dataclass
class BatchStats:
    total: int = 0
    done: int = 0
    running: int = 0
    failed: int = 0
    steps: int = 0
    limit: int = 0  # games allowed at once now (adaptive, or the fixed --concurrency)
    gates: Gates = field(default_factory=Gates)


def error_line(err: BaseException) -> str:
    """A failed game's error as one line (secrets redacted), for the table and the user."""
    text = first_line(err)
    return redact_secrets(f"{type(err).__name__}: {text}" if text else type(err).__name__)[:500]


class Runner:
    """Plays games on one asynchronous checkpointer; shared by every game of the loop."""

    def __init__(
        self,
        saver: BaseCheckpointSaver[Any],
        models: PlayerModels | None = None,
        stats: BatchStats | None = None,
        experience: ExperiencePool | None = None,
    ) -> None:
        self.stats = stats or BatchStats()
        self.graph = build_graph().compile(checkpointer=saver)
        self.models = models
        self.experience = experience
        self.pool = ModelPool(gates=self.stats.gates)
        self._contexts: dict[str, GameContext] = {}
        self._collected_at = time.monotonic()

    def context(self, models: PlayerModels | None) -> GameContext:
        """One context per model set, so seats with the same config share their client."""
        models = models or self.models
        key = models.model_dump_json() if models is not None else ""
        if key not in self._contexts:
            builder = PlayerBuilder(models, self.pool, self.experience)
            self._contexts[key] = GameContext(player_factory=builder)
        return self._contexts[key]

    async def load(self, game_id: str) -> GameRecord | None:
        snapshot = await self.graph.aget_state(Games.run_config(game_id))
        if snapshot.metadata is None or "game" not in snapshot.values:
            return None
        return record_of(game_id, snapshot)

    async def play(
        self, game: BatchGame, finished: Callable[[GameRecord], None] | None = None
    ) -> Outcome:
        config = Games.run_config(game.game_id)
        context = self.context(game.models)
        self.stats.running += 1
        try:
            snapshot = await self.graph.aget_state(config)
            payload: GameInput | None = None
            resumed_from = None
            if snapshot.metadata is None:
                preflight(game.setup, game.seating)
                payload = {"setup": game.setup, "seating": game.seating}
            else:
                status = status_of(snapshot)
                if status == "finished":
                    return self._finished(record_of(game.game_id, snapshot), finished, False)
                if status == "waiting":
                    return Outcome(game.game_id, "waiting", error="waits for a human seat")
                if "game" in snapshot.values:
                    resumed_from = checked_game(snapshot.values).ply
            # durability="sync" needs the checkpointer the runner always has: without one,
            # LangGraph's async loop fails on it (AttributeError '_put_checkpoint_fut').
            async for _ in self.graph.astream(
                payload, config, context=context, durability="sync", stream_mode="updates"
            ):
                self.stats.steps += 1
            record = await self.load(game.game_id)
            assert record is not None
            if record.status == "waiting":
                return Outcome(game.game_id, "waiting", error="waits for a human seat")
            return self._finished(record, finished, True, resumed_from)
        except Exception as err:
            log.warning("game %s failed", game.game_id, exc_info=True)
            self.stats.failed += 1
            return Outcome(game.game_id, "failed", error=error_line(err))
        finally:
            self.stats.running -= 1
            context.forget(game.game_id)
            self._collect_if_due()

    def _collect_if_due(self) -> None:
        if time.monotonic() - self._collected_at >= FULL_COLLECTION_EVERY_S:
            gc.collect()
            self._collected_at = time.monotonic()

    def _finished(
        self,
        record: GameRecord,
        finished: Callable[[GameRecord], None] | None,
        played: bool,
        resumed_from: int | None = None,
    ) -> Outcome:
        if finished is not None:
            finished(record)
        self.stats.done += 1
        winner = record.game.winner.value if record.game.winner else "draw"
        return Outcome(record.game_id, "finished", winner, None, resumed_from, played)


async def play_all(
    runner: Runner,
    games: Sequence[BatchGame],
    concurrency: int | None,
    done: Callable[[Outcome], None] | None = None,
    finished: Callable[[GameRecord], None] | None = None,
    adaptive: AdaptiveLimit | None = None,
) -> list[Outcome]:
    """Every game, at most `concurrency` at once, or (None) as many as the adaptive limit
    allows (batch/adaptive.py: it hears the runner's model calls through its gates);
    `done` hears of each as it ends."""
    stats = runner.stats
    limit = None
    if concurrency is None:
        limit = adaptive or AdaptiveLimit()
        stats.gates.listener = limit
        stats.limit = limit.limit
    else:
        stats.limit = concurrency
    room = asyncio.Condition()
    admitted = 0  # games started and not yet ended

    async def one(game: BatchGame) -> Outcome:
        nonlocal admitted
        async with room:
            await room.wait_for(lambda: admitted < stats.limit)
            admitted += 1
        try:
            return await runner.play(game, finished)
        finally:
            async with room:
                admitted -= 1
                room.notify(1)  # one place: waking every waiting game would cost O(n^2)

    async def adapt(limit: AdaptiveLimit) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time()
            await asyncio.sleep(LAG_PROBE_S)
            limit.lag(loop.time() - asked - LAG_PROBE_S)
            before, stats.limit = stats.limit, limit.update(loop.time(), admitted)
            if stats.limit > before:
                async with room:
                    room.notify(stats.limit - before)

    adapting = asyncio.create_task(adapt(limit)) if limit is not None else None
    tasks = [asyncio.create_task(one(game)) for game in games]
    outcomes = []
    try:
        for next_done in asyncio.as_completed(tasks):
            outcome = await next_done
            outcomes.append(outcome)
            if done is not None:
                done(outcome)
    finally:
        for task in [*tasks, *([adapting] if adapting is not None else [])]:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if adapting is not None:
            await asyncio.gather(adapting, return_exceptions=True)
    return outcomes


@contextmanager
def batch_gc() -> Iterator[None]:
    """Batch mode's collector: rarer young collections, and every object alive before the
    batch (the imported modules, ~180,000 objects) frozen out of the full collections,
    which then only walk the games' objects (0.28 -> 0.18 s each at 200 games at once)."""
    before = gc.get_threshold()
    gc.set_threshold(*BATCH_GC_THRESHOLD)
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
