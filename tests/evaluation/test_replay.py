"""Re-running a tournament from its recorded answers: every model call's request and answer
is kept in the games' database, a replay asks the model nothing and plays the same games,
and a changed harness re-asks only the calls whose request differs."""

import json
import os
import re
import sqlite3
from pathlib import Path
from typing import Any, Literal

import pytest
from langchain_core.messages import HumanMessage
from pydantic import BaseModel, SecretStr

from autowerewolf.backends.recorded import TABLE, AnswerBook, RecordedChatModel
from autowerewolf.backends.simulated import SimulatedChatModel
from autowerewolf.evaluation.tournament.config import TournamentConfig
from autowerewolf.evaluation.tournament.play import run_tournament
from autowerewolf.runner import Games
from tests.fakes.chat import FakeChatModel, legal_json
from tests.fixed import HEX_SECRET
from tests.graph.graph_helpers import cli, flat

CONFIG = TournamentConfig.model_validate(
    {
        "name": "replayed",
        "board": "8-arena",
        "games": 40,
        "seed": 3,
        "secret": HEX_SECRET,  # the same deals in every run
        "concurrency": 4,
        "models": {"default": {"backend": "simulated", "model": "sim", "latency_s": 0}},
        "contestants": [
            {"name": "sim-plain", "kind": "llm"},
            {"name": "heuristic", "kind": "heuristic"},
        ],
    }
)


def decisions(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    games = Games(db)
    try:
        return {
            game_id: [
                (r.seat, r.day, r.step, r.option, r.text, r.raw, r.valid, r.fallback)
                for r in games.load(game_id).records
            ]
            for game_id in sorted(games.ids())
        }
    finally:
        games.close()


def forbid_model_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_call(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a replay asked the model")

    monkeypatch.setattr(SimulatedChatModel, "with_structured_output", no_call)


@pytest.mark.long
def test_replay_plays_the_same_games_without_a_model_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = tmp_path / "first.db"
    run_tournament(CONFIG, first)
    with sqlite3.connect(first) as kept:
        (answers,) = kept.execute(f"SELECT count(*) FROM {TABLE}").fetchone()
    assert answers > 100
    assert os.stat(first).st_mode & 0o777 == 0o600

    with monkeypatch.context() as patched:
        forbid_model_calls(patched)
        again = tmp_path / "again.db"
        run_tournament(CONFIG, again, replay_from=first)
    assert decisions(again) == decisions(first)
    # The tournament's games and its LLM contestant's scaffold games (schedule.py).
    assert len(decisions(again)) == CONFIG.games + CONFIG.scaffold_games


class Vote(BaseModel):
    choice: Literal["P1", "P2"]
    reason: str


def test_changed_request_is_asked_again_and_no_key_is_stored(tmp_path: Path) -> None:
    key = "sk-test-" + "7" * 40
    asked: list[Any] = []

    def answer(messages: Any, schema: dict[str, Any]) -> str:
        asked.append(messages)
        return legal_json(messages, schema)

    fake = FakeChatModel(answer)
    fake.openai_api_key = SecretStr(key)  # the client's key: never part of a request
    db = tmp_path / "answers.db"
    prompts = [[HumanMessage(f"seat P{n}: vote")] for n in range(3)]

    book = AnswerBook(db)
    chat = RecordedChatModel(inner=fake, book=book, identity={"model": "fake"})
    first = [chat.with_structured_output(Vote, include_raw=True).invoke(p) for p in prompts]
    book.close()
    assert len(asked) == 3

    changed = [*prompts[:2], [HumanMessage("another harness: vote")]]
    replay = AnswerBook(tmp_path / "second.db", replay=db)
    chat = RecordedChatModel(inner=fake, book=replay, identity={"model": "fake"})
    second = [chat.with_structured_output(Vote, include_raw=True).invoke(p) for p in changed]
    replay.close()
    assert len(asked) == 4  # only the changed request
    assert (replay.tally["hits"], replay.tally["misses"]) == (2, 1)
    assert [r["parsed"] for r in second[:2]] == [r["parsed"] for r in first[:2]]
    assert second[0]["raw"].content == first[0]["raw"].content

    assert key.encode() not in db.read_bytes()
    assert os.stat(db).st_mode & 0o777 == 0o600


@pytest.mark.long  # about 10 s: two sequential tournaments with model seats
def test_a_sequential_tournament_replays_from_its_recorded_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`tournament --replay-from` with a stop rule: every look is answered from the book."""
    spec = CONFIG.model_dump(mode="json") | {
        "games": 12,
        "scaffold_games": 0,
        "stop": {"compare": ["heuristic", "sim-plain"], "every": 4},
    }
    study = tmp_path / "study.yaml"
    study.write_text(json.dumps(spec))  # JSON is YAML
    first = cli("tournament", study, "--db", tmp_path / "first.db", "--out", tmp_path / "a",
                "--no-gte")  # fmt: skip
    assert first.exit_code == 0, first.stderr
    with monkeypatch.context() as patched:
        forbid_model_calls(patched)
        again = cli("tournament", study, "--db", tmp_path / "again.db", "--out", tmp_path / "b",
                    "--replay-from", tmp_path / "first.db", "--no-gte")  # fmt: skip
    assert again.exit_code == 0, again.stderr
    tallies = re.findall(r"Recorded answers: (\d+) hits, (\d+) misses", flat(again.stdout))
    assert tallies and all(int(h) > 0 and m == "0" for h, m in tallies), again.stdout
    assert decisions(tmp_path / "again.db") == decisions(tmp_path / "first.db")
