"""Real-model smoke games on the local llama.cpp server (run by .ci/run: `pytest -m realmodel`).

A 12-player game through the `api` backend, played to its end or to the end of Day 1, and a
full day through the `ollama` backend behind an Ollama-API proxy in front of the same model.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest

from autowerewolf.backends.config import ModelConfig, PlayerModels
from autowerewolf.backends.local_server import DEFAULT_ALIAS, LocalServer, OllamaProxy
from autowerewolf.graph.context import GameContext
from autowerewolf.players.factory import ModelPool, PlayerBuilder
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.events import EventKind
from autowerewolf.runner import GameRecord, Games
from tests.fixed import SECRET
from tests.servers.local_extra import require_local_extra

pytestmark = [pytest.mark.realmodel, pytest.mark.slow]
# The grammar-constrained server should almost never need a fallback (goal: 99% valid).
MAX_FALLBACK_RATE = 0.05


@pytest.fixture(scope="module")
def server() -> Iterator[LocalServer]:
    # Only a missing extra skips: a bad model file or a missing binary fails the tests.
    require_local_extra()
    # These games reach it as a user's own llama-server (backend `api` or `ollama` with a
    # base_url): unpinned and ungated, so every simultaneous question arrives at once. Set up
    # as it was before it kept a slot per seat: two slots and a host-memory prompt cache for
    # the other seats' prefixes. Thirteen slots computed twelve calls at once, slower on 2
    # cores; two without that cache recomputed most prompts (over 30 minutes for the day).
    with LocalServer(parallel=2, cache_ram_mib=2048) as running:
        yield running


def play(tmp_path: Path, models: PlayerModels, setup: GameSetup) -> GameRecord:
    pool = ModelPool()
    context = GameContext(PlayerBuilder(models, pool))
    games = Games(tmp_path / "smoke.db", create=True, context=context)
    try:
        return games.start("smoke", setup, Seating(default="llm"))
    finally:
        games.close()
        pool.close()


def check_logs(record: GameRecord) -> None:
    records = record.records
    assert records, "no decisions recorded"
    assert all(r.player == "llm" and r.prompt and r.latency_s > 0 for r in records)
    answered = [r for r in records if not r.fallback]
    assert all(r.raw and r.tokens_in for r in answered)
    fallback_rate = sum(r.fallback for r in records) / len(records)
    assert fallback_rate <= MAX_FALLBACK_RATE, f"fallback rate {fallback_rate:.1%}"
    speeches = [e for e in record.events if e.kind is EventKind.SPEECH]
    assert speeches and all(e.text for e in speeches)


def test_a_game_through_api_backend(server: LocalServer, tmp_path: Path) -> None:
    models = PlayerModels(
        default=ModelConfig(
            backend="api",
            base_url=server.base_url,
            model=DEFAULT_ALIAS,
            max_tokens=400,
            budget="compact",  # the embedded model's bounds, as its `local` backend has
        )
    )
    # One day (Night 1, the sheriff election, the discussion and the exile vote) keeps CI
    # time down: since wolves stopped exploding at nearly every speech (docs/agents.md), two
    # days take about 20 minutes here and a whole game about 20 to 40.
    record = play(tmp_path, models, GameSetup(secret=SECRET, seed=7, max_days=1))
    assert record.status == "finished"
    over = next(e for e in record.events if e.kind is EventKind.GAME_OVER)
    assert record.game.winner is not None or over.text == "no winner after 1 days"
    votes = {e.day for e in record.events if e.kind is EventKind.BALLOT and e.value == "exile"}
    exploded = {e.day for e in record.events if e.kind is EventKind.SELF_EXPLOSION}
    # Day 1 reached its exile vote, unless a wolf's self-explosion ended it first (RULES.md
    # self-explosion: the rest of the day is cancelled).
    assert 1 in votes or 1 in exploded or record.game.winner is not None
    check_logs(record)
    assert sum(r.cached_tokens or 0 for r in record.records) > 0, "server prompt cache unused"


def test_one_full_day_through_ollama_backend(server: LocalServer, tmp_path: Path) -> None:
    proxy = OllamaProxy(server.base_url, DEFAULT_ALIAS).start()
    try:
        models = PlayerModels(
            default=ModelConfig(
                backend="ollama",
                base_url=proxy.base_url,
                model=proxy.model,
                max_tokens=400,
                budget="compact",  # the embedded model's bounds, as its `local` backend has
            )
        )
        # One full day (night, discussion, vote) on the 8-seat board keeps CI time down.
        record = play(
            tmp_path, models, GameSetup(secret=SECRET, board="8-arena", seed=8, max_days=1)
        )
    finally:
        proxy.stop()
    assert record.status == "finished"
    check_logs(record)
    days = {e.day for e in record.events if e.kind is EventKind.SPEECH and e.value == "discussion"}
    assert 1 in days or record.game.winner is not None
