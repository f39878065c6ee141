"""Pairwise comparisons of contestants, each with an interval over games: the difference
of their Bradley-Terry skills, P(A ranks above B), the difference of their win rates, and
head to head. All come from the report's one set of resamples (bootstrap.py), so a
difference is resampled jointly, game by game: the interval of a difference is not the
two intervals side by side. Two contestants who play alike should see 0 (0.5 for head to
head) inside each interval in 95% of tournaments."""

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from autowerewolf.evaluation.bootstrap import Sums, divide, from_samples, proportion
from autowerewolf.evaluation.ratings.outcomes import BTResult


def pair_table(
    names: Sequence[str], sums: Sums, bt: BTResult, metrics: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """One entry per pair (A ranked above B by Bradley-Terry)."""
    ranked = sorted(names, key=lambda n: -bt.skill[bt.names.index(n)])
    games = sums.games_with(("*", "games"))
    out = []
    for a, b in combinations(ranked, 2):
        i, j = bt.names.index(a), bt.names.index(b)
        together = sums.games_with((a, "with", b))
        win_a, win_b = metrics[a]["win"], metrics[b]["win"]
        boot_win = divide(sums.get((a, "win"))[1], sums.get((a, "games"))[1]) - divide(
            sums.get((b, "win"))[1], sums.get((b, "games"))[1]
        )
        chance = None
        if win_a["chance"] is not None and win_b["chance"] is not None:
            chance = win_a["chance"] - win_b["chance"]
        win_difference = None
        if win_a["value"] is not None and win_b["value"] is not None:
            win_difference = win_a["value"] - win_b["value"]
        out.append(
            {
                "a": a,
                "b": b,
                "games": together,
                "bt_difference": from_samples(
                    float(bt.skill[i] - bt.skill[j]),
                    bt.boot[:, i] - bt.boot[:, j],
                    games,
                    games,
                    0.0,
                ),
                "p_above": float(bt.p_above[i, j]),
                "win_difference": from_samples(
                    win_difference, boot_win, win_a["n"] + win_b["n"], games, chance
                ),
                "head_to_head": proportion(sums, (a, "h2h", b), (a, "h2h_games", b), 0.5),
            }
        )
    return out
