"""Scoring decision positions: Vote Alignment (VA) and Opponent-role Inference (OI), and
their summaries with bootstrap intervals over items (docs/evaluation.md).

* VA of one decode: 1 when the model's vote is the reference seat's own vote (an
  abstention matches an abstention), else 0; an answer the model failed to give (the
  player's fallback) scores 0, as WereBench counts malformed outputs as incorrect.
* OI of one decode: the model rates how likely each other living seat is an opponent; with
  k the number of living opponents among them, OI is the share of opponents among the k
  seats rated highest (R-precision: precision = recall = set accuracy at k). Seats tied
  at the cut share the remaining places in expectation. No estimate scores 0. Only for
  good-camp items: a wolf is told its team, so its opponent set is given.
* An item's score is the mean over its decodes; a summary is the mean over items, with a
  bootstrap interval from resampling the games the items come from (the votes of one game
  are not independent), widened to Wilson's at the effective count where that is wider;
  beside it the chance level: the mean over the same items of what a uniformly random
  answer scores (VA: 1 / the vote's legal options; OI: k / the seats rated).
"""

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from autowerewolf.evaluation.bootstrap import MIN_GAMES, Resamples, proportion_interval
from autowerewolf.evaluation.positions.items import PositionItem

RESAMPLES = 1000


def r_precision(scores: Mapping[str, float], truth: set[str]) -> float:
    """Expected share of `truth` among the len(truth) highest-scored seats."""
    k = len(truth)
    if k == 0:
        raise ValueError("no opponent to find")
    hits, places = 0.0, k
    for level in sorted(set(scores.values()), reverse=True):
        tied = [s for s in scores if scores[s] == level]
        taken = min(places, len(tied))
        hits += taken * sum(s in truth for s in tied) / len(tied)
        places -= taken
        if places == 0:
            break
    return hits / k


def vote_alignment(vote: str | None, item: PositionItem) -> float:
    return float(vote is not None and vote == item.answer_key.reference_vote)


def opponent_inference(scores: Mapping[str, float] | None, item: PositionItem) -> float | None:
    """None where OI is not defined (a wolf's item, or no living opponent)."""
    truth = set(item.answer_key.opponents)
    if item.view.camp.value != "good" or not truth:
        return None
    if scores is None:
        return 0.0
    candidates = [p.seat for p in item.view.players if p.alive and p.seat != item.view.seat]
    return r_precision({s: scores.get(s, 0.0) for s in candidates}, truth)


def cluster_mean(
    values: Sequence[float],
    games: Sequence[str],
    chances: Sequence[float],
    resamples: int = RESAMPLES,
    seed: int = 0,
) -> dict[str, float | int | None]:
    """Mean of per-item values (each between 0 and 1) with a 95% interval from resampling
    the games the items come from (`games`, one per value), never narrower than Wilson's
    at the effective count (bootstrap.proportion_interval: a cell of one game, or of items
    all scored alike, keeps a width), the mean chance level, and whether the games are
    fewer than MIN_GAMES."""
    if not values:
        return {
            "mean": None, "lo": None, "hi": None, "n": 0, "games": 0, "chance": None,
            "small": False,
        }  # fmt: skip
    index = {g: i for i, g in enumerate(dict.fromkeys(games))}
    column = np.array([index[g] for g in games])
    sums = np.bincount(column, weights=np.asarray(values, dtype=float), minlength=len(index))
    counts = np.bincount(column, minlength=len(index)).astype(float)
    boot = np.concatenate(
        [(w @ sums) / (w @ counts) for w in Resamples(len(index), resamples, seed).chunks()]
    )
    mean = float(np.mean(values))
    lo, hi = proportion_interval(mean, boot, len(index))
    return {
        "mean": mean,
        "lo": lo,
        "hi": hi,
        "n": len(values),
        "games": len(index),
        "chance": float(np.mean(chances)),
        "small": len(index) < MIN_GAMES,
    }


