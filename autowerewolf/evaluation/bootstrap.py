"""Intervals over games: the report's one resampling scheme.

Observations inside one game are not independent (one confused wolf makes several
errors; eleven ballots of one day follow the same speeches), so every interval of the
report resamples whole games: a cluster bootstrap. Each game contributes a few numbers per
metric (numerator, denominator, the chance level's numerator), stored as one row of a
games x columns table; a resample is a vector of game counts (each game drawn 0, 1, 2...
times), and every metric of every contestant is recomputed from the same resamples by one
matrix product, so differences between contestants are resampled jointly too.

Percentile intervals (2.5% and 97.5% of the resampled values); a resample in which a
metric has no data (no game with an opportunity was drawn) does not count for it.
"""

import math
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass
from typing import TypedDict

import numpy as np

CHUNK = 100  # resamples per matrix product: bounds the weights held at once
Z95 = 1.959963984540054
Values = dict[Hashable, float]  # one game's numbers, by column


def bump(values: Values, key: Hashable, amount: float) -> None:
    """Add `amount` to a game's column (zeros are not stored)."""
    if amount:
        values[key] = values.get(key, 0.0) + amount


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion; (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # Rounding must not leave the observed rate outside its interval (0 of n, n of n).
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


class Cell(TypedDict):
    """One number of the report: its value, 95% interval over games, the opportunities it
    counts (n), the games that had any, and the chance level beside it."""

    value: float | None
    lo: float | None
    hi: float | None
    n: float
    games: int
    chance: float | None


def widened(cell: Cell) -> Cell:
    """The cell's interval widened to the Wilson interval of its count where that is wider.

    With a few games the percentile bootstrap is too narrow, and where every game gave the
    same rate (0 blunders in each) it has no width at all; the Wilson interval treats the
    decisions as independent, too narrow where they cluster, but not empty at 0 of n."""
    if cell["value"] is None or cell["lo"] is None or cell["hi"] is None:
        return cell
    lo, hi = wilson(cell["value"] * cell["n"], cell["n"])
    return Cell(**{**cell, "lo": min(lo, cell["lo"]), "hi": max(hi, cell["hi"])})


def empty(chance: float | None = None) -> Cell:
    return Cell(value=None, lo=None, hi=None, n=0, games=0, chance=chance)


@dataclass(frozen=True)
class Resamples:
    """`count` resamples of `games` games, drawn from `seed`: the same in every run."""

    games: int
    count: int
    seed: int

    def chunks(self) -> Iterator[np.ndarray]:
        """Blocks of [resamples, games] draw counts, in a fixed order."""
        rng = np.random.default_rng(self.seed)
        done = 0
        while done < self.count and self.games:
            size = min(CHUNK, self.count - done)
            picks = rng.integers(0, self.games, size=(size, self.games))
            offsets = np.arange(size)[:, None] * self.games
            flat = np.bincount((picks + offsets).ravel(), minlength=size * self.games)
            yield flat.reshape(size, self.games).astype(float)
            done += size

    def first(self, count: int) -> np.ndarray:
        """The first `count` resamples as one [count, games] block."""
        blocks, have = [], 0
        for block in self.chunks():
            blocks.append(block[: count - have])
            have += len(blocks[-1])
            if have >= count:
                break
        return np.vstack(blocks) if blocks else np.zeros((0, self.games))


class GameTable:
    """Per-game values of named columns (any hashable key), added one game at a time."""

    def __init__(self) -> None:
        self.index: dict[Hashable, int] = {}
        self._games: list[tuple[np.ndarray, np.ndarray]] = []

    def add(self, values: Mapping[Hashable, float]) -> None:
        columns = np.fromiter(
            (self.index.setdefault(k, len(self.index)) for k in values), np.int64, len(values)
        )
        self._games.append((columns, np.fromiter(values.values(), float, len(values))))

    @property
    def games(self) -> int:
        return len(self._games)

    def matrix(self) -> np.ndarray:
        out = np.zeros((len(self._games), len(self.index)))
        for g, (columns, values) in enumerate(self._games):
            np.add.at(out[g], columns, values)
        return out


class Sums:
    """Every column's total over the games, and over each resample."""

    def __init__(
        self,
        table: GameTable,
        resamples: Resamples,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        self.index = table.index
        self.resamples = resamples
        matrix = table.matrix()
        self.total = matrix.sum(axis=0)
        self.present = (matrix != 0).sum(axis=0)  # games with a value in each column
        boot = []
        for weights in resamples.chunks():
            boot.append(weights @ matrix)
            if progress is not None:
                progress(len(weights))
        self.boot = np.vstack(boot) if boot else np.zeros((0, len(self.index)))

    def has(self, key: Hashable) -> bool:
        return key in self.index

    def get(self, key: Hashable) -> tuple[float, np.ndarray]:
        """(total, per resample); zeros for a column no game had."""
        i = self.index.get(key)
        if i is None:
            return 0.0, np.zeros(len(self.boot))
        return float(self.total[i]), self.boot[:, i]

    def games_with(self, key: Hashable) -> int:
        i = self.index.get(key)
        return 0 if i is None else int(self.present[i])


def percentiles(values: np.ndarray) -> tuple[float | None, float | None]:
    """The 95% percentile interval of the finite values (None, None without any)."""
    finite = values[np.isfinite(values)]
    if not len(finite):
        return None, None
    lo, hi = np.percentile(finite, [2.5, 97.5])
    return float(lo), float(hi)


def divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den where den > 0, NaN elsewhere (a resample without data)."""
    out: np.ndarray = np.divide(num, den, out=np.full(np.shape(num), np.nan), where=den > 0)
    return out


def ratio(
    sums: Sums,
    num: Hashable,
    den: Hashable,
    chance: float | None = None,
) -> Cell:
    """Sum of `num` over sum of `den`, with its interval over games; n is the summed
    denominator and games those with a nonzero one."""
    total_num, boot_num = sums.get(num)
    total_den, boot_den = sums.get(den)
    if total_den <= 0:
        return empty(chance)
    lo, hi = percentiles(divide(boot_num, boot_den))
    return Cell(
        value=total_num / total_den,
        lo=lo,
        hi=hi,
        n=total_den,
        games=sums.games_with(den),
        chance=chance,
    )


def chance_ratio(sums: Sums, num: Hashable, den: Hashable) -> float | None:
    """A chance level kept as its own numerator and denominator (None without data)."""
    total_num, _ = sums.get(num)
    total_den, _ = sums.get(den)
    return total_num / total_den if total_den > 0 else None


def from_samples(
    value: float | None, boot: np.ndarray, n: float, games: int, chance: float | None = None
) -> Cell:
    """A cell of a statistic computed directly on each resample (`boot`, NaN where it is
    undefined)."""
    if value is None:
        return empty(chance)
    lo, hi = percentiles(boot)
    return Cell(value=value, lo=lo, hi=hi, n=n, games=games, chance=chance)
