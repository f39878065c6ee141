"""The report's debate section: the debate and belief metrics per contestant and per role,
voting entropy by day, and the synthetic votes after each speech of one game."""

from collections.abc import Sequence
from typing import Any

from autowerewolf.evaluation import plots
from autowerewolf.evaluation.debate_stats import METRICS, DebateAggregator, by_contestant

DEFINITIONS = {
    "sheriff_influence": "WereWolf-Plus: on days the sheriff sums up, the share of the other "
    "voters whose final ballot differs from their pre_vote and names the sheriff's own ballot",
    "vote_swing": "per speech naming a seat, the share of polled voters whose synthetic vote "
    "moved onto that seat; mean over the contestant's speeches",
    "voting_entropy": "Werewolf Arena: entropy (bits) of the synthetic votes after each of the "
    "contestant's speeches; lower = more consensus",
    "est": "Strategy Adaptation: Est_j, the mean over observers of the likelihood they give "
    "seat j's true role (e^R_j / sum_R e^R); how well the table reads the contestant",
    "irp_belief": "share of the contestant's good-camp role estimates whose top wolf suspect "
    "is a wolf",
    "deception": "for its wolves: 1 - the mean werewolf likelihood good-camp observers give them",
}
CELL_DIGITS = 3


def summarize(
    agg: DebateAggregator, names: Sequence[str], resamples: int, seed: int
) -> dict[str, Any]:
    """metrics.json's `debate` part."""
    results = agg.metrics(resamples, seed)
    contestants = {}
    for name in names:
        overall, roles = by_contestant(results, name)
        contestants[name] = {"all": overall, "by_role": roles}
    return {
        "games": len(agg.games),
        "contestants": contestants,
        "voting_entropy_by_day": agg.entropy_by_day(resamples, seed),
        "plot_game": agg.series[0] if agg.series else None,
        "definitions": DEFINITIONS,
    }


def merge(metrics: list[dict[str, Any]], debate: dict[str, Any]) -> None:
    """Each contestant's entry gets its six metrics (None without data) and, per role,
    the same six."""
    for m in metrics:
        mine = debate["contestants"].get(m["contestant"], {})
        m.update(mine.get("all", dict.fromkeys(METRICS)))
        m["debate_by_role"] = mine.get("by_role", {})


def cell(value: dict[str, Any] | None) -> str:
    if value is None:
        return "n/a"
    v, lo, hi = (f"{value[k]:.{CELL_DIGITS}f}" for k in ("value", "lo", "hi"))
    return f"{v} [{lo}, {hi}] (n={value['n']:g})"


def tables(debate: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    if not debate["games"]:
        return []
    contestants = debate["contestants"]
    overall = [[n, *(cell(c["all"][m]) for m in METRICS)] for n, c in contestants.items()]
    by_role = [
        [n, role, *(cell(values[m]) for m in METRICS)]
        for n, c in contestants.items()
        for role, values in c["by_role"].items()
    ]
    entropy = [
        [
            day,
            cell({**v, "n": v["games"]}),
            " ".join("-" if h is None else f"{h:.2f}" for h in v["by_speech"]),
        ]
        for day, v in debate["voting_entropy_by_day"].items()
    ]
    return [
        (
            f"Debate and beliefs ({debate['games']} games with probes; 95% bootstrap intervals)",
            ["contestant", *METRICS],
            overall,
        ),
        ("Debate and beliefs by role", ["contestant", "role", *METRICS], by_role),
        (
            "Voting entropy by day (mean over games; then after each speech)",
            ["day", "entropy [95%]", "after speech 1, 2, ..."],
            entropy,
        ),
    ]


def figures(agg: DebateAggregator) -> dict[str, tuple[str, str]]:
    """The debate chart, if a game with synthetic votes was found: key -> (title, image)."""
    if agg.series is None:
        return {}
    game_id, days = agg.series
    title = f"Synthetic votes after each speech, game {game_id}"
    return {"speech_votes": (title, plots.speech_votes(game_id, days))}


def csv_rows(debate: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    """debate.csv: one row per contestant, role ('all' for every seat) and metric."""
    rows = []
    for name, c in debate["contestants"].items():
        for role, values in [("all", c["all"]), *c["by_role"].items()]:
            for metric in METRICS:
                v = values[metric] or {}
                rows.append(
                    [name, role, metric, v.get("value"), v.get("lo"), v.get("hi"), v.get("n")]
                )
    return ["contestant", "role", "metric", "value", "lo", "hi", "n"], rows
