"""Per-contestant and per-role metrics, from result rows, with intervals over games.

Definitions (docs/evaluation.md has the full text, sources and each metric's unit):

* win rate: per game, the share of the contestant's seats whose camp won (a draw wins
  nothing); Wilson 95% interval with the number of games as n (each game one outcome).
  Per role, a game counts once for each role the contestant held in it.
* balanced win rate: the mean of the role-conditional win rates.
* IRP/VSS per ballot (Kaggle Game Arena): pooled over the contestant's good-camp exile
  ballots. IRP/VSS per game (DSGBench / WereWolf-Plus): a ratio per game, then averaged.
* every other rate is a ratio of sums over the contestant's seats and games, with a
  percentile interval from resampling games (bootstrap.py), never ballots or seats.

Chance levels: for decisions, what a uniformly random player would score on the same
opportunities (evaluation/chance.py); for outcomes (win rates, survival, the werewolf
KPI), the rate of the same camp or role over every game of the report: what a contestant
without influence on its seats' fate would get. Costs: 0 (a random player calls no model).
Speeches out of character: none (a random player writes no text).

The aggregator keeps a few numbers per game and contestant (bootstrap.GameTable) and one
GameTeams record per game for the rating models.
"""

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from autowerewolf.evaluation.bootstrap import (
    Cell,
    GameTable,
    Sums,
    Values,
    bump,
    chance_ratio,
    divide,
    empty,
    from_samples,
    proportion,
    ratio,
    wilson,
)
from autowerewolf.evaluation.debate import stats as debate_stats
from autowerewolf.evaluation.games.blunders import METRICS as BLUNDER_METRICS
from autowerewolf.evaluation.games.facts import GameRow, SeatRow
from autowerewolf.evaluation.report import designs as design_report
from autowerewolf.evaluation.report import validity
from autowerewolf.rules.roles import GODS, Role, camp_of

# The gods (rules/roles.py): a board's key roles, whose survival the report follows.
KEY_ROLES = frozenset(role.value for role in GODS)
# Keyed by the registry's roles (a StrEnum: a role's name finds its entry too).
KPI_NAMES: dict[str, str] = {
    Role.SEER: "wolves found / wolves",
    Role.WITCH: "good saves + wolf poisons / potions used",
    Role.GUARD: "nights guarding the wolves' target / nights guarded",
    Role.HUNTER: "shots at wolves / shots",
    Role.WEREWOLF: "wolves alive at the end / wolves",
}
EVERYONE = "*"  # the column prefix of totals over every seat (the outcome metrics' null)
# Per-game sums of each contestant, and what a metric divides them by.
PER_GAME = {
    "tokens_per_game": "tokens",
    "tokens_in_per_game": "tokens_in",
    "tokens_out_per_game": "tokens_out",
    "cost_usd_per_game": "cost_usd",
    "latency_s_per_game": "latency_s",
    "probe_calls_per_game": "probe_calls",
    "probe_tokens_per_game": "probe_tokens",
    "probe_cost_usd_per_game": "probe_cost_usd",
}
PER_DECISION = {
    "fallback_rate": "fallbacks",
    "illegal_rate": "illegal",
    "invalid_rate": "invalid",
    "second_look_rate": "second_looks",
    "timeout_rate": "timeouts",
    "latency_s_per_decision": "latency_s",
}
DECISION_SHARES = frozenset(PER_DECISION) - {"latency_s_per_decision"}


@dataclass(frozen=True)
class GameTeams:
    """What the rating models see of one game: seats per contestant in each camp."""

    good: dict[str, int]
    wolf: dict[str, int]
    outcome: float  # 1 good won, 0 wolves won, 0.5 draw
    roles: dict[tuple[str, str], int]  # seats per (contestant, role)


# Seat fields summed per contestant and game as they are; then the derived ones.
SUMMED = (
    "exile_ballots",
    "wolf_ballots",
    "vss_ballots",
    "vss_hits",
    "decisions",
    "fallbacks",
    "invalid",
    "tokens_in",
    "tokens_out",
    "cost_usd",
    "latency_s",
    # Rows written before probes existed (version 1) have no probe counts.
    "probe_calls",
    "probe_cost_usd",
)


