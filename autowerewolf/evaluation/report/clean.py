"""Clean-game ratings: Bradley-Terry over the games in which no seat answered illegally or
fell back (MindGames' "error-survival confound": a game decided by invalid moves rates the
harness, not the player), beside each contestant's share of voided games.

A game's seats carry per step [decisions, illegal, fallbacks, second looks] (validity.py);
a game is voided when any seat of it has an illegal first answer or a fallback.
"""

from collections.abc import Sequence
from typing import Any

from autowerewolf.evaluation.bootstrap import Resamples, wilson
from autowerewolf.evaluation.games.facts import GameRow
from autowerewolf.evaluation.ratings.outcomes import bradley_terry
from autowerewolf.evaluation.report.metrics import GameTeams
from autowerewolf.evaluation.report.validity import PARTS

FAULTS = (PARTS.index("illegal"), PARTS.index("fallbacks"))


def is_clean(row: GameRow) -> bool:
    """No seat of the game answered illegally or fell back."""
    return not any(
        counts[i]
        for seat in row["seats"].values()
        for counts in seat.get("steps", {}).values()
        for i in FAULTS
    )


def clean_ratings(
    teams: Sequence[GameTeams],
    clean: Sequence[bool],
    names: Sequence[str],
    resamples: int,
    seed: int,
) -> dict[str, Any]:
    """Each contestant's voided share of its games (Wilson interval) and, when at least two
    contestants have clean games, its Bradley-Terry skill over the clean games alone."""
    played = {n: 0 for n in names}
    voided = {n: 0 for n in names}
    for game, ok in zip(teams, clean, strict=True):
        for name in {*game.good, *game.wolf}:
            played[name] += 1
            voided[name] += not ok
    kept = [game for game, ok in zip(teams, clean, strict=True) if ok]
    rated = [n for n in names if any(n in g.good or n in g.wolf for g in kept)]
    skills: dict[str, tuple[float, float, float]] = {}
    if len(rated) >= 2:
        fit = bradley_terry(kept, rated, Resamples(len(kept), resamples, seed))
        skills = {
            n: (float(fit.skill[i]), float(fit.lo[i]), float(fit.hi[i]))
            for i, n in enumerate(fit.names)
        }
    rows = []
    for name in names:
        lo, hi = wilson(voided[name], played[name])
        skill = skills.get(name)
        rows.append(
            {
                "contestant": name,
                "games": played[name],
                "clean_games": played[name] - voided[name],
                "voided": {
                    "value": voided[name] / played[name] if played[name] else None,
                    "lo": lo,
                    "hi": hi,
                    "games": played[name],
                    "n": played[name],
                    "chance": 0.0,
                },
                "skill": {
                    "value": None if skill is None else skill[0],
                    "lo": None if skill is None else skill[1],
                    "hi": None if skill is None else skill[2],
                    "games": played[name] - voided[name],
                    "n": played[name] - voided[name],
                    "chance": 0.0,
                },
            }
        )
    return {"games": len(kept), "voided_games": len(teams) - len(kept), "skills": rows}
