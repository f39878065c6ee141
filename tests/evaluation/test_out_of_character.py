"""Speeches and wolf messages out of character, in the report: on test_metrics' hand-built
game, contestant A's LLM seats say four things: an apology, a copy of the rules, a Seer's
report of a check she never made, and her report of one she made. Three are out of
character; the report says 3/4 wherever it shows the rate, and the benchmark table judges
with the same function."""

import csv
import json
from importlib.resources import files
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from autowerewolf.evaluation.bootstrap import wilson
from autowerewolf.evaluation.games import speeches
from autowerewolf.evaluation.games.facts import game_row
from autowerewolf.evaluation.report.build import build_report
from autowerewolf.players.records import DecisionRecord
from autowerewolf.rules.roles import Role
from tests.evaluation.test_metrics import RECORDS, SEATING, hand_built_events, record

RULE = "Messages from other players are their claims, not facts: judge them."


def _check(seat: str) -> dict[str, str]:
    return {"act": "check", "seat": seat, "role": "none", "result": "wolf", "reason": "x"}


def _said(seat: str, step: str, text: str, **fields: Any) -> DecisionRecord:
    return record(seat, step=step, text=text, model="m1", agent="plain", **fields)


SAID = [
    _said("P05", "discussion", "I'm sorry, but I can't assist with that request."),  # (a)
    _said("P01", "wolves", f"Fine. {RULE} Bite P09."),  # (b) a wolf message reciting the rules
    # (c) P09, the Seer, checked P01 (night 1) and P02 (night 2), never P07.
    _said("P09", "discussion", "I checked P07 last night: wolf.", data={"acts": [_check("P07")]}),
    _said("P09", "discussion", "I checked P01 last night: wolf.", data={"acts": [_check("P01")]}),
    # Not judged: a rule-based seat's text, and an LLM seat's probe.
    record("P08", player="heuristic", step="discussion", text="I'm sorry, P03 is a wolf."),
    record("P06", purpose="probe", step="pre_vote", text="I'm sorry, but I can't help."),
]


def test_the_rule_is_prompt_text() -> None:
    assert RULE in files("autowerewolf.prompts").joinpath("rules.md").read_text()


def test_the_report_counts_three_of_four(tmp_path: Path) -> None:
    row = game_row("g1", hand_built_events(), [*RECORDS, *SAID], SEATING, {})
    assert {
        s: r["out_of_character"] for s, r in row["seats"].items() if r["out_of_character"][1]
    } == {
        "P01": [1, 1],
        "P05": [1, 1],
        "P09": [1, 2],
    }
    report = build_report([row], tmp_path, resamples=50, gte=False)
    by_name = {m["contestant"]: m for m in report.metrics}
    a, b = by_name["A"]["out_of_character"], by_name["B"]["out_of_character"]
    assert (a["value"], a["n"], a["games"], a["chance"]) == (0.75, 4, 1, None)
    # One game: every resample draws it, and the share keeps Wilson's width over one game.
    assert (a["lo"], a["hi"]) == wilson(0.75, 1)
    shown = f"[{a['lo']:.1%}, {a['hi']:.1%}]"
    assert b["value"] is None and b["n"] == 0
    (design,) = report.data["designs"]
    assert (design["out_of_character"]["value"], design["out_of_character"]["n"]) == (0.75, 4)
    markdown = (tmp_path / "report.md").read_text()
    assert f"| speeches out of character | A | 3/4 (75.0%) {shown} | 1* | 4 | - |" in markdown
    assert "| speeches out of character | B | n/a (no speech or wolf message" in markdown
    assert f"3/4 (75.0%) {shown} (chance -)" in markdown  # the design table
    assert "3/4 (75.0%)" in (tmp_path / "report.html").read_text()
    saved = json.loads((tmp_path / "metrics.json").read_text())
    assert saved["contestants"][0]["out_of_character"]["value"] == 0.75
    assert "out_of_character" in saved["definitions"] and "out_of_character" in saved["units"]
    with (tmp_path / "contestants.csv").open() as f:
        rows = [r for r in csv.DictReader(f) if r["metric"] == "out_of_character"]
    assert [(r["contestant"], r["value"], r["n"], r["chance"]) for r in rows] == [
        ("A", "0.75", "4.0", ""),
        ("B", "", "0", ""),
    ]
    with (tmp_path / "designs.csv").open() as f:
        rows = [r for r in csv.DictReader(f) if r["metric"] == "out_of_character"]
    assert [(r["agent"], r["value"], r["n"]) for r in rows] == [("plain", "0.75", "4.0")]


def test_rows_saved_before_speeches_were_counted_count_none(tmp_path: Path) -> None:
    row = game_row("g1", hand_built_events(), [*RECORDS, *SAID], SEATING, {})
    for seat in row["seats"].values():
        del seat["out_of_character"]  # type: ignore[misc]
    row["v"] = 4
    report = build_report([row], tmp_path, resamples=10, gte=False)
    cell = report.metrics[0]["out_of_character"]
    assert (cell["value"], cell["n"], cell["games"]) == (None, 0, 0)
    assert report.data["designs"][0]["out_of_character"]["value"] is None


def test_the_report_and_the_benchmark_judge_with_the_shared_function(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both go through `speeches.out_of_character`: a judge swapped in there is the one
    they use (a copy of the logic elsewhere would not see it)."""
    asked: list[tuple[str, Role, dict[str, str]]] = []

    def judge(record: DecisionRecord, role: Role, checks: dict[str, str], saved: Any) -> bool:
        asked.append((record.seat, role, checks))
        return record.seat == "P05"

    monkeypatch.setattr(speeches, "speech_out_of_character", judge)
    row = game_row("g1", hand_built_events(), SAID, SEATING, {})
    assert sorted(s for s, *_ in asked) == ["P01", "P05", "P09", "P09"]
    assert row["seats"]["P05"]["out_of_character"] == [1, 1]
    assert row["seats"]["P09"]["out_of_character"] == [0, 2]
    assert (Role.SEER, {"P01": "wolf"}) in [(r, c) for s, r, c in asked if s == "P09"]

    from benchmarks.embedded_models import _out_of_character

    game = SimpleNamespace(
        events=hand_built_events(),
        game=SimpleNamespace(seat=lambda s: SimpleNamespace(role=Role.VILLAGER)),
    )
    asked.clear()
    assert _out_of_character(game, SAID[0]) is True  # type: ignore[arg-type]
    assert _out_of_character(game, SAID[1]) is False  # type: ignore[arg-type]
    assert [s for s, *_ in asked] == ["P05", "P01"]
