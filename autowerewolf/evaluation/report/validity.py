"""Illegal answers, fallbacks, second looks and timeouts per player and decision type: the
report's table of how often each model (or, for seats without one, each player kind:
random, heuristic, scripted, human) answered a step illegally at first, fell back to a
seeded random choice, was asked again (docs/agents.md, "A second look"), or had an attempt
time out (a model call retried after its deadline, an agent past its deadline), with
intervals over games. Kaggle Game Arena and pavlukhinlab's arena show these per model.

A rule-based player only answers legally: its rates are 0, which is what a uniformly
random player scores too (the chance level of each rate).
"""

from typing import Any

from autowerewolf.evaluation.bootstrap import Sums, Values, proportion
from autowerewolf.evaluation.games.facts import GameRow, SeatRow

CALLS = "calls"
ALL_STEPS = "all decisions"
PARTS = ("decisions", "illegal", "fallbacks", "second_looks", "timeouts")
STEP_DOWNS = "step_downs"
RATES = {
    "illegal": "illegal_rate",
    "fallbacks": "fallback_rate",
    "second_looks": "second_look_rate",
    "timeouts": "timeout_rate",
}


def player_label(seat: SeatRow) -> str:
    """The model that answered, or the seat's player kind."""
    return seat.get("model") or seat["kind"]


def step_counts(seat: SeatRow) -> dict[str, list[int]]:
    """The seat's counts per step, one per part of PARTS. Rows saved before a part was
    counted have fewer parts: none of it was seen."""
    return {
        step: [*given, *[0] * (len(PARTS) - len(given))]
        for step, given in seat.get("steps", {}).items()
    }


def game_columns(row: GameRow, values: Values) -> None:
    totals: dict[tuple[str, str], list[int]] = {}
    for seat in row["seats"].values():
        label = player_label(seat)
        for step, counts in step_counts(seat).items():
            total = totals.get((label, step))
            if total is None:
                totals[(label, step)] = list(counts)
            else:
                for i, amount in enumerate(counts):
                    total[i] += amount
    for label in {label for label, _ in totals}:
        mine = [c for (owner, _), c in totals.items() if owner == label]
        totals[(label, ALL_STEPS)] = [sum(c[i] for c in mine) for i in range(len(PARTS))]
    for (label, step), counts in totals.items():
        values[(CALLS, label, step, "games")] = 1.0
        for part, amount in zip(PARTS, counts, strict=True):
            if amount:
                values[(CALLS, label, step, part)] = float(amount)
    for seat in row["seats"].values():
        # The model's answer format stepped down (backends/answer_format.py): a fact of the
        # model, counted over all its decisions.
        if seat.get("step_downs"):
            key = (CALLS, player_label(seat), ALL_STEPS, STEP_DOWNS)
            values[key] = values.get(key, 0.0) + seat["step_downs"]


def validity_table(sums: Sums) -> list[dict[str, Any]]:
    """One entry per (player, step), and per player over all its decisions: decisions and
    each rate as a cell."""
    pairs = sorted(
        {k[1:3] for k in sums.index if isinstance(k, tuple) and k[0] == CALLS and k[3] == "games"},
        key=lambda pair: (pair[0], pair[1] != ALL_STEPS, pair[1]),
    )
    table = []
    for label, step in pairs:
        key = (CALLS, label, step)
        entry: dict[str, Any] = {
            "player": label,
            "step": step,
            "decisions": int(sums.get((*key, "decisions"))[0]),
            "games": sums.games_with((*key, "games")),
            STEP_DOWNS: int(sums.get((*key, STEP_DOWNS))[0]),
        }
        for part, name in RATES.items():
            entry[name] = proportion(sums, (*key, part), (*key, "decisions"), 0.0)
        table.append(entry)
    return table
