"""`benchmarks/embedded_models.py profile` counts a finished game's model calls by decision
kind: every LLM record once, its prompt tokens split into cached and computed."""

from pathlib import Path

from autowerewolf.graph.context import GameContext
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import Games
from benchmarks.embedded_models import _calls_by_step
from tests.agents.helpers import builder
from tests.fakes.chat import FakeChatModel, legal_json


def test_the_profile_counts_every_model_call_once_by_decision_kind(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    games = Games(db, create=True, context=GameContext(builder(FakeChatModel(legal_json))))
    try:
        played = [
            games.start(f"m-s{seed}", GameSetup(board="8-arena", seed=seed, secret=""), seating)
            for seed, seating in ((2, Seating(default="llm")), (3, Seating(default="llm")))
        ]
    finally:
        games.close()
    llm = [r for game in played for r in game.records if r.player == "llm"]
    steps = _calls_by_step(db)
    assert sum(row[0] for row in steps.values()) == len(llm)
    assert sum(row[2] for row in steps.values()) == sum(r.tokens_in or 0 for r in llm)
    computed = sum((r.tokens_in or 0) - (r.cached_tokens or 0) for r in llm)
    assert sum(row[3] for row in steps.values()) == computed
    assert sum(row[5] for row in steps.values()) == sum(r.tokens_out or 0 for r in llm)
    discussion = [r for r in llm if r.purpose == "decision" and ":discussion:" in r.key]
    assert discussion and steps["discussion"][0] == len(discussion)
    for n, looks, prompt, computed, question, generated in steps.values():
        assert n > 0 and 0 <= looks <= n and 0 <= computed <= prompt and generated > 0
        assert 0 < question < prompt  # the question is a part of every prompt, never all of it
