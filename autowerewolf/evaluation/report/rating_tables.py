"""The report's rating tables: Bradley-Terry skills, the clean-game and per-role ratings,
the pairs' differences and the game-theoretic ratings, each cell beside its interval, games
and chance level."""

from collections.abc import Mapping
from typing import Any

from autowerewolf.evaluation.ratings.gte import gte_rows
from autowerewolf.evaluation.ratings.outcomes import BY_ROLE_RESAMPLES
from autowerewolf.evaluation.report.cells import (
    NA,
    NA_REASONS,
    SMALL_NOTE,
    Table,
    cell_columns,
    fmt,
    games_column,
    interval,
)


def _ratings(data: Mapping[str, Any]) -> Table:
    bt = data["ratings"]["bradley_terry"]
    solved = data["ratings"]["gte"] or {}
    gte = {r["contestant"]: r for r in solved.get("ratings", [])}
    elo, elo_lo = data["ratings"]["team_elo"], data["ratings"]["team_elo_intervals"]
    skill = data["ratings"]["openskill"]
    rows = []
    for s in sorted(bt["skills"], key=lambda s: -s["skill"]):
        name = s["contestant"]
        g = gte.get(name)
        rows.append(
            [
                name,
                games_column({"value": s["skill"], "games": s["games"]}),
                f"{s['skill']:+.3f} [{s['lo']:+.3f}, {s['hi']:+.3f}]",
                f"{g['rating']:+.4f} [{g['lo']:+.4f}, {g['hi']:+.4f}]" if g else NA,
                f"{elo[name]:.1f} [{elo_lo[name][0]:.1f}, {elo_lo[name][1]:.1f}]",
                f"{skill[name]['mu']:.2f} [{skill[name]['lo']:.2f}, {skill[name]['hi']:.2f}]",
            ]
        )
    return Table(
        "Ratings (Bradley-Terry headline; GTE; Elo and OpenSkill baselines)",
        [
            "contestant",
            "games",
            "BT skill [95%]",
            "GTE [95%]",
            "team Elo [95%]",
            "OpenSkill mu [mu ± 1.96 sigma]",
        ],
        rows,
        f"Intervals: {bt['resamples']} resamples of the games (GTE: "
        + (
            f"the first {solved['resamples']} with every role cell"
            if solved
            else data["ratings"]["gte_note"]
        )
        + "; Elo: the first 200, each replayed in game order). OpenSkill's interval is its "
        "own posterior (mu ± 1.96 sigma after the games in order), not a resample of games. "
        "Chance: contestants who all play alike score BT 0, GTE 0, Elo 1500, OpenSkill mu 25.",
    )


def _clean(data: Mapping[str, Any]) -> Table:
    clean = data["clean"]
    rows = [
        [
            e["contestant"],
            str(e["clean_games"]),
            *cell_columns(e["voided"]),
            *cell_columns(e["skill"])[:1],
        ]
        for e in clean["skills"]
    ]
    return Table(
        "Clean-game ratings (clean_ratings.csv)",
        [
            "contestant",
            "clean games",
            "voided share [95%]",
            "games",
            "n",
            "chance",
            "BT skill over clean games [95%]",
        ],
        rows,
        f"Bradley-Terry over the {clean['games']} games in which no seat answered illegally or "
        f"fell back ({clean['voided_games']} voided), refitted on its own resamples; the voided "
        "share is of the contestant's games (Wilson interval). Illegal, fallback and second-look "
        "rates per model are in the validity table. Chance: 0 (a random player answers legally).",
    )


def _by_role(data: Mapping[str, Any]) -> Table:
    entries = data["ratings"]["bt_by_role"]
    rows = [
        [e["contestant"], e["role"], *cell_columns(e, digits=3)]
        for e in sorted(entries, key=lambda e: (e["role"], -e["value"]))
    ]
    return Table(
        "Bradley-Terry skill by role (bt_by_role.csv)",
        ["contestant", "role", "skill [95% interval]", "games", "n", "chance"],
        rows,
        f"A skill per (contestant, role), wolves' seats counting against the good camp; "
        f"intervals over the report's first {BY_ROLE_RESAMPLES} resamples of the games (a "
        "parameter per pair: wide with few games). Games: those in which the contestant held "
        "the role; n: its seats of that role. Chance: 0 (contestants who all play alike). "
        + SMALL_NOTE,
    )


def _pairs(data: Mapping[str, Any]) -> Table:
    rows = [
        [
            p["a"],
            p["b"],
            str(p["games"]),
            interval(p["bt_difference"]),
            fmt(p["p_above"]),
            interval(p["win_difference"]),
            fmt(p["win_difference"]["chance"]),
            interval(p["head_to_head"], NA_REASONS["head_to_head"]),
            str(p["head_to_head"]["games"]),
        ]
        for p in data["pairs"]
    ]
    return Table(
        "Pairs: differences with 95% intervals over games",
        [
            "A",
            "B",
            "games together",
            "BT skill A - B",
            "P(A ranks above B)",
            "win rate A - B",
            "chance",
            "A beat B (head to head)",
            "games decided",
        ],
        rows,
        HEAD_TO_HEAD_NOTE,
    )


HEAD_TO_HEAD_NOTE = (
    "Head to head and Bradley-Terry can disagree: head to head counts only the games both "
    "played whose results differed between them (often few, so its interval is wide) and "
    "ignores who else sat at the table and which camp each held, while Bradley-Terry uses "
    "every game, adjusted for the camps and the other contestants. Read head to head with "
    "its interval and games; chance is 0.5."
)


def rating_tables(data: Mapping[str, Any]) -> list[Table]:
    by_name = {m["contestant"]: m for m in data["contestants"]}
    gte = data["ratings"]["gte"]
    out = [_ratings(data), _clean(data), _by_role(data), _pairs(data)]
    if gte:
        out.append(
            Table(
                f"Game-theoretic ratings (max-entropy CE over role win rates: "
                f"{', '.join(gte['roles'])})",
                ["contestant", "games", "GTE rating", "95% interval", "equilibrium weight [95%]"],
                [[row[0], str(by_name[row[0]]["games"]), *row[1:]] for row in gte_rows(gte)],
                f"{gte['unconverged']} of {gte['resamples'] + 1} solves stopped short of the "
                "tolerance."
                if gte["unconverged"]
                else "",
            )
        )
    return out