def _seat_columns(values: Values, c: str, seats: list[SeatRow]) -> None:
    """The columns a contestant's seats of one game add up to (zeros are not stored)."""
    summed = dict.fromkeys(SUMMED, 0.0)
    for s in seats:
        fields: Mapping[str, Any] = s
        for name in SUMMED:
            summed[name] += fields.get(name, 0)
    for name, amount in summed.items():
        if amount:
            values[(c, name)] = amount
    tokens = sum(s["tokens_in"] + s["tokens_out"] for s in seats)
    bump(values, (c, "tokens"), tokens)
    probe_tokens = sum(s.get("probe_tokens_in", 0) + s.get("probe_tokens_out", 0) for s in seats)
    bump(values, (c, "probe_tokens"), probe_tokens)
    blunders: dict[str, list[float]] = {}
    from_steps = dict.fromkeys(("illegal", "second_looks", "timeouts"), 0)
    for s in seats:
        role = s["role"]
        bump(values, (c, "seats", role), 1)
        bump(values, (c, "alive", role), float(s["alive"]))
        if role in KEY_ROLES:
            bump(values, (c, "key_seats"), 1)
            bump(values, (c, "key_alive"), float(s["alive"]))
        # Rows before version 4 carry no chance levels: those seats count for none.
        if s.get("irp_chance") is not None and s["exile_ballots"]:
            bump(values, (c, "irp_chance"), s["irp_chance"] or 0.0)
            bump(values, (c, "irp_chance_den"), s["exile_ballots"])
        if s.get("vss_chance") is not None and s["vss_ballots"]:
            bump(values, (c, "vss_chance"), s["vss_chance"] or 0.0)
            bump(values, (c, "vss_chance_den"), s["vss_ballots"])
        if s["kpi_den"]:
            bump(values, (c, "kpi_num", role), s["kpi_num"])
            bump(values, (c, "kpi_den", role), s["kpi_den"])
            if s.get("kpi_chance") is not None:
                bump(values, (c, "kpi_chance", role), s["kpi_chance"] or 0.0)
                bump(values, (c, "kpi_chance_den", role), s["kpi_den"])
        for counts in validity.step_counts(s).values():
            for part in from_steps:
                from_steps[part] += counts[validity.PARTS.index(part)]
        for metric, cell in s.get("blunders", {}).items():
            if not cell[1]:
                continue  # rows before version 4 list metrics without opportunities too
            total = blunders.setdefault(metric, [0.0, 0.0, 0.0, 0.0])
            for i, amount in enumerate(cell):
                total[i] += amount
    for part, amount in from_steps.items():
        bump(values, (c, part), amount)
    # Rows before version 5 carry no speech counts: those seats count for none.
    said = [s.get("out_of_character") or [0, 0] for s in seats]
    bump(values, (c, "out_of_character"), sum(x[0] for x in said))
    bump(values, (c, "texts"), sum(x[1] for x in said))
    for metric, (count, chances, odds, judged) in blunders.items():
        bump(values, (c, "blunders", metric), count)
        bump(values, (c, "opportunities", metric), chances)
        bump(values, (c, "blunder_chance", metric), odds)
        bump(values, (c, "blunder_chance_den", metric), judged)


