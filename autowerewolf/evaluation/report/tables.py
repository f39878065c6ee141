"""The report's tables: (title, header, rows, note) of formatted cells, shared by its HTML
and Markdown. Every number sits beside its 95% interval over games, the games it comes
from, its n (the opportunities it counts) and its chance level; a metric without data
says why."""

from collections.abc import Iterable, Mapping
from typing import Any

from autowerewolf.evaluation.report.cells import (
    CELL_HEADER,
    NA_REASONS,
    NO_CHANCE,
    Table,
    cell_columns,
    counted,
    fmt,
    interval,
)
from autowerewolf.evaluation.report.designs import HEADLINE_BLUNDERS
from autowerewolf.evaluation.report.metrics import KPI_NAMES
from autowerewolf.evaluation.report.rating_tables import rating_tables
from autowerewolf.evaluation.report.validity import ALL_STEPS, RATES

OUT_OF_CHARACTER_NOTE = (
    "Speeches out of character: an LLM seat's speeches and wolf messages that apologise, "
    "copy the prompt or report what the seat never saw (Definitions below), counted as "
    "x/y (share) [95% interval over games], n: its texts. Chance: - (a random player writes "
    "no text)."
)


def _long(
    names: Iterable[str],
    by_name: Mapping[str, Mapping[str, Any]],
    metrics: Iterable[tuple[str, str, Any, str]],
) -> list[list[str]]:
    """Rows (label, contestant, cell columns) for each metric and contestant: `metrics`
    gives (label, reason, getter of the cell from a contestant's entry, digits)."""
    names = list(names)
    rows = []
    for label, reason, get, digits in metrics:
        for n in names:
            rows.append([label, n, *cell_columns(get(by_name[n]), reason, int(digits))])
    return rows


def _long_table(title: str, rows: list[list[str]], note: str) -> Table:
    """A table of `_long` rows: (metric, contestant, cell columns)."""
    return Table(title, ["metric", "contestant", *CELL_HEADER], rows, note)


def _outcomes(names: list[str], by_name: Mapping[str, Any]) -> Table:
    roles = sorted({r for m in by_name.values() for r in m["win_by_role"]})
    survival_roles = sorted({r for m in by_name.values() for r in m["survival_by_role"]})
    metrics: list[tuple[str, str, Any, str]] = [
        ("win rate", NA_REASONS["win"], lambda m: m["win"], "3"),
        (
            "balanced win rate",
            NA_REASONS["balanced_win_rate"],
            lambda m: m["balanced_win_rate"],
            "3",
        ),
        ("win rate as good", "never in the good camp", lambda m: m["win_by_camp"].get("good"), "3"),
        ("win rate as wolf", "never a wolf", lambda m: m["win_by_camp"].get("wolf"), "3"),
    ]
    metrics += [
        (f"win rate as {r}", f"never the {r}", lambda m, r=r: m["win_by_role"].get(r), "3")
        for r in roles
    ]
    metrics.append(
        (
            "key-role survival",
            NA_REASONS["key_role_survival"],
            lambda m: m["key_role_survival"],
            "3",
        )
    )
    metrics += [
        (f"survival as {r}", f"never the {r}", lambda m, r=r: m["survival_by_role"].get(r), "3")
        for r in survival_roles
    ]
    return _long_table(
        "Outcomes: win rates and survival",
        _long(names, by_name, metrics),
        "Win rates: Wilson 95% intervals with one outcome per game (per role: per game the "
        "contestant held it). Chance: the rate of the same camp (role) over every game here, "
        "what a contestant without influence on its seats' fate would get.",
    )


def _voting_and_roles(names: list[str], by_name: Mapping[str, Any]) -> Table:
    metrics: list[tuple[str, str, Any, str]] = [
        (label, NA_REASONS[key], lambda m, key=key: m[key], "3")
        for label, key in (
            ("IRP (ballots)", "irp_ballot"),
            ("VSS (ballots)", "vss_ballot"),
            ("IRP (games)", "irp_game"),
            ("VSS (games)", "vss_game"),
        )
    ]
    metrics += [
        (f"{role} KPI", NA_REASONS[f"kpi_{role}"], lambda m, r=role: m["role_kpi"][r], "3")
        for role in KPI_NAMES
    ]
    return _long_table(
        "Voting and role KPIs",
        _long(names, by_name, metrics),
        "Chance: a uniformly random choice among the same decisions' legal options (the "
        "werewolf KPI, an outcome: wolves' survival over every game here).",
    )


def _blunders(names: list[str], by_name: Mapping[str, Any]) -> Table:
    metrics = [
        m
        for m in next(iter(by_name.values()))["blunders"]
        if any(by_name[n]["blunders"][m]["n"] for n in names)
    ]
    rows = _long(
        names,
        by_name,
        [(m, NA_REASONS["blunders"], lambda e, m=m: e["blunders"][m], "3") for m in metrics],
    )
    return _long_table(
        "Blunders (every player kind; docs/blunders.md)",
        rows,
        "Rates: blunders / opportunities. Chance: the blunder rate of a uniformly random "
        "choice among the legal options of the same decisions. Metrics without any "
        "opportunity in these games are left out.",
    )


