"""The public part of an export leaks nothing (docs/evaluation.md, "Dataset export";
docs/security.md): games played by every agent design and a plug-in on a reasoning model
(the fake OpenAI-compatible server, whose every answer carries marked private reasoning
and reasoning content) are exported, and each line without its `private` part passes the
leak scan the web app's public payloads pass. The manifest names every private field."""

import json
from pathlib import Path
from typing import Any

import pytest

from autowerewolf.evaluation.export.jsonl import public_part
from tests.fixed import HEX_SECRET
from tests.graph.graph_helpers import cli, load_records
from tests.web.fake_model import fake_model_server
from tests.web.leaks import leaks

AGENTS = ["plain", "P01=estimator", "P02=adaptive", "P03=experience", "camp:wolf=support",
          "role:villager=attack", "P04=python:examples.agents.cautious:CautiousVoter"]  # fmt: skip


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("export")
    db, out = folder / "games.db", folder / "out"
    with fake_model_server(thinks=True) as url:
        models = folder / "models.yaml"
        models.write_text(f"default: {{backend: api, base_url: '{url}', model: thinker}}\n")
        for seed in (1, 2):
            agents = [a for agent in AGENTS for a in ("--agent", agent)]
            # A fixed secret: the same deals every run, both with exile votes to check.
            played = cli("play", "--players", "llm", "--models", models, "--seed", seed,
                         "--secret", HEX_SECRET, "--narration", "off", "--db", db,
                         "--game-id", f"g{seed}", "--experience", folder / "pool.jsonl",
                         *agents)  # fmt: skip
            assert played.exit_code == 0, played.stderr
    result = cli("export", db, "--out", out)
    assert result.exit_code == 0, result.stderr
    return db, out


def test_the_public_part_of_an_export_passes_the_leak_scan(exported: tuple[Path, Path]) -> None:
    db, out = exported
    truths = {i: r.game for i, r in load_records(db).items()}
    by_game: dict[str, list[dict[str, Any]]] = {game: [] for game in truths}
    for name in ("games", "events", "decisions"):
        for line in lines(out / f"{name}.jsonl"):
            by_game[line["game_id"]].append(public_part(line))
    for game, truth in truths.items():
        assert leaks(by_game[game], truth, "public") == [], game
    text = "".join((out / f"{n}.jsonl").read_text() for n in ("games", "events", "decisions"))
    assert "SECRET-THINKING-" in text and "SECRET-P" in text  # under private: it was there
    assert all(t.config.secret not in text for t in truths.values())  # never exported


def test_every_private_field_is_under_private_and_in_the_manifest(
    exported: tuple[Path, Path],
) -> None:
    _, out = exported
    hidden = json.loads((out / "manifest.json").read_text())["hidden"]
    for name in ("games", "events", "decisions"):
        listed = {entry.rsplit(".", 1)[1] for entry in hidden[name] if entry.startswith(name)}
        found = {key for line in lines(out / f"{name}.jsonl") for key in line["private"]}
        public = {key for line in lines(out / f"{name}.jsonl") if line.get("public", True)
                  for key in line["private"]}  # fmt: skip
        assert public <= listed, name
        if name == "games":
            assert found == listed
    decisions = lines(out / "decisions.jsonl")
    designs = {d["private"].get("agent") or d.get("agent") for d in decisions}
    assert {"estimator", "adaptive", "experience", "support", "attack", "plain"} <= designs
    thinking = [d for d in decisions if (d.get("private") or {}).get("thinking")]
    assert thinking and all("thinking" not in d for d in thinking)
    night = [d for d in decisions if d["private"].get("step") in ("seer", "wolves", "witch_cure")]
    assert night and all(set(d) == {"game_id", "index", "public", "private"} for d in night)
    votes = [d for d in decisions if d.get("step") == "exile_vote"]
    assert votes and all(d["public"] and "choice" in d and "options" in d["private"] for d in votes)
