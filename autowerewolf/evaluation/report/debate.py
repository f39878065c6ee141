"""The report's debate section: the debate and belief metrics per contestant and per role,
voting entropy by day, and the synthetic votes after each speech of one game."""

from typing import Any

from autowerewolf.evaluation.debate.stats import METRICS, SpeechChart
from autowerewolf.evaluation.report import plots
from autowerewolf.evaluation.report.cells import (
    CELL_COLUMNS,
    CELL_HEADER,
    Table,
    cell_columns,
    cell_values,
    interval,
)

NEEDS = "games played with probes: --probes pre_vote,speech_votes,role_estimates"
DEFINITIONS = {
    "sheriff_influence": "WereWolf-Plus: on days the sheriff sums up, the share of the other "
    "voters whose final ballot differs from their pre_vote and names the sheriff's own ballot",
    "vote_swing": "per speech naming a seat, the share of polled voters whose synthetic vote "
    "moved onto that seat; mean over the contestant's speeches",
    "voting_entropy": "Werewolf Arena: entropy (bits) of the synthetic votes after each of the "
    "contestant's speeches; lower = more consensus",
    "voting_entropy_norm": "voting entropy divided by log2 of the number of seats the voters "
    "could name (1 = votes spread evenly), so that later days with fewer living seats compare",
    "est": "Strategy Adaptation: Est_j, the mean over observers of the likelihood they give "
    "seat j's true role (e^R_j / sum_R e^R); how well the table reads the contestant",
    "irp_belief": "share of the contestant's good-camp role estimates whose top wolf suspect "
    "is a wolf",
    "deception": "for its wolves: 1 - the mean werewolf likelihood good-camp observers give them",
}
# Why a contestant's debate metric is n/a although it played games with probes.
NA_REASONS = {
    "sheriff_influence": "never a sheriff summing up before a vote (pre_vote probe)",
    "vote_swing": "none of its speeches named another seat after a polled speech "
    "(speech_votes probe)",
    "voting_entropy": "no speech of its followed by synthetic votes naming anyone "
    "(speech_votes probe)",
    "voting_entropy_norm": "no speech of its followed by synthetic votes naming anyone "
    "(speech_votes probe)",
    "est": "never rated in a round of role estimates (role_estimates probe)",
    "irp_belief": "no role estimate of its while in the good camp (role_estimates probe)",
    "deception": "no wolf of its rated by a good-camp observer (role_estimates probe)",
}


def merge(metrics: list[dict[str, Any]], debate: dict[str, Any]) -> None:
    """Each contestant's entry gets its debate metrics (cells; n/a without data) and, per
    role, the same."""
    for m in metrics:
        mine = debate["contestants"][m["contestant"]]
        m.update(mine["all"])
        m["debate_by_role"] = mine["by_role"]


def tables(debate: dict[str, Any]) -> list[Table]:
    if not debate["games"]:
        return []
    contestants = debate["contestants"]
    overall = [
        [metric, name, *cell_columns(c["all"][metric], NA_REASONS[metric])]
        for metric in METRICS
        for name, c in contestants.items()
    ]
    by_role = [
        [metric, name, role, *cell_columns(values[metric], NA_REASONS[metric])]
        for metric in METRICS
        for name, c in contestants.items()
        for role, values in c["by_role"].items()
    ]
    norm = debate["voting_entropy_norm_by_day"]
    entropy = [
        [
            day,
            *cell_columns(v),
            interval(norm.get(day)),
            " ".join("-" if h["value"] is None else f"{h['value']:.2f}" for h in v["by_speech"]),
        ]
        for day, v in debate["voting_entropy_by_day"].items()
    ]
    return [
        Table(
            f"Debate and beliefs ({debate['games']} games with probes)",
            ["metric", "contestant", *CELL_HEADER],
            overall,
            "Intervals resample whole games; n counts the metric's opportunities (voters, "
            "speeches or estimate rounds). Chance: what answers drawn uniformly among the "
            "legal options (estimates: ratings drawn uniformly 0-4) would score.",
        ),
        Table(
            "Debate and beliefs by role",
            ["metric", "contestant", "role", *CELL_HEADER],
            by_role,
        ),
        Table(
            "Voting entropy by day (mean over games of each game's mean after the day's speeches)",
            ["day", *CELL_HEADER, "normalised [95%]", "after speech 1, 2, ..."],
            entropy,
            "Entropy falls as the living (and the seats to name) get fewer: compare days on "
            "the normalised column. Chance: the expected entropy of random voters.",
        ),
    ]


def figures(chart: SpeechChart) -> dict[str, tuple[str, str]]:
    """The debate chart, if a game with synthetic votes was found: key -> (title, image)."""
    if chart.series is None:
        return {}
    game_id, days = chart.series
    title = f"Synthetic votes after each speech, game {game_id}"
    return {"speech_votes": (title, plots.speech_votes(game_id, days))}


def csv_rows(debate: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    """debate.csv: one row per contestant, role ('all' for every seat) and metric."""
    rows = []
    for name, c in debate["contestants"].items():
        for role, values in [("all", c["all"]), *c["by_role"].items()]:
            for metric in METRICS:
                v = values[metric]
                rows.append([name, role, metric, *cell_values(v)])
    return ["contestant", "role", "metric", *CELL_COLUMNS], rows
