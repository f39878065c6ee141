"""The real-model smoke game (run by .ci/run: `pytest -m realmodel`).

One game on the embedded model, Night 1 and Day 1 of the 8-seat board, with a backend per
camp and role as a user chooses them: the Guard on the managed `local` server (a slot per
seat, primed, gated: what `autowerewolf play` runs), the Seer through the `api` backend at
that server's OpenAI URL, and the wolves through the `ollama` backend behind an Ollama-API
proxy in front of the same model; the villagers are heuristic players. The 12-seat board's
first day takes about 17 minutes on a quiet machine and over 30 in CI (docs/benchmarks.md):
too long for every CI run.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest

from autowerewolf.backends.config import ModelOverride, PlayerModels
from autowerewolf.backends.local_server import LocalServer, OllamaProxy
from autowerewolf.graph.context import GameContext
from autowerewolf.players.factory import DEFAULT_MODELS, ModelPool, PlayerBuilder
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.events import EventKind
from autowerewolf.runner import GameRecord, Games
from tests.fixed import ARENA_DEAL, SECRET
from tests.servers.local_extra import require_local_extra

pytestmark = [pytest.mark.realmodel, pytest.mark.slow]
# The grammar-constrained server should almost never need a fallback (goal: 99% valid).
MAX_FALLBACK_RATE = 0.05
# Every role that acts at night on the model, the villagers heuristic: about 15 calls, a
# few minutes on a quiet machine (all eight seats on the model: about 25).
SEATING = Seating(
    default="heuristic", seats={"P01": "llm", "P03": "llm", "P05": "llm", "P06": "llm"}
)


@pytest.fixture(scope="module")
def server() -> Iterator[LocalServer]:
    # Only a missing extra skips: a bad model file or a missing binary fails the test.
    require_local_extra()
    with LocalServer() as running:
        yield running


def test_a_game_with_a_backend_per_camp_on_the_embedded_model(
    server: LocalServer, tmp_path: Path
) -> None:
    proxy = OllamaProxy(server.base_url, server.alias).start()
    # The pool plays the `local` seats on the test's server, as `play` does on its own.
    pool = ModelPool(local=server)
    try:
        # The other backends take the embedded model's bounds, as the `local` backend has.
        api = ModelOverride(
            backend="api", base_url=server.base_url, model=server.alias, budget="compact"
        )
        ollama = ModelOverride(
            backend="ollama", base_url=proxy.base_url, model=proxy.model, budget="compact"
        )
        models = PlayerModels(
            default=DEFAULT_MODELS.default, roles={"seer": api}, camps={"wolf": ollama}
        )
        context = GameContext(PlayerBuilder(models, pool))
        games = Games(tmp_path / "smoke.db", create=True, context=context)
        try:
            setup = GameSetup(secret=SECRET, board="8-arena", seed=8, deal=ARENA_DEAL, max_days=1)
            record = games.start("smoke", setup, SEATING)
        finally:
            games.close()
    finally:
        pool.close()
        proxy.stop()
    assert record.status == "finished"
    check_decisions(record, proxy.model, server.alias)
    days = {e.day for e in record.events if e.kind is EventKind.SPEECH and e.value == "discussion"}
    assert 1 in days or record.game.winner is not None


def check_decisions(record: GameRecord, wolf_model: str, local_model: str) -> None:
    records = [r for r in record.records if r.player == "llm"]
    assert {r.seat for r in records} == set(SEATING.seats), "a model seat never answered"
    assert all(r.prompt and r.latency_s > 0 for r in records)
    answered = [r for r in records if not r.fallback]
    assert all(r.raw and r.tokens_in for r in answered)
    fallback_rate = sum(r.fallback for r in records) / len(records)
    assert fallback_rate <= MAX_FALLBACK_RATE, f"fallback rate {fallback_rate:.1%}"
    speeches = [e for e in record.events if e.kind is EventKind.SPEECH]
    assert speeches and all(e.text for e in speeches)
    roles = {s.id: s.role.value for s in record.game.seats}
    by_role: dict[str, set[str | None]] = {}
    for r in records:
        by_role.setdefault(roles[r.seat], set()).add(r.model)
    # Each backend answered its seats: the wolves through the proxy's model name.
    assert by_role["werewolf"] == {wolf_model}
    assert by_role["seer"] == {local_model} and by_role["guard"] == {local_model}
    # The managed server's slots kept the seats' prefixes: its seats' later calls hit them.
    local_calls = [r for r in answered if roles[r.seat] != "werewolf"]
    assert sum(r.cached_tokens or 0 for r in local_calls) > 0, "server prompt cache unused"
