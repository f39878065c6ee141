"""Per-contestant and per-role metrics, accumulated one result row at a time.

Definitions (docs/evaluation.md has the full text and sources):

* win rate: per game, the share of the contestant's seats whose camp won (a draw wins
  nothing); Wilson 95% interval with the number of games as n. Per role, a game counts
  once for each role the contestant held in it (all its seats of one role share a camp).
* balanced win rate: the mean of the role-conditional win rates.
* IRP/VSS per ballot (Kaggle Game Arena): pooled over the contestant's good-camp exile
  ballots. IRP/VSS per game (DSGBench / WereWolf-Plus): a ratio per game, then averaged.
"""

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from autowerewolf.evaluation.facts import GameRow

Z95 = 1.959963984540054
KEY_ROLES = frozenset({"seer", "witch", "hunter", "guard", "idiot"})
KPI_NAMES = {
    "seer": "wolves found / wolves",
    "witch": "good saves + wolf poisons / potions used",
    "guard": "nights guarding the wolves' target / nights guarded",
    "hunter": "shots at wolves / shots",
    "werewolf": "wolves alive at the end / wolves",
}


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


@dataclass
class Ratio:
    num: float = 0.0
    den: float = 0.0

    def add(self, num: float, den: float = 1.0) -> None:
        self.num += num
        self.den += den

    @property
    def value(self) -> float | None:
        return self.num / self.den if self.den else None


@dataclass
class Tally:
    """Running totals of one contestant."""

    games: int = 0
    win: Ratio = field(default_factory=Ratio)
    roles: dict[str, Ratio] = field(default_factory=lambda: defaultdict(Ratio))
    camps: dict[str, Ratio] = field(default_factory=lambda: defaultdict(Ratio))
    survival: dict[str, Ratio] = field(default_factory=lambda: defaultdict(Ratio))
    key_survival: Ratio = field(default_factory=Ratio)
    irp_ballot: Ratio = field(default_factory=Ratio)
    vss_ballot: Ratio = field(default_factory=Ratio)
    irp_game: Ratio = field(default_factory=Ratio)  # sum of per-game ratios / games
    vss_game: Ratio = field(default_factory=Ratio)
    kpi: dict[str, Ratio] = field(default_factory=lambda: defaultdict(Ratio))
    decisions: Ratio = field(default_factory=Ratio)  # fallbacks / decisions
    invalid: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0
    unpriced: bool = False
    probe_calls: int = 0  # measurement probes, counted apart from the seat's play
    probe_tokens: int = 0
    probe_cost_usd: float = 0.0
    head_to_head: dict[str, Ratio] = field(default_factory=lambda: defaultdict(Ratio))


@dataclass(frozen=True)
class GameTeams:
    """What the rating models see of one game: seats per contestant in each camp."""

    good: dict[str, int]
    wolf: dict[str, int]
    outcome: float  # 1 good won, 0 wolves won, 0.5 draw
    roles: dict[tuple[str, str], int]  # seats per (contestant, role)


