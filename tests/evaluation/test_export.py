"""Dataset export: one line per game, event and decision, hidden fields marked, a
manifest; the source database is only read."""

import json
from pathlib import Path

from typer.testing import CliRunner

from autowerewolf.cli import app
from autowerewolf.evaluation.export import decision_line
from autowerewolf.players.records import DecisionRecord
from autowerewolf.runner import Games
from tests.evaluation.conftest import files_digest


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_export_writes_every_game_event_and_decision(study_db: Path, tmp_path: Path) -> None:
    before = files_digest(study_db)
    result = CliRunner().invoke(app, ["export", str(study_db), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert files_digest(study_db) == before
    games = Games(study_db)
    try:
        records = {i: games.load(i) for i in games.ids()}
    finally:
        games.close()
    exported = lines(tmp_path / "games.jsonl")
    events = lines(tmp_path / "events.jsonl")
    decisions = lines(tmp_path / "decisions.jsonl")
    assert [g["game_id"] for g in exported] == sorted(records)
    assert len(events) == sum(len(r.events) for r in records.values())
    assert len(decisions) == sum(len(r.records) for r in records.values())
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["counts"] == {
        "games": len(exported),
        "events": len(events),
        "decisions": len(decisions),
    }
    assert manifest["sources"][0]["file"] == study_db.name
    first = records[exported[0]["game_id"]]
    # The deal and the seed only under `omniscient`.
    assert exported[0]["omniscient"]["deal"] == {s.id: s.role.value for s in first.game.seats}
    assert exported[0]["omniscient"]["seed"] == first.game.config.seed
    assert "role" not in json.dumps(exported[0]["seats"])
    for event in events:
        assert event["omniscient"] == (event["audience"] == "omniscient")
        assert (event["audience_seat"] is not None) == (event["audience"] == "seat")
    assert any(e["kind"] == "deal" and e["omniscient"] for e in events)
    audiences = {(d["step"], d["audience"]) for d in decisions}
    assert ("exile_vote", "public") in audiences and ("wolves", "wolves") in audiences
    assert ("seer", "seat") in audiences


def test_private_fields_are_flagged() -> None:
    record = DecisionRecord(
        seat="P03", player="llm", model="m", day=1, step="exile_vote", key="d1:exile_vote:r1",
        options=("P01", "abstain"), option="P01", reasoning="P01 lied", prompt="...",
        raw='{"choice": "P01"}', data={"estimates": {}},
    )  # fmt: skip
    line = decision_line("g", 0, record)
    assert line["private"] == {
        "reasoning": "P01 lied",
        "prompt": "...",
        "raw": '{"choice": "P01"}',
        "data": {"estimates": {}},
    }
    assert not {"reasoning", "prompt", "raw", "data", "option"} & set(line)
    assert line["choice"] == "P01" and line["audience"] == "public" and line["model"] == "m"
