"""`export --format chat` (docs/evaluation.md, "Chat trajectories"): every LLM and external
agent decision becomes an OpenAI-chat example whose messages are exactly what the seat was
sent; lines validate against docs/chat-export.schema.json, their public part passes the
leak scan, and the filters keep what they name."""

import io
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from autowerewolf.evaluation.export.jsonl import public_part
from autowerewolf.runner import Games
from tests.fakes.http import serving
from tests.fixed import HEX_SECRET
from tests.graph.graph_helpers import assert_user_error, cli, load_records
from tests.web.fake_model import _Handler
from tests.web.leaks import leaks

REPO = Path(__file__).resolve().parents[2]
AGENT = REPO / "examples" / "agents" / "external_agent.py"


@contextmanager
def recording_model() -> Iterator[tuple[str, list[tuple[str, str]]]]:
    """The fake reasoning model, keeping the system and user message of every call."""
    sent: list[tuple[str, str]] = []

    class Recording(_Handler):
        thinks = True

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            messages = json.loads(body)["messages"]
            sent.append((messages[0]["content"], messages[1]["content"]))
            self.rfile = io.BytesIO(body)
            super().do_POST()

    with serving(Recording) as url:
        yield url, sent


def read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[tuple[str, str]]]:
    folder = tmp_path_factory.mktemp("chat")
    db = folder / "games.db"
    with recording_model() as (url, sent):
        models = folder / "models.yaml"
        models.write_text(f"default: {{backend: api, base_url: '{url}', model: thinker}}\n")
        for seed in (1, 2):
            # A fixed secret: the same deals every run; a fresh one could seat the Seer at
            # the external agent's P02 in both games, leaving the `--role seer` filter empty.
            result = cli("play", "--board", "9-standard", "--players", "llm", "--models", models,
                         "--agent", "P01=estimator", "--agent", f"P02=cmd:{sys.executable} {AGENT}",
                         "--seed", seed, "--secret", HEX_SECRET, "--narration", "off",
                         "--db", db, "--game-id", f"g{seed}")  # fmt: skip
            assert result.exit_code == 0, result.stderr
    return db, sent


def export(db: Path, out: Path, *flags: str) -> list[dict[str, Any]]:
    result = cli("export", db, "--out", out, "--format", "chat", *flags)
    assert result.exit_code == 0, result.stderr
    return read(out / "chat.jsonl")


def test_chat_lines_validate_and_hold_exactly_what_each_seat_was_sent(
    played: tuple[Path, list[tuple[str, str]]], tmp_path: Path
) -> None:
    db, sent = played
    lines = export(db, tmp_path / "out")
    validator = jsonschema.Draft202012Validator(
        json.loads((REPO / "docs" / "chat-export.schema.json").read_text())
    )
    for line in lines:
        validator.validate(line)
    players = {(line.get("player") or line["private"]["player"]) for line in lines}
    assert players == {"llm", "external"}
    asked = set(sent)
    for line in lines:
        private = line["private"]
        system, user = (m["content"] for m in private["messages"])
        if (line.get("player") or private["player"]) == "llm":
            assert (system, user) in asked
        else:
            assert (line.get("seat") or private["seat"]) == "P02"
    manifest = json.loads((tmp_path / "out" / "chat-manifest.json").read_text())
    assert manifest["counts"] == {"games": 2, "examples": len(lines), "unreplayable": 0}
    games = Games(db)
    try:
        decisions = sum(
            1
            for game_id in games.ids()
            for r in games.load(game_id).records
            if r.purpose == "decision" and r.player in ("llm", "external")
        )
    finally:
        games.close()
    assert decisions == len(lines)


def test_the_public_part_of_chat_lines_passes_the_leak_scan(
    played: tuple[Path, list[tuple[str, str]]], tmp_path: Path
) -> None:
    db, _ = played
    lines = export(db, tmp_path / "out")
    truths = {i: r.game for i, r in load_records(db).items()}
    for game_id, truth in truths.items():
        public = [public_part(line) for line in lines if line["game_id"] == game_id]
        assert public and leaks(public, truth, "public") == [], game_id
    text = (tmp_path / "out" / "chat.jsonl").read_text()
    assert "SECRET-P" in text  # the reasoning is there, under private
    assert all("SECRET-P" not in json.dumps(public_part(line)) for line in lines)
    assert all(t.config.secret not in text for t in truths.values())
    night = [line for line in lines if line["private"].get("step") == "wolves"]
    assert night and all(set(line) == {"game_id", "index", "winner", "public", "private"}
                         for line in night)  # fmt: skip


def test_filters_keep_what_they_name(
    played: tuple[Path, list[tuple[str, str]]], tmp_path: Path
) -> None:
    db, _ = played
    wolves = export(db, tmp_path / "w", "--camp", "wolf")
    assert wolves and {line["private"]["camp"] for line in wolves} == {"wolf"}
    winners = export(db, tmp_path / "v", "--winners-only")
    assert winners and all(line["private"]["reward"] == 1.0 for line in winners)
    seers = export(db, tmp_path / "s", "--role", "seer", "--model", "thinker")
    assert seers and all(line["private"]["role"] == "seer" for line in seers)
    assert all((line.get("model") or line["private"]["model"]) == "thinker" for line in seers)
    assert_user_error(cli("export", db, "--out", tmp_path / "x", "--format", "chat",
                          "--camp", "villagers"), "--camp must be wolf or good")  # fmt: skip
    assert_user_error(cli("export", db, "--out", tmp_path / "y", "--winners-only"),
                      "filter --format chat")  # fmt: skip