class Aggregator:
    """Feed rows with `add`; keeps per game a few numbers per contestant (`table`), and one
    GameTeams record for the rating models."""

    def __init__(self) -> None:
        self.table = GameTable()
        self.teams: list[GameTeams] = []
        self.game_ids: list[str] = []
        self.names: set[str] = set()
        self.kinds: dict[str, set[str]] = defaultdict(set)
        self.unpriced: set[str] = set()
        self.draws = 0
        self.boards: set[str] = set()

    def add(self, row: GameRow) -> None:
        winner = row["winner"]
        self.draws += winner is None
        self.boards.add(row["board"])
        self.game_ids.append(row["game_id"])
        values: Values = {(EVERYONE, "games"): 1.0}
        bump(values, (EVERYONE, "won", "good"), float(winner == "good"))
        bump(values, (EVERYONE, "won", "wolf"), float(winner == "wolf"))
        by_contestant: dict[str, list[SeatRow]] = defaultdict(list)
        good: dict[str, int] = defaultdict(int)
        wolf: dict[str, int] = defaultdict(int)
        roles: dict[tuple[str, str], int] = defaultdict(int)
        for seat in row["seats"].values():
            name = seat["contestant"]
            by_contestant[name].append(seat)
            (good if seat["camp"] == "good" else wolf)[name] += 1
            roles[(name, seat["role"])] += 1
            bump(values, (EVERYONE, "seats", seat["role"]), 1)
            bump(values, (EVERYONE, "alive", seat["role"]), float(seat["alive"]))
            self.kinds[name].add(seat["kind"])
            if seat["unpriced"]:
                self.unpriced.add(name)
        outcome = 0.5 if winner is None else float(winner == "good")
        self.teams.append(GameTeams(dict(good), dict(wolf), outcome, dict(roles)))
        scores = {
            name: self._contestant(values, name, row, mine) for name, mine in by_contestant.items()
        }
        for a, score_a in scores.items():
            for b, score_b in scores.items():
                if a == b:
                    continue
                values[(a, "with", b)] = 1.0
                if score_a != score_b:
                    bump(values, (a, "h2h", b), float(score_a > score_b))
                    values[(a, "h2h_games", b)] = 1.0
        debate_stats.game_columns(row, values)
        design_report.game_columns(row, values)
        validity.game_columns(row, values)
        self.names.update(scores)
        self.table.add(values)

    @staticmethod
    def _contestant(values: Values, c: str, row: GameRow, seats: list[SeatRow]) -> float:
        winner = row["winner"]
        score = sum(s["camp"] == winner for s in seats) / len(seats)
        values[(c, "games")] = 1.0
        bump(values, (c, "win"), score)
        bump(values, (c, "good_share"), sum(s["camp"] == "good" for s in seats) / len(seats))
        bump(values, (c, "wolf_share"), sum(s["camp"] == "wolf" for s in seats) / len(seats))
        for role in {s["role"] for s in seats}:
            values[(c, "role_held", role)] = 1.0
            bump(values, (c, "role_win", role), float(_camp(role) == winner))
        for camp in {s["camp"] for s in seats}:
            values[(c, "camp_held", camp)] = 1.0
            bump(values, (c, "camp_win", camp), float(camp == winner))
        _seat_columns(values, c, seats)
        cast = sum(s["exile_ballots"] for s in seats)
        if cast:
            values[(c, "irp_game")] = sum(s["wolf_ballots"] for s in seats) / cast
            values[(c, "irp_games")] = 1.0
            chances = [s.get("irp_chance") for s in seats if s["exile_ballots"]]
            if None not in chances:
                values[(c, "irp_game_chance")] = sum(x or 0.0 for x in chances) / cast
                values[(c, "irp_game_chance_den")] = 1.0
        if row["exiles"] and any(s["camp"] == "good" for s in seats):
            bump(values, (c, "vss_game"), row["wolf_exiles"] / row["exiles"])
            values[(c, "vss_games")] = 1.0
            if row.get("exile_chance") is not None:
                bump(values, (c, "vss_game_chance"), (row["exile_chance"] or 0.0) / row["exiles"])
                values[(c, "vss_game_chance_den")] = 1.0
        return score

    def add_all(self, rows: Iterable[GameRow]) -> "Aggregator":
        for row in rows:
            self.add(row)
        return self

    @property
    def contestants(self) -> list[str]:
        return sorted(self.names)


def _camp(role: str) -> str:
    return camp_of(role).value


@dataclass
class Base:
    """The rates of every seat in the report: the outcome metrics' no-influence level."""

    camp_win: dict[str, float] = field(default_factory=dict)
    survival: dict[str, float] = field(default_factory=dict)
    key_survival: float | None = None

    @classmethod
    def of(cls, sums: Sums) -> "Base":
        games, _ = sums.get((EVERYONE, "games"))
        base = cls()
        for camp in ("good", "wolf"):
            base.camp_win[camp] = sums.get((EVERYONE, "won", camp))[0] / games if games else 0.0
        key_alive = key_seats = 0.0
        for key in sums.index:
            if isinstance(key, tuple) and key[:2] == (EVERYONE, "seats"):
                role = key[2]
                seats, alive = sums.get(key)[0], sums.get((EVERYONE, "alive", role))[0]
                base.survival[role] = alive / seats
                if role in KEY_ROLES:
                    key_alive, key_seats = key_alive + alive, key_seats + seats
        base.key_survival = key_alive / key_seats if key_seats else None
        return base


def _wilson_cell(sums: Sums, num: Hashable, den: Hashable, chance: float | None) -> Cell:
    wins, n = sums.get(num)[0], sums.get(den)[0]
    if n <= 0:
        return empty(chance)
    lo, hi = wilson(wins, n)
    return Cell(value=wins / n, lo=lo, hi=hi, n=n, games=sums.games_with(den), chance=chance)


def _roles_of(sums: Sums, c: str, kind: str) -> list[str]:
    """The third parts of the keys (c, kind, x): roles, camps, opponents."""
    return sorted(
        k[2] for k in sums.index if isinstance(k, tuple) and len(k) == 3 and k[:2] == (c, kind)
    )


