"""How many games a comparison needs: from a pilot's (or any saved tournament's) games, the
games, model calls, tokens, hours and dollars that bring the interval of A's win rate
minus B's, paired within blocks (ratings/pairs.py), to a target width.

The paired difference is a mean over independent blocks, so its 95% interval narrows as
1/sqrt(blocks): at n blocks it is about 2 * 1.96 * s / sqrt(n) wide, with s the spread of
the pilot's block differences. The rest scales with the games: a block holds as many
games as the pilot's did, and each game costs what the pilot's games cost on average.
"""

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from autowerewolf.evaluation.bootstrap import Z95
from autowerewolf.evaluation.games.facts import GameRow
from autowerewolf.evaluation.tournament.config import Price
from autowerewolf.evaluation.tournament.sequential import block_differences

MIN_PILOT_BLOCKS = 3  # fewer give no usable spread


@dataclass(frozen=True)
class Plan:
    pilot_games: int
    pilot_blocks: int
    block_spread: float  # standard deviation of the pilot's block differences
    pilot_width: float  # the interval's width at the pilot's blocks
    width: float  # the target
    blocks: int
    games: int
    calls: float
    tokens: float
    hours: float  # model time over `concurrency` games at once
    dollars: float
    unpriced: bool  # some model's tokens had no price


def _game_cost(
    row: GameRow, prices: Mapping[str, Price] | None
) -> tuple[float, float, float, float, bool]:
    """(calls, tokens, model seconds, dollars, unpriced) of one game."""
    calls = tokens = seconds = dollars = 0.0
    unpriced = False
    for seat in row["seats"].values():
        calls += seat["decisions"] + seat["probe_calls"]
        tokens_in = seat["tokens_in"] + seat["probe_tokens_in"]
        tokens_out = seat["tokens_out"] + seat["probe_tokens_out"]
        tokens += tokens_in + tokens_out
        seconds += seat["latency_s"]
        if prices is None:
            dollars += seat["cost_usd"] + seat["probe_cost_usd"]
            unpriced = unpriced or seat["unpriced"]
            continue
        price = prices.get(seat["model"] or "")
        if price is None:
            unpriced = unpriced or tokens_in + tokens_out > 0
            continue
        dollars += (tokens_in * price.input + tokens_out * price.output) / 1e6
    return calls, tokens, seconds, dollars, unpriced


def estimate(
    rows: Iterable[GameRow],
    compare: tuple[str, str],
    width: float,
    prices: Mapping[str, Price] | None = None,
    concurrency: int = 1,
) -> Plan:
    """The plan for an interval of `width`; `prices` (a tournament file's table) replaces
    the prices the games were saved with. ValueError if the pilot is too small."""
    if width <= 0:
        raise ValueError(f"the target width must be positive, not {width}")
    kept = [r for r in rows if {s["contestant"] for s in r["seats"].values()} >= set(compare)]
    differences = block_differences(kept, *compare)
    if len(differences) < MIN_PILOT_BLOCKS:
        raise ValueError(
            f"{len(differences)} blocks of games where {compare[0]} and {compare[1]} both "
            f"sat: a plan needs at least {MIN_PILOT_BLOCKS}"
        )
    spread = float(np.std(differences, ddof=1))
    # A pilot whose blocks all agree has no spread to scale: one block's worth of rounding.
    spread = max(spread, 1 / len(kept))
    blocks = max(1, math.ceil((2 * Z95 * spread / width) ** 2))
    per_block = len(kept) / len(differences)
    games = math.ceil(blocks * per_block)
    costs = np.array([_game_cost(r, prices)[:4] for r in kept]).mean(axis=0)
    return Plan(
        pilot_games=len(kept),
        pilot_blocks=len(differences),
        block_spread=spread,
        pilot_width=2 * Z95 * spread / math.sqrt(len(differences)),
        width=width,
        blocks=blocks,
        games=games,
        calls=float(costs[0] * games),
        tokens=float(costs[1] * games),
        hours=float(costs[2] * games / concurrency / 3600),
        dollars=float(costs[3] * games),
        unpriced=any(_game_cost(r, prices)[4] for r in kept),
    )