def _validity_and_cost(names: list[str], by_name: Mapping[str, Any]) -> Table:
    per_decision = NA_REASONS["per_decision"]
    answers: list[tuple[str, str, Any, str]] = [
        ("illegal first answer rate", per_decision, lambda m: m["illegal_rate"], "4"),
        ("fallback rate", per_decision, lambda m: m["fallback_rate"], "4"),
        ("invalid rate", per_decision, lambda m: m["invalid_rate"], "4"),
        ("second look rate", per_decision, lambda m: m["second_look_rate"], "4"),
        ("timeout rate", per_decision, lambda m: m["timeout_rate"], "4"),
    ]
    speeches = [
        [
            "speeches out of character",
            n,
            counted(by_name[n]["out_of_character"], NA_REASONS["out_of_character"]),
            *cell_columns(by_name[n]["out_of_character"])[1:3],
            NO_CHANCE,
        ]
        for n in names
    ]
    metrics: list[tuple[str, str, Any, str]] = [
        ("tokens per game", "", lambda m: m["tokens_per_game"], "0"),
        ("cost USD per game", "", lambda m: m["cost_usd_per_game"], "4"),
        ("latency s per game", "", lambda m: m["latency_s_per_game"], "2"),
        ("probe calls per game (apart)", "", lambda m: m["probe_calls_per_game"], "1"),
        ("probe tokens per game (apart)", "", lambda m: m["probe_tokens_per_game"], "0"),
        ("probe cost USD per game (apart)", "", lambda m: m["probe_cost_usd_per_game"], "4"),
    ]
    unpriced = [n for n in names if not by_name[n]["cost_complete"]]
    note = (
        "Chance: 0 (a random player answers legally and calls no model). " + OUT_OF_CHARACTER_NOTE
    )
    if unpriced:
        note += f" Unpriced models (cost counts 0 for them): {', '.join(unpriced)}."
    return _long_table(
        "Validity and cost",
        _long(names, by_name, answers) + speeches + _long(names, by_name, metrics),
        note,
    )


def _designs(data: Mapping[str, Any]) -> Table:
    rows = [
        [
            d["model"],
            d["agent"],
            *cell_columns(d["win"]),
            interval(d["win_by_camp"].get("wolf"), "never a wolf"),
            interval(d["win_by_camp"].get("good"), "never good"),
            f"{interval(d['est'], 'no role estimates of its seats')} "
            f"(chance {fmt(d['est']['chance'])})",
            f"{counted(d['out_of_character'], NA_REASONS['out_of_character'])} "
            f"(chance {NO_CHANCE})",
            *[
                f"{interval(d['blunders'].get(m), NA_REASONS['blunders'])} "
                f"(chance {fmt((d['blunders'].get(m) or {}).get('chance'))})"
                for m in HEADLINE_BLUNDERS
            ],
        ]
        for d in data["designs"]
    ]
    return Table(
        "Agent designs (LLM seats, per model and design)",
        [
            "model",
            "agent",
            "win rate [95%] (teams)",
            "games",
            "teams",
            "chance",
            "as wolf",
            "as good",
            "Est",
            "out of character",
            *[f"blunders: {m}" for m in HEADLINE_BLUNDERS],
        ],
        rows,
        "A team is a design's seats of one camp in one game. Intervals resample games. "
        + OUT_OF_CHARACTER_NOTE,
    )


def _shown(entry: Mapping[str, Any]) -> bool:
    """A row of the validity table worth a line: every player's total, and the steps of a
    player that ever answered illegally, fell back, looked twice or timed out."""
    return entry["step"] == ALL_STEPS or any(entry[r]["value"] for r in RATES.values())


def _validity(data: Mapping[str, Any]) -> Table:
    rows = [
        [
            v["player"],
            v["step"],
            str(v["games"]),
            str(v["decisions"]),
            *(interval(v[rate], digits=4) for rate in RATES.values()),
            str(v.get("step_downs", 0)),
        ]
        for v in data["validity"]
        if _shown(v)
    ]
    return Table(
        "Illegal answers, fallbacks, second looks and timeouts per player and decision type",
        [
            "player (model or kind)",
            "decision",
            "games",
            "decisions",
            "illegal first answer",
            "fallback",
            "second look",
            "timeout",
            "format step-downs",
        ],
        rows,
        "Illegal first answer: the first answer was not a legal choice (re-prompted or "
        "replaced); fallback: replaced by a seeded random legal choice; second look: asked "
        "again after a legal answer against its own side (docs/agents.md); timeout: an attempt "
        "got no answer by its deadline (a model call retried, an agent given a fallback); "
        "format step-downs: "
        "times the model's server refused its answer schema and it was asked in a looser "
        "format (docs/reliability.md). Chance: 0. "
        "Decision types without any are left out here (validity.csv has every one).",
    )


def tables(data: dict[str, Any]) -> list[Table]:
    bt = data["ratings"]["bradley_terry"]
    names = [s["contestant"] for s in sorted(bt["skills"], key=lambda s: -s["skill"])]
    by_name = {m["contestant"]: m for m in data["contestants"]}
    out = rating_tables(data)
    out += [
        _outcomes(names, by_name),
        _voting_and_roles(names, by_name),
        _blunders(names, by_name),
        _validity_and_cost(names, by_name),
        _validity(data),
    ]
    if data["designs"]:
        out.append(_designs(data))
    return out
