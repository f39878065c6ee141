"""Dataset export: one line per game, event and decision, hidden fields marked, a
manifest; the source database is only read."""

import json
from pathlib import Path

from typer.testing import CliRunner

from autowerewolf.cli import app
from autowerewolf.evaluation.export.jsonl import decision_line
from autowerewolf.players.records import DecisionRecord
from tests.evaluation.conftest import files_digest
from tests.graph.graph_helpers import load_records


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_export_writes_every_game_event_and_decision(study_db: Path, tmp_path: Path) -> None:
    before = files_digest(study_db)
    result = CliRunner().invoke(app, ["export", str(study_db), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert files_digest(study_db) == before
    records = load_records(study_db)
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
    # The deal and the seed only under `private`.
    assert exported[0]["private"]["deal"] == {s.id: s.role.value for s in first.game.seats}
    assert exported[0]["private"]["seed"] == first.game.config.seed
    assert "role" not in json.dumps(exported[0]["seats"])
    for event in events:
        assert event["public"] == (event.get("private", {}).get("audience") == "public")
        if not event["public"]:  # only its place in the transcript is public
            assert set(event) == {"game_id", "index", "public", "private"}
    assert any(not e["public"] and e["private"]["kind"] == "deal" for e in events)
    public_steps = {d["step"] for d in decisions if d["public"]}
    hidden_steps = {d["private"]["step"] for d in decisions if not d["public"]}
    assert "exile_vote" in public_steps and "discussion" in public_steps
    assert {"wolves", "seer"} <= hidden_steps and not {"wolves", "seer"} & public_steps


def test_private_fields_are_flagged() -> None:
    record = DecisionRecord(
        seat="P03", player="llm", model="m", day=1, step="exile_vote", key="d1:exile_vote:r1",
        options=("P01", "abstain"), option="P01", reasoning="P01 lied", prompt="...",
        raw='{"choice": "P01"}', data={"estimates": {}},
    )  # fmt: skip
    line = decision_line("g", 0, record)
    private = line["private"]
    assert (private["reasoning"], private["prompt"], private["raw"]) == (
        "P01 lied",
        "...",
        '{"choice": "P01"}',
    )
    assert private["data"] == {"estimates": {}} and private["options"] == ["P01", "abstain"]
    assert not {"reasoning", "prompt", "raw", "data", "option", "options", "thinking"} & set(line)
    assert line["choice"] == "P01" and line["public"] and line["model"] == "m"
    # A reasoning model's thinking is private like its reasoning (it was a top-level field).
    thought = decision_line("g", 1, record.model_copy(update={"thinking": "I am a wolf"}))
    assert "thinking" not in thought and thought["private"]["thinking"] == "I am a wolf"
    # A night action: nothing but its place in the list is public.
    night = record.model_copy(update={"step": "seer", "key": "n1:seer", "option": "P05"})
    assert set(decision_line("g", 2, night)) == {"game_id", "index", "public", "private"}