class Aggregator:
    """Feed rows with `add`; memory grows with contestants, plus one GameTeams per game."""

    def __init__(self) -> None:
        self.tallies: dict[str, Tally] = defaultdict(Tally)
        self.teams: list[GameTeams] = []
        self.draws = 0
        self.boards: set[str] = set()

    def add(self, row: GameRow) -> None:
        winner = row["winner"]
        self.draws += winner is None
        self.boards.add(row["board"])
        seats = row["seats"].values()
        by_contestant: dict[str, list[Any]] = defaultdict(list)
        good: dict[str, int] = defaultdict(int)
        wolf: dict[str, int] = defaultdict(int)
        roles: dict[tuple[str, str], int] = defaultdict(int)
        for seat in seats:
            by_contestant[seat["contestant"]].append(seat)
            (good if seat["camp"] == "good" else wolf)[seat["contestant"]] += 1
            roles[(seat["contestant"], seat["role"])] += 1
        outcome = 0.5 if winner is None else float(winner == "good")
        self.teams.append(GameTeams(dict(good), dict(wolf), outcome, dict(roles)))
        scores: dict[str, float] = {}
        for name, mine in by_contestant.items():
            scores[name] = self._add_contestant(self.tallies[name], row, mine)
        for a, score_a in scores.items():
            for b, score_b in scores.items():
                if a != b and score_a != score_b:
                    self.tallies[a].head_to_head[b].add(float(score_a > score_b))

    @staticmethod
    def _add_contestant(t: Tally, row: GameRow, seats: list[Any]) -> float:
        winner = row["winner"]
        won = [s["camp"] == winner for s in seats]
        score = sum(won) / len(seats)
        t.games += 1
        t.win.add(score)
        for role in {s["role"] for s in seats}:
            camp = "wolf" if role == "werewolf" else "good"
            t.roles[role].add(float(camp == winner))
        for camp in {s["camp"] for s in seats}:
            t.camps[camp].add(float(camp == winner))
        good_ballots = wolf_ballots = 0
        for s in seats:
            t.survival[s["role"]].add(float(s["alive"]))
            if s["role"] in KEY_ROLES:
                t.key_survival.add(float(s["alive"]))
            t.irp_ballot.add(s["wolf_ballots"], s["exile_ballots"])
            t.vss_ballot.add(s["vss_hits"], s["vss_ballots"])
            good_ballots += s["exile_ballots"]
            wolf_ballots += s["wolf_ballots"]
            if s["kpi_den"]:
                t.kpi[s["role"]].add(s["kpi_num"], s["kpi_den"])
            t.decisions.add(s["fallbacks"], s["decisions"])
            t.invalid += s["invalid"]
            t.tokens_in += s["tokens_in"]
            t.tokens_out += s["tokens_out"]
            t.cost_usd += s["cost_usd"]
            t.latency_s += s["latency_s"]
            t.unpriced = t.unpriced or s["unpriced"]
            # Rows written before probes existed (version 1) have no probe counts.
            t.probe_calls += s.get("probe_calls", 0)
            t.probe_tokens += s.get("probe_tokens_in", 0) + s.get("probe_tokens_out", 0)
            t.probe_cost_usd += s.get("probe_cost_usd", 0.0)
        if good_ballots:
            t.irp_game.add(wolf_ballots / good_ballots)
        if row["exiles"] and any(s["camp"] == "good" for s in seats):
            t.vss_game.add(row["wolf_exiles"] / row["exiles"])
        return float(score)

    def add_all(self, rows: Iterable[GameRow]) -> "Aggregator":
        for row in rows:
            self.add(row)
        return self

    @property
    def contestants(self) -> list[str]:
        return sorted(self.tallies)


def _rate(r: Ratio) -> dict[str, float | None]:
    lo, hi = wilson(r.num, r.den)
    return {"rate": r.value, "lo": lo if r.den else None, "hi": hi if r.den else None, "n": r.den}


def contestant_metrics(name: str, t: Tally) -> dict[str, Any]:
    """Every per-contestant number, JSON-ready; None where a metric has no data."""
    role_rates = {role: _rate(r) for role, r in sorted(t.roles.items())}
    conditional = [r.value for r in t.roles.values() if r.value is not None]
    per_game = max(t.games, 1)
    return {
        "contestant": name,
        "games": t.games,
        "win": _rate(t.win),
        "balanced_win_rate": sum(conditional) / len(conditional) if conditional else None,
        "win_by_role": role_rates,
        "win_by_camp": {camp: _rate(r) for camp, r in sorted(t.camps.items())},
        "key_role_survival": t.key_survival.value,
        "survival_by_role": {role: r.value for role, r in sorted(t.survival.items())},
        "wolf_survival": t.survival["werewolf"].value if "werewolf" in t.survival else None,
        "irp_ballot": t.irp_ballot.value,
        "vss_ballot": t.vss_ballot.value,
        "irp_game": t.irp_game.value,
        "vss_game": t.vss_game.value,
        "role_kpi": {role: t.kpi[role].value if role in t.kpi else None for role in KPI_NAMES},
        "decisions": int(t.decisions.den),
        "fallback_rate": t.decisions.value,
        "invalid_rate": t.invalid / t.decisions.den if t.decisions.den else None,
        "tokens_per_game": (t.tokens_in + t.tokens_out) / per_game,
        "tokens_in_per_game": t.tokens_in / per_game,
        "tokens_out_per_game": t.tokens_out / per_game,
        "cost_usd_per_game": t.cost_usd / per_game,
        "cost_complete": not t.unpriced,
        "latency_s_per_game": t.latency_s / per_game,
        "latency_s_per_decision": t.latency_s / t.decisions.den if t.decisions.den else None,
        "probe_calls_per_game": t.probe_calls / per_game,
        "probe_tokens_per_game": t.probe_tokens / per_game,
        "probe_cost_usd_per_game": t.probe_cost_usd / per_game,
        "head_to_head": {
            other: {"rate": r.value, "n": r.den} for other, r in sorted(t.head_to_head.items())
        },
    }
