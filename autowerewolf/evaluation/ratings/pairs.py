"""Pairwise comparisons of contestants, each with an interval over games: the difference
of their Bradley-Terry skills, P(A ranks above B), the difference of their win rates, and
head to head. All come from the report's one set of resamples (bootstrap.py), so a
difference is resampled jointly, game by game: the interval of a difference is not the
two intervals side by side. Two contestants who play alike should see 0 (0.5 for head to
head) inside each interval in 95% of tournaments.

The games of a schedule's block share a deal and a seed (schedule.py): `paired_table`
resamples whole blocks, so each pair's win-rate difference is paired within deals (the
luck of a deal cancels out), and sets its variance beside that of resampling games as if
they were independent: their ratio is the variance reduction the shared deals bought."""

from collections.abc import Hashable, Mapping, Sequence
from itertools import combinations
from typing import Any, TypedDict

import numpy as np

from autowerewolf.evaluation.bootstrap import (
    Cell,
    GameTable,
    Resamples,
    Sums,
    divide,
    from_samples,
    proportion,
)
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


# Below it a paired variance is rounding: deterministic players in identical blocks cancel
# exactly, and the ratio would be a float's noise.
TINY_VARIANCE = 1e-12


class PairedDifference(TypedDict):
    """One pair's win-rate difference (A minus B) over the games both played, with its
    interval from resampling games (`unpaired`) and from resampling blocks (`paired`)."""

    a: str
    b: str
    games: int
    blocks: int
    unpaired: Cell
    paired: Cell
    variance_reduction: float | None  # unpaired variance over paired (None: paired is 0)


def block_numbers(blocks: Sequence[Hashable]) -> tuple[int, ...]:
    """Each game's block as a number from 0, in order of first appearance."""
    index: dict[Hashable, int] = {}
    return tuple(index.setdefault(b, len(index)) for b in blocks)


def paired_differences(
    names: Sequence[str],
    wins: np.ndarray,
    played: np.ndarray,
    blocks: Sequence[Hashable],
    count: int,
    seed: int,
) -> list[PairedDifference]:
    """Every pair of `names` (in that order): `wins[g, c]` is contestant c's score in game
    g (the share of its seats that won), `played[g, c]` 1 where c sat in game g, and
    `blocks[g]` the game's block (games sharing a deal)."""
    out: list[PairedDifference] = []
    for i, j in combinations(range(len(names)), 2):
        both = (played[:, i] > 0) & (played[:, j] > 0)
        games = int(both.sum())
        if games == 0:
            continue
        columns = np.column_stack([wins[both, i], wins[both, j]])
        kept = block_numbers([b for b, keep in zip(blocks, both, strict=True) if keep])
        value = float(columns[:, 0].mean() - columns[:, 1].mean())
        spreads = {}
        for kind, draws in (
            ("unpaired", Resamples(games, count, seed)),
            ("paired", Resamples(games, count, seed, blocks=kept)),
        ):
            weights = np.vstack(list(draws.chunks()))
            totals = weights @ columns
            drawn = weights.sum(axis=1)
            spreads[kind] = divide(totals[:, 0] - totals[:, 1], drawn)
        unpaired_var, paired_var = (float(np.nanvar(spreads[k])) for k in spreads)
        out.append(
            PairedDifference(
                a=names[i],
                b=names[j],
                games=games,
                blocks=max(kept) + 1,
                unpaired=from_samples(value, spreads["unpaired"], games, games, 0.0),
                paired=from_samples(value, spreads["paired"], games, games, 0.0),
                variance_reduction=(
                    unpaired_var / paired_var if paired_var > TINY_VARIANCE else None
                ),
            )
        )
    return out


def paired_table(
    names: Sequence[str], table: GameTable, blocks: Sequence[Hashable], count: int, seed: int
) -> list[PairedDifference]:
    """`paired_differences` of the report's games: its `(name, "win")` and
    `(name, "games")` columns, and each game's block (its seed)."""
    matrix = table.matrix()

    def column(key: Hashable) -> np.ndarray:
        i = table.index.get(key)
        return np.zeros(table.games) if i is None else matrix[:, i]

    wins = np.column_stack([column((n, "win")) for n in names])
    played = np.column_stack([column((n, "games")) for n in names])
    return paired_differences(names, wins, played, blocks, count, seed)
