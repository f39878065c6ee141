"""The debate and belief metrics over many games, with intervals over games.

Each game's row holds, per seat, (numerator, denominator) pairs and the chance level's
(evaluation/debate/probes.py, evaluation/debate/beliefs.py). A contestant's value is the
ratio of its sums over games, per contestant and per (contestant, role); its interval
resamples whole games (bootstrap.py), like every interval of the report: the speeches,
ballots or rounds of one game are never counted as independent observations. Voting
entropy per day is the mean over games of each game's mean entropy after that day's
speeches.
"""

from collections.abc import Hashable, Sequence
from typing import Any

from autowerewolf.evaluation.bootstrap import (
    Cell,
    Sums,
    Values,
    bump,
    chance_ratio,
    proportion,
    ratio,
)
from autowerewolf.evaluation.debate.probes import SpeechVotes
from autowerewolf.evaluation.games.facts import GameRow

METRICS = (
    "sheriff_influence",
    "vote_swing",
    "voting_entropy",
    "voting_entropy_norm",
    "est",
    "irp_belief",
    "deception",
)
ALL_ROLES = "all"
PROBED = ("debate", "games")  # the column counting games played with probes
ENTROPY_SERIES = ("entropy", "entropy_norm")
# Entropies in bits are no shares of anything: their intervals are plain percentiles.
UNBOUNDED = frozenset({"voting_entropy"})


def _key(contestant: str, role: str, metric: str, part: str) -> tuple[str, ...]:
    return (contestant, "debate", role, metric, part)


def game_columns(row: GameRow, values: Values) -> None:
    """A game's debate columns: per contestant and role (and 'all'), each metric's
    numerator, denominator and chance parts; per day, the game's mean entropy."""
    debate = row.get("debate")
    if not debate:
        return
    values[PROBED] = 1.0
    for seat, metrics in debate["seats"].items():
        info = row["seats"][seat]
        for role in (ALL_ROLES, info["role"]):
            for metric, cell in metrics.items():
                parts = dict(zip(("num", "den", "cnum", "cden"), cell, strict=False))
                for part, amount in parts.items():
                    bump(values, _key(info["contestant"], role, metric, part), amount)
    for series in (*ENTROPY_SERIES, "entropy_chance"):
        # Rows before version 4 have the entropy only.
        by_day: dict[str, list[float | None]] = debate.get(series, {})  # type: ignore[assignment]
        for day, after in by_day.items():
            known = [h for h in after if h is not None]
            if known:
                bump(values, (series, day, "sum"), sum(known) / len(known))
                values[(series, day, "games")] = 1.0
            if series in ENTROPY_SERIES:
                for i, h in enumerate(after):
                    if h is not None:
                        bump(values, (series, day, i, "sum"), h)
                        values[(series, day, i, "games")] = 1.0


def _cell(sums: Sums, contestant: str, role: str, metric: str) -> Cell:
    chance = chance_ratio(
        sums, _key(contestant, role, metric, "cnum"), _key(contestant, role, metric, "cden")
    )
    cell = ratio if metric in UNBOUNDED else proportion
    return cell(
        sums,
        _key(contestant, role, metric, "num"),
        _key(contestant, role, metric, "den"),
        chance,
    )


def _by_day(sums: Sums, series: str) -> dict[str, dict[str, Any]]:
    days = sorted(
        {k[1] for k in sums.index if isinstance(k, tuple) and k[0] == series and len(k) == 3},
        key=int,
    )
    out: dict[str, dict[str, Any]] = {}
    for day in days:
        chance = chance_ratio(
            sums, ("entropy_chance", day, "sum"), ("entropy_chance", day, "games")
        )
        cell = ratio(sums, (series, day, "sum"), (series, day, "games"), chance)
        last = max(
            (
                k[2]
                for k in sums.index
                if isinstance(k, tuple) and len(k) == 4 and k[:2] == (series, day)
            ),
            default=-1,
        )
        by_speech = [
            ratio(sums, (series, day, i, "sum"), (series, day, i, "games")) for i in range(last + 1)
        ]
        out[day] = {**cell, "by_speech": by_speech}
    return out


def _roles(sums: Sums, contestant: str) -> list[str]:
    found: set[Hashable] = {
        k[2]
        for k in sums.index
        if isinstance(k, tuple) and len(k) == 5 and k[:2] == (contestant, "debate")
    }
    return sorted(str(r) for r in found if r != ALL_ROLES)


def summarize(sums: Sums, names: Sequence[str]) -> dict[str, Any]:
    """metrics.json's `debate` part (without the chart)."""
    contestants = {}
    for name in names:
        contestants[name] = {
            "all": {m: _cell(sums, name, ALL_ROLES, m) for m in METRICS},
            "by_role": {
                role: {m: _cell(sums, name, role, m) for m in METRICS}
                for role in _roles(sums, name)
            },
        }
    return {
        "games": int(sums.get(PROBED)[0]),
        "contestants": contestants,
        "voting_entropy_by_day": _by_day(sums, "entropy"),
        "voting_entropy_norm_by_day": _by_day(sums, "entropy_norm"),
    }


class SpeechChart:
    """The synthetic votes of one game, for the report's chart: `plot_game`, else the
    first game played with the speech_votes probe."""

    def __init__(self, plot_game: str | None = None) -> None:
        self.plot_game = plot_game
        self.series: tuple[str, dict[str, list[SpeechVotes]]] | None = None

    def add(self, row: GameRow) -> None:
        debate = row.get("debate")
        wanted = self.plot_game is None or row["game_id"] == self.plot_game
        if debate and self.series is None and wanted and debate["series"]:
            self.series = (row["game_id"], debate["series"])
