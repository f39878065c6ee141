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
  percentile bootstrap interval from resampling items.
"""

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from autowerewolf.evaluation.positions import PositionItem

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


def bootstrap_mean(
    values: Sequence[float], resamples: int = RESAMPLES, seed: int = 0
) -> dict[str, float | int | None]:
    """Mean with a 95% percentile interval from resampling the values with replacement."""
    if not values:
        return {"mean": None, "lo": None, "hi": None, "n": 0}
    data = np.asarray(values, dtype=float)
    rng = np.random.default_rng(seed)
    means = data[rng.integers(0, len(data), size=(resamples, len(data)))].mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return {"mean": float(data.mean()), "lo": float(lo), "hi": float(hi), "n": len(data)}


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
    va = [v for i in scored if (v := scores[i.id]["va"]) is not None]
    oi = [v for i in scored if (v := scores[i.id]["oi"]) is not None]
    return {
        "va": bootstrap_mean(va, resamples, seed),
        "oi": bootstrap_mean(oi, resamples, seed),
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
