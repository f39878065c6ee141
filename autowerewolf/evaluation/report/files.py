"""The report's CSV files: every number of metrics.json in long tables, each value beside
its interval, games, n and chance level."""

import csv
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from autowerewolf.evaluation.report import debate as debate_report
from autowerewolf.private_files import replaced_atomically

CELL = ["value", "lo", "hi", "games", "n", "chance"]


def _write(path: Path, header: list[str], rows: Iterable[list[Any]]) -> Path:
    with replaced_atomically(path) as f:  # 0600, whole or not at all
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def _cells(entry: dict[str, Any]) -> Iterable[tuple[str, str, dict[str, Any]]]:
    """(metric, role or '', cell) of a contestant's entry, nested groups flattened."""
    for key, value in entry.items():
        if not isinstance(value, dict):
            continue
        if "value" in value:
            yield key, "", value
        elif key == "debate_by_role":
            for role, cells in value.items():
                yield from ((m, role, c) for m, c in cells.items())
        else:  # win_by_role, survival_by_role, role_kpi, blunders, head_to_head...
            yield from ((f"{key}:{sub}", "", c) for sub, c in value.items() if c)


def csvs(out: Path, data: dict[str, Any]) -> list[Path]:
    contestants = [
        [m["contestant"], metric, role, *(cell.get(k) for k in CELL)]
        for m in data["contestants"]
        for metric, role, cell in _cells(m)
    ]
    ratings = data["ratings"]
    gte = {r["contestant"]: r for r in (ratings["gte"] or {}).get("ratings", [])}
    rating_rows = [
        [
            s["contestant"],
            s["games"],
            s["skill"],
            s["lo"],
            s["hi"],
            *(
                gte[s["contestant"]][k] if s["contestant"] in gte else None
                for k in ("rating", "lo", "hi")
            ),
            ratings["team_elo"][s["contestant"]],
            *ratings["team_elo_intervals"][s["contestant"]],
            ratings["openskill"][s["contestant"]]["mu"],
            ratings["openskill"][s["contestant"]]["sigma"],
        ]
        for s in ratings["bradley_terry"]["skills"]
    ]
    pairs = [
        [
            p["a"],
            p["b"],
            p["games"],
            p["p_above"],
            *(
                p[part][k]
                for part in ("bt_difference", "win_difference", "head_to_head")
                for k in CELL
            ),
        ]
        for p in data["pairs"]
    ]
    designs = [
        [d["model"], d["agent"], metric, *(cell.get(k) for k in CELL)]
        for d in data["designs"]
        for metric, cell in [
            ("win", d["win"]),
            *((f"win_as_{c}", v) for c, v in d["win_by_camp"].items()),
            ("est", d["est"]),
            ("out_of_character", d["out_of_character"]),
            *((f"blunders:{m}", v) for m, v in d["blunders"].items()),
        ]
    ]
    validity = [
        [v["player"], v["step"], v["decisions"], metric, *(v[metric].get(k) for k in CELL)]
        for v in data["validity"]
        for metric in ("illegal_rate", "fallback_rate", "second_look_rate")
    ]
    pair_header = [
        f"{part}_{k}" for part in ("bt_difference", "win_difference", "head_to_head") for k in CELL
    ]
    return [
        _write(out / "contestants.csv", ["contestant", "metric", "role", *CELL], contestants),
        _write(
            out / "ratings.csv",
            [
                "contestant",
                "games",
                "bt_skill",
                "bt_lo",
                "bt_hi",
                "gte",
                "gte_lo",
                "gte_hi",
                "team_elo",
                "team_elo_lo",
                "team_elo_hi",
                "openskill_mu",
                "openskill_sigma",
            ],
            rating_rows,
        ),
        _write(out / "pairs.csv", ["a", "b", "games", "p_a_above_b", *pair_header], pairs),
        _write(
            out / "bt_by_role.csv",
            ["contestant", "role", "skill", "lo", "hi"],
            (
                [r["contestant"], r["role"], r["skill"], r["lo"], r["hi"]]
                for r in ratings["bt_by_role"]
            ),
        ),
        _write(out / "designs.csv", ["model", "agent", "metric", *CELL], designs),
        _write(out / "validity.csv", ["player", "step", "decisions", "metric", *CELL], validity),
        _write(out / "debate.csv", *debate_report.csv_rows(data["debate"])),
    ]
