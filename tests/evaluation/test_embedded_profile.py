"""`benchmarks/embedded_models.py profile` counts a finished game's model calls by decision
kind: every LLM record once, its prompt tokens split into cached and computed."""

import subprocess
import sys
from pathlib import Path

import pytest

from autowerewolf.evaluation.games.blunders import blunders, total
from autowerewolf.graph.context import GameContext
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import GameRecord, Games
from benchmarks.embedded_models import _calls_by_step, table
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
    steps = _calls_by_step([db])
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


def _play(db: Path, seed: int) -> GameRecord:
    games = Games(db, create=True, context=GameContext(builder(FakeChatModel(legal_json))))
    try:
        setup = GameSetup(seed=seed, secret="")  # the default 12-A board: a Witch, a Hunter
        return games.start(f"m-s{seed}", setup, Seating(default="llm"))
    finally:
        games.close()


def test_the_table_adds_up_the_directories_games_with_intervals_and_chance(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir(), second.mkdir()
    played = [_play(first / "m.db", 2), _play(second / "m.db", 3)]
    table([first, second])
    lines = capsys.readouterr().out.splitlines()
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in lines]
    rows = {row[1]: row[2:] for row in cells if len(row) == 5 and row[0] == "m"}
    tallies = [total(blunders(p.events))["overall"] for p in played]
    count, n = sum(t.count for t in tallies), sum(t.opportunities for t in tallies)
    value, interval = rows["overall"][0].split(" [")
    assert value == f"{count}/{n} ({count / n:.1%})"
    lo, hi = (float(x.rstrip("%")) for x in interval.rstrip("]").split(", "))
    assert lo <= 100 * count / n <= hi and lo < hi  # never an empty interval
    assert rows["overall"][1] == "2"  # both games, one from each directory
    assert 0 < float(rows["overall"][2].rstrip("%")) < 100  # the chance level
    assert rows["fallbacks"][2] == "-"  # a rate no random player has
    poisons = [r for p in played for r in p.records if r.step == "witch_poison"]
    used = sum(r.option != "none" for r in poisons)
    assert poisons and rows["witch_poison used (not none)"][0].startswith(f"{used}/{len(poisons)} ")
    assert rows["witch_poison used (not none)"][2] != "-"  # a random Witch draws "none" too


def test_table_and_profile_refuse_a_missing_directory(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "benchmarks/embedded_models.py", "table", "--out", str(tmp_path / "x")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2 and not (tmp_path / "x").exists()
    assert result.stderr.splitlines()[-1].endswith(f"error: no such directory: {tmp_path / 'x'}")
