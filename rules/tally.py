"""Counting ballots (RULES §3, §6)."""

from collections.abc import Mapping

from autowerewolf.rules.decisions import Option


def tally(
    ballots: Mapping[str, str], weights: Mapping[str, float]
) -> tuple[tuple[str, ...], dict[str, float]]:
    """Leaders (several on a tie, none if everyone abstained) and each target's total."""
    totals: dict[str, float] = {}
    for voter, target in ballots.items():
        if target != Option.ABSTAIN:
            totals[target] = totals.get(target, 0.0) + weights.get(voter, 1.0)
    if not totals:
        return (), totals
    top = max(totals.values())
    return tuple(sorted(t for t, w in totals.items() if w == top)), totals
