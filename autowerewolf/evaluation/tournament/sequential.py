"""Sequential stopping: play a tournament in steps and stop once its comparison is decided.

The comparison is A's win rate minus B's, paired within blocks: each block (the games that
share a deal, schedule.py) gives one difference d in [-1, 1], the mean over its games of
A's score minus B's (a score is the share of a contestant's seats that won). Blocks are
independent, so the running mean of d has an always-valid confidence sequence: an
interval at every block count that covers the mean with probability 1 - alpha at all of
them at once, so looking after every block and stopping at the first decided look keeps
the error rate at alpha (a fixed-sample interval looked at twenty times errs far more).

The sequence is Waudby-Smith and Ramdas's betting confidence sequence for bounded means
(JRSS-B 2024, "hedged capital" with the predictable plug-in bet): for each candidate mean
m, a gambler bets on d's side of m with a stake fitted to the data seen so far; by Ville's
inequality her capital passes 1/alpha with probability at most alpha if m is the mean, so
the candidates whose capital stays below it form the sequence. It needs no variance
bound, adapts to the blocks' actual spread (paired differences are mostly small), and is
never wider than a Hoeffding-style sequence; alpha spending would fix the looks in advance.

A look decides `different` when the sequence excludes 0, `equivalent` when it lies within
+-margin; the tournament then stops at the end of that block.
"""

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
from rich.console import Console

from autowerewolf.evaluation.games.facts import GameRow
from autowerewolf.evaluation.tournament.config import StopRule, TournamentConfig
from autowerewolf.evaluation.tournament.play import pending, run_tournament
from autowerewolf.evaluation.tournament.results import iter_rows
from autowerewolf.evaluation.tournament.schedule import plan
from autowerewolf.storage.target import Database

GRID = 4001  # candidate means in [-1, 1]: the sequence's ends are within 0.0005
STAKE_CAP = 0.5  # the largest share of her capital the gambler may stake (the paper's c)
Decision = Literal["different", "equivalent"]


def block_differences(rows: Iterable[GameRow], a: str, b: str) -> list[float]:
    """Each block's mean of A's score minus B's over its games where both sat, in block
    order (a block is the games of one seed)."""
    by_block: dict[int | None, list[float]] = {}
    for row in rows:
        scores = {}
        for name in (a, b):
            seats = [s for s in row["seats"].values() if s["contestant"] == name]
            if seats:
                scores[name] = sum(s["camp"] == row["winner"] for s in seats) / len(seats)
        if len(scores) == 2:
            by_block.setdefault(row["seed"], []).append(scores[a] - scores[b])
    ordered = sorted(by_block.items(), key=lambda item: -1 if item[0] is None else item[0])
    return [float(np.mean(values)) for _, values in ordered]


def _log_capital(x: np.ndarray, m: np.ndarray, alpha: float) -> np.ndarray:
    """log of the hedged capital after every observation, [observations, candidates], for
    observations x and candidate means m on [0, 1]."""
    t = np.arange(1, len(x) + 1)
    mean_after = (0.5 + np.cumsum(x)) / (t + 1)
    variance_after = (0.25 + np.cumsum((x - mean_after) ** 2)) / (t + 1)
    variance_before = np.concatenate([[0.25], variance_after[:-1]])
    # The bet at t is fixed by the observations before it: that keeps the capital a
    # martingale under the candidate mean.
    bet = np.sqrt(2 * math.log(2 / alpha) / (variance_before * t * np.log1p(t)))[:, None]
    step = x[:, None] - m[None, :]
    up = np.log1p(np.minimum(bet, STAKE_CAP / m) * step)
    down = np.log1p(-np.minimum(bet, STAKE_CAP / (1 - m)) * step)
    hedged: np.ndarray = np.logaddexp(np.cumsum(up, axis=0), np.cumsum(down, axis=0))
    return hedged + math.log(0.5)


def confidence_sequence(differences: Sequence[float], alpha: float) -> tuple[float, float]:
    """The running intersection of the betting confidence sequence for the mean of
    `differences` (each in [-1, 1]) after the last one: (-1, 1) before any."""
    if not differences:
        return -1.0, 1.0
    x = (np.clip(np.asarray(differences, float), -1, 1) + 1) / 2
    m = np.linspace(0, 1, GRID)[1:-1]
    kept = _log_capital(x, m, alpha) < math.log(1 / alpha)
    lo, hi = 0.0, 1.0
    for row in kept:
        if row.any():
            lo, hi = max(lo, float(m[row].min())), min(hi, float(m[row].max()))
    return 2 * lo - 1, 2 * hi - 1


