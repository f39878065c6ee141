"""A batch against a rate-limited model server (an OpenAI-compatible fake on 127.0.0.1 that
answers 429 with Retry-After above its rate): the 429s cut the adaptive limit, the server
stays busy near its rate, and no game fails."""

import asyncio
import random
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from autowerewolf.backends.config import PlayerModels
from autowerewolf.batch.adaptive import AdaptiveLimit
from autowerewolf.batch.runner import BatchGame, BatchStats, Runner, play_all
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.storage.async_savers import async_saver
from autowerewolf.storage.stores import open_store
from autowerewolf.storage.target import database
from tests.fakes.http import QuietHandler, filled_completion, send_json, serving
from tests.fixed import HEX_SECRET

RATE_PER_S = 10
# A model's answer takes time: 12 games at once then ask ~4x the rate, as a batch started
# above a real server's rate does (an answer in 50 ms would ask 20x and more).
SERVER_LATENCY_S = 0.3


class RateLimited:
    """What the server did: requests answered and refused, by time."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.answered: deque[float] = deque()
        self.refused: list[float] = []
        self.served = 0

    def admit(self) -> bool:
        """Whether a request now is within RATE_PER_S over the last second."""
        now = time.monotonic()
        with self.lock:
            while self.answered and self.answered[0] <= now - 1.0:
                self.answered.popleft()
            if len(self.answered) >= RATE_PER_S:
                self.refused.append(now)
                return False
            self.answered.append(now)
            self.served += 1
            return True


@contextmanager
def rate_limited_server(seen: RateLimited) -> Iterator[str]:
    class Handler(QuietHandler):
        def do_POST(self) -> None:
            request = self.json_body()
            if not seen.admit():
                refused = b'{"error": {"message": "rate limited"}}'
                send_json(self, refused, 429, Retry_After="0.3")
                return
            time.sleep(SERVER_LATENCY_S)
            send_json(self, filled_completion(request, random.Random(0)))

    with serving(Handler) as url:
        yield url


@pytest.mark.long  # about 20-30 s: a batch against a throttled server
def test_a_batch_settles_at_a_servers_rate_without_failed_games(tmp_path: Path) -> None:
    seen = RateLimited()
    limit = AdaptiveLimit(initial=12, least=1, window_s=0.5, min_calls=3)
    # One LLM seat a game (the others random): a short game of ~15 model calls.
    games = [
        BatchGame(
            f"rl-{seed}",
            GameSetup(secret=HEX_SECRET, board="12-A", seed=seed),
            Seating(default="random", seats={"P01": "llm"}),
        )
        for seed in range(18)
    ]
    with rate_limited_server(seen) as url:
        models = PlayerModels.model_validate(
            {"default": {"backend": "api", "model": "m", "base_url": url, "retries": 8}}
        )

        db = database(str(tmp_path / "rl.db"))
        open_store(db, create=True).close()

        async def main() -> list[Any]:
            async with async_saver(db) as saver:
                runner = Runner(saver, models, BatchStats(total=len(games)))
                try:
                    return await asyncio.wait_for(
                        play_all(runner, games, None, adaptive=limit), timeout=120
                    )
                finally:
                    runner.pool.close()

        started = time.monotonic()
        outcomes = asyncio.run(main())
        took_s = time.monotonic() - started
    assert [o.status for o in outcomes] == ["finished"] * len(games)
    assert seen.refused, "the server never refused a call: the test did not reach its rate"
    assert not limit.slow_start  # the 429s cut the limit
    # The server is kept busy near its rate rather than left idle.
    assert seen.served / took_s >= RATE_PER_S / 2