def block_text(block: Mapping[str, Any], after_games: str = "") -> str:
    """A `cluster_mean` block on one line: the mean, its interval, how many items and games
    (then `after_games`); n/a for a block without items."""
    if block["mean"] is None:
        return "n/a"
    return (
        f"{block['mean']:.3f} [{block['lo']:.3f}, {block['hi']:.3f}] "
        f"({block['n']} items, {block['games']} games{after_games})"
    )


def game_of(item: PositionItem) -> str:
    source = item.answer_key.source
    return f"{source.database}:{source.game_id}"


def va_chance(item: PositionItem) -> float:
    """A uniformly random ballot matches the reference vote with 1 / its legal options."""
    return 1 / len(item.view.options)


def oi_chance(item: PositionItem) -> float | None:
    """Random ratings rank the k opponents among the n other living seats: k / n."""
    truth = item.answer_key.opponents
    if item.view.camp.value != "good" or not truth:
        return None
    candidates = [p for p in item.view.players if p.alive and p.seat != item.view.seat]
    return len(truth) / len(candidates)


def item_scores(
    items: Sequence[PositionItem], results: Sequence[Mapping[str, Any]]
) -> dict[str, dict[str, float | None]]:
    """Per item: VA and OI averaged over its decodes (OI None where undefined)."""
    by_item: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for row in results:
        by_item[row["item"]].append(row)
    scores: dict[str, dict[str, float | None]] = {}
    for item in items:
        rows = by_item.get(item.id)
        if not rows:
            continue
        ois = [r["oi"] for r in rows if r["oi"] is not None]
        scores[item.id] = {
            "va": sum(r["va"] for r in rows) / len(rows),
            "oi": sum(ois) / len(ois) if ois else None,
        }
    return scores


def _block(
    items: Sequence[PositionItem],
    scores: Mapping[str, Mapping[str, float | None]],
    resamples: int,
    seed: int,
) -> dict[str, Any]:
    scored = [i for i in items if i.id in scores]
    va = [i for i in scored if scores[i.id]["va"] is not None]
    oi = [i for i in scored if scores[i.id]["oi"] is not None]
    return {
        "va": cluster_mean(
            [scores[i.id]["va"] or 0.0 for i in va],
            [game_of(i) for i in va],
            [va_chance(i) for i in va],
            resamples,
            seed,
        ),
        "oi": cluster_mean(
            [scores[i.id]["oi"] or 0.0 for i in oi],
            [game_of(i) for i in oi],
            [oi_chance(i) or 0.0 for i in oi],
            resamples,
            seed,
        ),
    }


def _groups(
    items: Sequence[PositionItem], key: Callable[[PositionItem], str]
) -> dict[str, list[PositionItem]]:
    groups: dict[str, list[PositionItem]] = defaultdict(list)
    for item in items:
        groups[key(item)].append(item)
    return dict(sorted(groups.items()))


def summarize(
    items: Sequence[PositionItem],
    results: Sequence[Mapping[str, Any]],
    resamples: int = RESAMPLES,
    seed: int = 0,
) -> dict[str, Any]:
    """VA and OI overall, by role and by day, with calls and tokens."""
    scores = item_scores(items, results)
    return {
        "items": len(scores),
        "decodes": len(results),
        "overall": _block(items, scores, resamples, seed),
        "by_role": {
            role: _block(group, scores, resamples, seed)
            for role, group in _groups(items, lambda i: i.view.role.value).items()
        },
        "by_day": {
            day: _block(group, scores, resamples, seed)
            for day, group in _groups(items, lambda i: f"{i.view.day}").items()
        },
        "calls": sum(r["calls"] for r in results),
        "tokens_in": sum(r["tokens_in"] for r in results),
        "tokens_out": sum(r["tokens_out"] for r in results),
        "cached_tokens": sum(r["cached_tokens"] for r in results),
        "latency_s": sum(r["latency_s"] for r in results),
        "fallbacks": sum(r["fallbacks"] for r in results),
        "cost_usd": sum(r["cost_usd"] for r in results),
    }
