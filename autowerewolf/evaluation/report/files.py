"""The report's CSV files: every number of metrics.json in long tables, each value beside
its interval, games, n, chance level and whether it rests on few games (`small`: fewer
than bootstrap.MIN_GAMES). A chance level is empty where a uniformly random answerer has
none (a random player writes no text)."""

import csv
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from autowerewolf.evaluation.bootstrap import MIN_GAMES
from autowerewolf.evaluation.report import debate as debate_report
from autowerewolf.evaluation.report.cells import CELL_COLUMNS, cell_values
from autowerewolf.evaluation.report.validity import RATES
from autowerewolf.private_files import replaced_atomically

# What every rating scores for contestants who all play alike (the docs' chance table).
RATING_CHANCE = {"bradley_terry": 0.0, "gte": 0.0, "team_elo": 1500.0, "openskill": 25.0}


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


def rating_cells(ratings: Mapping[str, Any]) -> Iterable[tuple[str, str, dict[str, Any]]]:
    """(contestant, rating, cell) of every rating: a rating's unit is the game, so its n
    is the contestant's games."""
    gte = {r["contestant"]: r for r in (ratings["gte"] or {}).get("ratings", [])}
    for s in ratings["bradley_terry"]["skills"]:
        name, games = s["contestant"], s["games"]
        elo_lo, elo_hi = ratings["team_elo_intervals"][name]
        skill = ratings["openskill"][name]
        found = {
            "bradley_terry": (s["skill"], s["lo"], s["hi"]),
            "gte": (gte[name]["rating"], gte[name]["lo"], gte[name]["hi"]) if name in gte else None,
            "team_elo": (ratings["team_elo"][name], elo_lo, elo_hi),
            "openskill": (skill["mu"], skill["lo"], skill["hi"]),
        }
        for rating, values in found.items():
            value, lo, hi = values or (None, None, None)
            cell = {"value": value, "lo": lo, "hi": hi, "games": games, "n": games}
            yield name, rating, {**cell, "chance": RATING_CHANCE[rating]}


def csvs(out: Path, data: dict[str, Any]) -> list[Path]:
    contestants = [
        [m["contestant"], metric, role, *cell_values(cell)]
        for m in data["contestants"]
        for metric, role, cell in _cells(m)
    ]
    ratings = data["ratings"]
    rating_rows = [[c, r, *cell_values(cell)] for c, r, cell in rating_cells(ratings)]
    pairs = [
        [
            p["a"],
            p["b"],
            p["games"],
            p["games"],
            0.5,  # P(A ranks above B) of two who play alike
            p["games"] < MIN_GAMES,
            p["p_above"],
            *(
                value
                for part in ("bt_difference", "win_difference", "head_to_head")
                for value in cell_values(p[part])
            ),
        ]
        for p in data["pairs"]
    ]
    designs = [
        [d["model"], d["agent"], metric, *cell_values(cell)]
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
        [v["player"], v["step"], v["decisions"], metric, *cell_values(v[metric])]
        for v in data["validity"]
        for metric in RATES.values()
    ]
    pair_header = [
        f"{part}_{k}"
        for part in ("bt_difference", "win_difference", "head_to_head")
        for k in CELL_COLUMNS
    ]
    by_role = [[r["contestant"], r["role"], *cell_values(r)] for r in ratings["bt_by_role"]]
    debate_header, debate_rows = debate_report.csv_rows(data["debate"])
    return [
        _write(
            out / "contestants.csv", ["contestant", "metric", "role", *CELL_COLUMNS], contestants
        ),
        _write(out / "ratings.csv", ["contestant", "rating", *CELL_COLUMNS], rating_rows),
        _write(
            out / "pairs.csv",
            ["a", "b", "games", "n", "chance", "small", "p_a_above_b", *pair_header],
            pairs,
        ),
        _write(
            out / "clean_ratings.csv",
            ["contestant", "metric", *CELL_COLUMNS],
            [
                [e["contestant"], metric, *cell_values(e[field])]
                for e in data["clean"]["skills"]
                for metric, field in (("voided", "voided"), ("clean_skill", "skill"))
            ],
        ),
        _write(out / "bt_by_role.csv", ["contestant", "role", *CELL_COLUMNS], by_role),
        _write(out / "designs.csv", ["model", "agent", "metric", *CELL_COLUMNS], designs),
        _write(
            out / "validity.csv", ["player", "step", "decisions", "metric", *CELL_COLUMNS], validity
        ),
        _write(out / "debate.csv", debate_header, debate_rows),
    ]