def decision(lo: float, hi: float, margin: float) -> Decision | None:
    if lo > 0 or hi < 0:
        return "different"
    if -margin < lo and hi < margin:
        return "equivalent"
    return None


@dataclass(frozen=True)
class Look:
    games: int
    blocks: int
    difference: float  # mean of the block differences
    lo: float
    hi: float
    decision: Decision | None


def look(rows: Iterable[GameRow], rule: StopRule, games: int) -> Look:
    """The stop rule's view of the finished games, `games` of them."""
    differences = block_differences(rows, *rule.compare)
    lo, hi = confidence_sequence(differences, rule.alpha)
    value = float(np.mean(differences)) if differences else 0.0
    return Look(games, len(differences), value, lo, hi, decision(lo, hi, rule.margin))


def look_sizes(config: TournamentConfig, every: int) -> list[int]:
    """Game counts at which to look: the first block end at least `every` games after the
    previous look, and the planned total."""
    games = plan(config)
    ends = [
        g.index + 1
        for g, after in zip(games, [*games[1:], None], strict=True)
        if after is None or after.block != g.block
    ]
    sizes: list[int] = []
    for end in ends:
        if end - (sizes[-1] if sizes else 0) >= every or end == len(games):
            sizes.append(end)
    return sizes


@dataclass(frozen=True)
class SequentialRecord:
    """What the stop rule saw: its settings, every look, and where it stopped."""

    rule: StopRule
    looks: list[Look]
    planned: int  # the most games the tournament could play

    @property
    def stopped(self) -> Look:
        return self.looks[-1]

    def as_json(self) -> dict[str, Any]:
        return {
            "compare": list(self.rule.compare),
            "margin": self.rule.margin,
            "alpha": self.rule.alpha,
            "every": self.rule.every,
            "planned": self.planned,
            "decision": self.stopped.decision,
            "looks": [asdict(x) for x in self.looks],
        }

    def summary(self) -> str:
        a, b = self.rule.compare
        last = self.stopped
        verdict = {
            "different": "decided: the difference excludes 0",
            "equivalent": f"decided: the difference lies within +-{self.rule.margin:g}",
            None: "undecided at the planned games",
        }[last.decision]
        return (
            f"Sequential stop ({a} minus {b}, win rate paired within blocks, "
            f"{1 - self.rule.alpha:.0%} betting confidence sequence): {verdict} after "
            f"{last.games} of {self.planned} games ({last.blocks} blocks, {len(self.looks)} "
            f"looks): {last.difference:+.3f} [{last.lo:+.3f}, {last.hi:+.3f}]."
        )


def run_sequential(
    config: TournamentConfig,
    db: Database,
    concurrency: int | None = None,
    console: Console | None = None,
    replay_from: Path | None = None,
) -> SequentialRecord:
    """Play `config` look by look until its stop rule decides, or every planned game; each
    look's calls are answered from `replay_from`'s recorded answers where it holds them."""
    rule = config.stop
    if rule is None:
        raise ValueError(f"tournament {config.name!r} has no stop rule")
    # A tournament continued (or extended from a pilot) looks first where its saved games
    # end: the sequence runs over every block, so the skipped looks' evidence is in it.
    done = pending(config, db).done
    sizes = look_sizes(config, rule.every)
    looks: list[Look] = []
    for size in [s for s in sizes if s >= done] or sizes[-1:]:
        sized = config.model_copy(update={"games": size})
        run_tournament(sized, db, concurrency, console, replay_from)
        seen = look(iter_rows(db, tournament=config.name), rule, size)
        looks.append(seen)
        if console is not None:
            console.print(
                f"Look {len(looks)} at {size} games: {seen.difference:+.3f} "
                f"[{seen.lo:+.3f}, {seen.hi:+.3f}]"
                + (f", {seen.decision}" if seen.decision else ""),
                highlight=False,
            )
        if seen.decision is not None:
            break
    return SequentialRecord(rule, looks, config.games)
