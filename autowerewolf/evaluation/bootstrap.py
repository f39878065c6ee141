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
A proportion's interval is never narrower than the Wilson interval at its effective sample
size (`proportion_interval`): with few games the percentile bootstrap is too narrow (2 to
6 games of a random player excluded its own chance level in 11% of cells), and at 0 of n
or n of n it has no width at all.
"""

import math
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

import numpy as np
from scipy.stats import t as student_t

CHUNK = 100  # resamples per matrix product: bounds the weights held at once
# A cell from fewer games is flagged `small` in the tables and CSVs: its interval rests on
# a handful of clusters, however many decisions they hold.
MIN_GAMES = 10
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
    # An LLM contestant's scaffold baseline: the same metric of a random answerer through
    # its harness, with its interval and games (evaluation/report/scaffold.py).
    scaffold: NotRequired[float | None]
    scaffold_lo: NotRequired[float | None]
    scaffold_hi: NotRequired[float | None]
    scaffold_games: NotRequired[int]


def small(cell: Mapping[str, Any]) -> bool:
    """Whether a cell with data rests on fewer than MIN_GAMES games."""
    return cell.get("value") is not None and int(cell.get("games") or 0) < MIN_GAMES


def effective_n(value: float, boot: np.ndarray, games: int) -> float:
    """The number of independent trials a proportion over `games` clusters is worth, for
    its Wilson interval: Korn and Graubard's effective sample size (1998), p(1-p) over its
    variance, times (z / t)^2 with t Student's quantile on games - 1 degrees of freedom (a
    variance from a few clusters is itself uncertain); never fewer than the games.

    The variance is the resamples', scaled by g / (g - 1) (the bootstrap's bias over few
    clusters). At 0 of n or n of n (or a single game) the spread says nothing and the count
    falls back to the games: decisions inside one game may all move together, so a game
    is the smallest unit surely independent of the others. A mean of graded scores (an
    item's share of decodes) varies less than coin flips: its count may pass its n, and
    Wilson's interval then follows the bootstrap's spread."""
    finite = boot[np.isfinite(boot)]
    spread = float(np.var(finite)) * games / (games - 1) if games > 1 and len(finite) else 0.0
    if spread <= 0 or value <= 0 or value >= 1:
        return float(games)
    few_clusters = (Z95 / float(student_t.ppf(0.975, games - 1))) ** 2
    return max(value * (1 - value) / spread * few_clusters, float(games))


def proportion_interval(value: float, boot: np.ndarray, games: int) -> tuple[float, float]:
    """95% interval of a proportion estimated over `games` clusters of decisions: the
    percentile interval of the resampled values `boot`, widened to the Wilson score
    interval at the effective sample size where that is wider. Wilson keeps its width at
    0 and 1, where the percentile bootstrap collapses to a point."""
    worth = effective_n(value, boot, games)
    wilson_lo, wilson_hi = wilson(value * worth, worth)
    lo, hi = percentiles(boot)
    if lo is None or hi is None:
        return wilson_lo, wilson_hi
    return min(lo, wilson_lo), max(hi, wilson_hi)


def empty(chance: float | None = None) -> Cell:
    return Cell(value=None, lo=None, hi=None, n=0, games=0, chance=chance)


@dataclass(frozen=True)
class Resamples:
    """`count` resamples of `games` games, drawn from `seed`: the same in every run.

    With `blocks` (each game's block, numbered from 0) whole blocks are drawn instead, and
    every game of a drawn block counts as often as its block: games that share a deal are
    not independent, and their differences are only honest resampled together."""

    games: int
    count: int
    seed: int
    blocks: tuple[int, ...] | None = None

    def chunks(self) -> Iterator[np.ndarray]:
        """Blocks of [resamples, games] draw counts, in a fixed order."""
        rng = np.random.default_rng(self.seed)
        units = self.games if self.blocks is None else max(self.blocks, default=-1) + 1
        done = 0
        while done < self.count and self.games:
            size = min(CHUNK, self.count - done)
            picks = rng.integers(0, units, size=(size, units))
            offsets = np.arange(size)[:, None] * units
            flat = np.bincount((picks + offsets).ravel(), minlength=size * units)
            counts = flat.reshape(size, units).astype(float)
            yield counts if self.blocks is None else counts[:, np.asarray(self.blocks)]
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
    denominator and games those with a nonzero one. For a mean that is no proportion
    (tokens per game); a share of opportunities is a `proportion`."""
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


def proportion(
    sums: Sums,
    num: Hashable,
    den: Hashable,
    chance: float | None = None,
) -> Cell:
    """A share (between 0 and 1) of the summed `den`: `ratio`'s cell, its interval from
    `proportion_interval`, so that 0 of n and the cells of a few games keep a width."""
    cell = ratio(sums, num, den, chance)
    if cell["value"] is None:
        return cell
    boot = divide(sums.get(num)[1], sums.get(den)[1])
    lo, hi = proportion_interval(cell["value"], boot, cell["games"])
    return Cell(**{**cell, "lo": lo, "hi": hi})


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
