"""Counting ballots (RULES §3, §6)."""

from collections.abc import Mapping

from autowerewolf.rules.common import event
from autowerewolf.rules.decisions import Option
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.state import GameState


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


def publish_ballots(
    state: GameState,
    ballots: Mapping[str, str],
    weights: Mapping[str, float],
    vote: str,
    round_: int,
    events: list[Event],
) -> None:
    """Every ballot of a simultaneous vote, made public at once (RULES §6)."""
    for voter in sorted(ballots):
        target = None if ballots[voter] == Option.ABSTAIN else ballots[voter]
        events.append(
            event(
                state,
                EventKind.BALLOT,
                Audience.PUBLIC,
                actor=voter,
                target=target,
                value=vote,
                weight=weights.get(voter, 1.0),
                round=round_,
            )
        )


def publish_result(
    state: GameState,
    leaders: tuple[str, ...],
    totals: Mapping[str, float],
    vote: str,
    round_: int,
    events: list[Event],
) -> None:
    summary = ", ".join(f"{s}: {w:g}" for s, w in sorted(totals.items())) or "no votes"
    events.append(
        event(
            state,
            EventKind.VOTE_RESULT,
            Audience.PUBLIC,
            targets=leaders,
            round=round_,
            value=vote,
            text=summary,
        )
    )