def _balanced(sums: Sums, c: str, roles: list[str], base: Base) -> Cell:
    if not roles:
        return empty()
    rates = [
        divide(sums.get((c, "role_win", r))[1], sums.get((c, "role_held", r))[1]) for r in roles
    ]
    point = [sums.get((c, "role_win", r))[0] / sums.get((c, "role_held", r))[0] for r in roles]
    chance = sum(base.camp_win[_camp(r)] for r in roles) / len(roles)
    games = sums.games_with((c, "games"))
    # NaN where a resample drew no game of some role: the mean is then undefined.
    return from_samples(sum(point) / len(point), np.mean(rates, axis=0), len(roles), games, chance)


def _beside_chance(
    sums: Sums, c: str, num: tuple[str, ...], den: tuple[str, ...], chance: str, *key: str
) -> Cell:
    """num/den for contestant c, with its chance level kept as `chance` and `chance`_den."""
    chance_level = chance_ratio(sums, (c, chance, *key), (c, f"{chance}_den", *key))
    return proportion(sums, (c, *num), (c, *den), chance_level)


def contestant_metrics(name: str, sums: Sums, base: Base, unpriced: bool = False) -> dict[str, Any]:
    """Every per-contestant number, JSON-ready: cells of value, interval, n, games, chance."""
    c = name
    games = int(sums.get((c, "games"))[0])
    held = _roles_of(sums, c, "role_held")
    good_share, wolf_share = sums.get((c, "good_share"))[0], sums.get((c, "wolf_share"))[0]
    win_chance = (
        (good_share * base.camp_win["good"] + wolf_share * base.camp_win["wolf"]) / games
        if games
        else None
    )
    survival = {
        r: proportion(sums, (c, "alive", r), (c, "seats", r), base.survival.get(r))
        for r in _roles_of(sums, c, "seats")
    }
    kpi: dict[str, Cell] = {}
    for role in KPI_NAMES:
        chance = (
            base.survival.get(role)
            if role == "werewolf"
            else chance_ratio(sums, (c, "kpi_chance", role), (c, "kpi_chance_den", role))
        )
        kpi[role] = proportion(sums, (c, "kpi_num", role), (c, "kpi_den", role), chance)
    metrics: dict[str, Any] = {
        "contestant": name,
        "games": games,
        "win": _wilson_cell(sums, (c, "win"), (c, "games"), win_chance),
        "balanced_win_rate": _balanced(sums, c, held, base),
        "win_by_role": {
            r: _wilson_cell(sums, (c, "role_win", r), (c, "role_held", r), base.camp_win[_camp(r)])
            for r in held
        },
        "win_by_camp": {
            camp: _wilson_cell(
                sums, (c, "camp_win", camp), (c, "camp_held", camp), base.camp_win[camp]
            )
            for camp in _roles_of(sums, c, "camp_held")
        },
        "key_role_survival": proportion(
            sums, (c, "key_alive"), (c, "key_seats"), base.key_survival
        ),
        "survival_by_role": survival,
        "wolf_survival": survival.get("werewolf", empty(base.survival.get("werewolf"))),
        "irp_ballot": _beside_chance(sums, c, ("wolf_ballots",), ("exile_ballots",), "irp_chance"),
        "vss_ballot": _beside_chance(sums, c, ("vss_hits",), ("vss_ballots",), "vss_chance"),
        "irp_game": _beside_chance(sums, c, ("irp_game",), ("irp_games",), "irp_game_chance"),
        "vss_game": _beside_chance(sums, c, ("vss_game",), ("vss_games",), "vss_game_chance"),
        "role_kpi": kpi,
        "decisions": int(sums.get((c, "decisions"))[0]),
        "cost_complete": not unpriced,
        "blunders": {
            m: _beside_chance(sums, c, ("blunders", m), ("opportunities", m), "blunder_chance", m)
            for m in BLUNDER_METRICS
        },
        "head_to_head": {
            other: proportion(sums, (c, "h2h", other), (c, "h2h_games", other), 0.5)
            for other in _roles_of(sums, c, "h2h_games")
        },
    }
    for metric, column in PER_DECISION.items():
        share = proportion if metric in DECISION_SHARES else ratio
        metrics[metric] = share(sums, (c, column), (c, "decisions"), 0.0)
    # No chance level: a random player writes no text.
    metrics["out_of_character"] = proportion(sums, (c, "out_of_character"), (c, "texts"), None)
    for metric, column in PER_GAME.items():
        metrics[metric] = ratio(sums, (c, column), (c, "games"), 0.0)
    return metrics
