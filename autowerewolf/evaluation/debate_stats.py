"""The debate and belief metrics over many games, with bootstrap intervals.

Each game's row holds, per seat, (numerator, denominator) pairs (evaluation/debate.py,
evaluation/beliefs.py). A contestant's value is the ratio of its sums over games, per
contestant and per (contestant, role); its 95% interval is the percentile interval of the
same ratio over games resampled with replacement (games played with probes only), as the
rating intervals are (ratings.py). Voting entropy per day is the mean over games of each
game's mean entropy after that day's speeches, also bootstrapped over games.
"""

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from autowerewolf.evaluation.debate import SpeechVotes
from autowerewolf.evaluation.facts import GameRow

METRICS = ("sheriff_influence", "vote_swing", "voting_entropy", "est", "irp_belief", "deception")
ALL_ROLES = "all"
Group = tuple[str, str]  # (contestant, role or "all")


def interval(
    num: np.ndarray, den: np.ndarray, weights: np.ndarray
) -> dict[str, float | None] | None:
    """Ratio of sums with a percentile 95% interval over the resampled `weights` (one row of
    game counts per resample); None without data."""
    total = float(den.sum())
    if total == 0:
        return None
    value = float(num.sum()) / total
    boot_num, boot_den = weights @ num, weights @ den
    kept = boot_den > 0
    if not kept.any():  # no resample drew a game with data: nothing to spread
        return {"value": value, "lo": value, "hi": value, "n": total}
    lo, hi = np.percentile(boot_num[kept] / boot_den[kept], [2.5, 97.5])
    return {"value": value, "lo": float(lo), "hi": float(hi), "n": total}


def resample(games: int, resamples: int, seed: int) -> np.ndarray:
    """How often each game is drawn in each resample (resamples x games)."""
    rng = np.random.default_rng(seed)
    return rng.multinomial(games, np.full(games, 1 / games), size=resamples).astype(float)


class DebateAggregator:
    """Feed rows with `add`; keeps a few numbers per game played with probes, and the
    synthetic votes of one game for the report's chart (`plot_game`, else the first)."""

    def __init__(self, plot_game: str | None = None) -> None:
        self.plot_game = plot_game
        self.games: list[dict[Group, dict[str, list[float]]]] = []
        self.entropy: list[dict[str, list[float | None]]] = []
        self.series: tuple[str, dict[str, list[SpeechVotes]]] | None = None

    def add(self, row: GameRow) -> None:
        debate = row.get("debate")
        if not debate:
            return
        groups: dict[Group, dict[str, list[float]]] = defaultdict(dict)
        for seat, metrics in debate["seats"].items():
            info = row["seats"][seat]
            for group in ((info["contestant"], ALL_ROLES), (info["contestant"], info["role"])):
                for metric, (num, den) in metrics.items():
                    cell = groups[group].setdefault(metric, [0.0, 0.0])
                    cell[0] += num
                    cell[1] += den
        self.games.append(dict(groups))
        self.entropy.append(debate["entropy"])
        wanted = self.plot_game is None or row["game_id"] == self.plot_game
        if self.series is None and wanted and debate["series"]:
            self.series = (row["game_id"], debate["series"])

    def metrics(self, resamples: int, seed: int) -> dict[Group, dict[str, Any]]:
        """Every (contestant, role) group's six metrics: an interval dict or None."""
        if not self.games:
            return {}
        weights = resample(len(self.games), resamples, seed)
        groups = sorted({g for game in self.games for g in game})
        out: dict[Group, dict[str, Any]] = {}
        for group in groups:
            cells = [game.get(group, {}) for game in self.games]
            out[group] = {}
            for metric in METRICS:
                num = np.array([c.get(metric, (0.0, 0.0))[0] for c in cells])
                den = np.array([c.get(metric, (0.0, 0.0))[1] for c in cells])
                out[group][metric] = interval(num, den, weights)
        return out

    def entropy_by_day(self, resamples: int, seed: int) -> dict[str, dict[str, Any]]:
        """Per day: the mean over games of their mean entropy, its interval, the number of
        games, and the mean entropy after the day's 1st, 2nd, ... speech."""
        days = sorted({d for game in self.entropy for d in game}, key=int)
        out: dict[str, dict[str, Any]] = {}
        for day in days:
            per_game = [_mean(game.get(day, [])) for game in self.entropy]
            values = np.array([v for v in per_game if v is not None])
            if not len(values):
                continue
            weights = resample(len(values), resamples, seed)
            cell = interval(values, np.ones(len(values)), weights)
            assert cell is not None
            longest = max(len(game.get(day, [])) for game in self.entropy)
            by_speech = [
                _mean([g[day][i] for g in self.entropy if len(g.get(day, [])) > i])
                for i in range(longest)
            ]
            out[day] = {**cell, "games": len(values), "by_speech": by_speech}
        return out


def _mean(values: Sequence[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else None


def by_contestant(
    results: Mapping[Group, dict[str, Any]], contestant: str
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """A contestant's six metrics over all its seats, and per role."""
    overall = results.get((contestant, ALL_ROLES), dict.fromkeys(METRICS))
    roles = {r: v for (c, r), v in sorted(results.items()) if c == contestant and r != ALL_ROLES}
    return overall, roles
