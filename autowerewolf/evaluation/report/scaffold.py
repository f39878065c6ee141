"""Scaffold baselines: beside every metric of an LLM contestant, what a uniformly random
answerer scores through that contestant's harness.

Chance is the wrong null for an LLM seat: its scaffolding (the second look, menus that
always hold `abstain`, structured speech) moves a random answerer's numbers by itself. The
tournament plays each LLM contestant's scaffold twin (schedule.py `scaffold_plan`) in
games where it holds every seat; here those games are scored with the same metrics, over
their own resamples, and each of the contestant's cells gets the twin's value, interval
and games (cells.py's scaffold fields).
"""

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from autowerewolf.evaluation.bootstrap import Resamples, Sums
from autowerewolf.evaluation.debate.stats import summarize as summarize_debate
from autowerewolf.evaluation.games.facts import GameRow
from autowerewolf.evaluation.report import debate as debate_report
from autowerewolf.evaluation.report.metrics import Aggregator, Base, contestant_metrics

# A twin plays only itself: it meets no other contestant.
NOT_COMPARED = frozenset({"head_to_head"})


def scaffold_metrics(
    rows: Iterable[GameRow], names: Sequence[str], resamples: int, seed: int
) -> dict[str, dict[str, Any]]:
    """Each of `names` with scaffold games among `rows`: its twin's metrics."""
    agg = Aggregator()
    for row in rows:
        agg.add(row)
    found = [n for n in names if n in agg.contestants]
    if not found:
        return {}
    sums = Sums(agg.table, Resamples(agg.table.games, resamples, seed))
    base = Base.of(sums)
    metrics = [contestant_metrics(n, sums, base) for n in found]
    debate_report.merge(metrics, summarize_debate(sums, found))
    return {m["contestant"]: m for m in metrics}


def _is_cell(value: Any) -> bool:
    return isinstance(value, dict) and "value" in value and "n" in value


def attach(metrics: dict[str, Any], baseline: Mapping[str, Any]) -> None:
    """Give every cell of `metrics` the scaffold fields of the same cell in `baseline`
    (no value where the twin had no data for it)."""
    for key, value in metrics.items():
        if key in NOT_COMPARED:
            continue
        twin = baseline.get(key)
        if _is_cell(value):
            found: Mapping[str, Any] = twin if isinstance(twin, dict) and _is_cell(twin) else {}
            have = found.get("value") is not None
            value["scaffold"] = found["value"] if have else None
            value["scaffold_lo"] = found["lo"] if have else None
            value["scaffold_hi"] = found["hi"] if have else None
            value["scaffold_games"] = int(found["games"]) if have else 0
        elif isinstance(value, dict):
            attach(value, twin if isinstance(twin, Mapping) else {})
