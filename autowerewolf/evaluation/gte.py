"""Game-theoretic evaluation (GTE) ratings, as in Kaggle's Game Arena Werewolf evaluation
with polarix: a max-entropy correlated equilibrium (CE) of a three-player game between a
"task" player that picks a role and two contestant players compared on it.

The game (polarix `agent_vs_task_game(normalizer="winrate")`): for role t and contestants
a, b with role win rates m and standard errors s, wr[t, a, b] = Phi((m_ta - m_tb) /
sqrt(s_ta^2 + s_tb^2)) (each s at least 1e-6). Contestant a gets wr[t, a, b], contestant
b gets wr[t, b, a], and the task player gets |2 wr - 1|: it prefers roles that separate.

The solve (polarix `ce_maxent`): the joint distribution over (t, a, b) of maximal entropy
whose CE gains are all <= 0, found through its convex dual: minimise
logsumexp(logits(lambda)) + 1e-6 * sum(lambda) over lambda >= 0, with scipy's L-BFGS-B.
A strategy's rating is its expected payoff against the equilibrium's other players minus
the equilibrium payoff (<= 0 at a CE; 0 for every strategy the equilibrium plays).

polarix itself pulls jax, optax, distrax and tfp-nightly; this module needs numpy and
scipy only. tests/evaluation/test_gte.py compares it with polarix where the `gte` extra
is installed.
"""

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.optimize import minimize
from scipy.special import logsumexp, ndtr
from threadpoolctl import threadpool_limits

from autowerewolf.evaluation.metrics import GameTeams

MIN_STDDEV = 1e-6
L1_WEIGHT = 1e-6  # polarix's default weight decay of the duals: keeps them finite
RESAMPLES = 200  # each resample is a solve: fewer than Bradley-Terry's 1,000


def winrate_game(mean: np.ndarray, stddev: np.ndarray) -> np.ndarray:
    """Payoffs [3, roles, contestants, contestants] from role x contestant win rates."""
    scale = np.maximum(stddev, MIN_STDDEV) ** 2
    wr = ndtr(
        (mean[:, :, None] - mean[:, None, :]) / np.sqrt(scale[:, :, None] + scale[:, None, :])
    )
    return np.stack([np.abs(2 * wr - 1), wr, wr.transpose(0, 2, 1)])


def _gains(payoffs: np.ndarray) -> list[np.ndarray]:
    """Per player p, G[s', x] = u_p(x) - u_p(s', x_-p): what p loses by deviating to s'."""
    gains = []
    for p, u in enumerate(payoffs):
        deviate = np.expand_dims(np.moveaxis(u, p, 0), axis=p + 1)
        gains.append(u[None] - deviate)
    return gains


@dataclass(frozen=True)
class Equilibrium:
    joint: np.ndarray  # [strategies of player 0, player 1, ...]
    ratings: list[np.ndarray]  # per player, per strategy
    duals: np.ndarray  # the solution, to warm-start a nearby solve


def max_entropy_ce(payoffs: np.ndarray, start: np.ndarray | None = None) -> Equilibrium:
    """The maximum-entropy correlated equilibrium of a normal-form game."""
    gains = _gains(payoffs)
    shape = payoffs.shape[1:]
    # One dual per (player, deviation s', recommendation s) with s' != s.
    masks = [~np.eye(n, dtype=bool) for n in shape]
    sizes = [int(m.sum()) for m in masks]

    def unpack(x: np.ndarray) -> list[np.ndarray]:
        duals, at = [], 0
        for n, mask, size in zip(shape, masks, sizes, strict=True):
            dual = np.zeros((n, n))
            dual[mask] = x[at : at + size]
            duals.append(dual)
            at += size
        return duals

    def broadcast(dual: np.ndarray, p: int) -> np.ndarray:
        """dual[s', x_p] shaped to multiply G_p[s', x]."""
        return dual.reshape((dual.shape[0], *(n if i == p else 1 for i, n in enumerate(shape))))

    def logits(duals: list[np.ndarray]) -> np.ndarray:
        return sum(
            (
                (broadcast(d, p) * g).sum(axis=0)
                for p, (d, g) in enumerate(zip(duals, gains, strict=True))
            ),
            np.zeros(shape),
        )

    def expected_gains(joint: np.ndarray) -> list[np.ndarray]:
        """[s', s]: expected gain of p deviating to s' when told s (the dual's gradient)."""
        out = []
        for p, g in enumerate(gains):
            axes = tuple(i + 1 for i in range(len(shape)) if i != p)
            out.append((joint[None] * g).sum(axis=axes))
        return out

    def loss(x: np.ndarray) -> tuple[float, np.ndarray]:
        z = logits(unpack(x))
        total = logsumexp(z)
        joint = np.exp(z - total)
        grads = [e[m] for e, m in zip(expected_gains(joint), masks, strict=True)]
        return float(total + L1_WEIGHT * x.sum()), np.concatenate(grads) + L1_WEIGHT

    x0 = np.zeros(sum(sizes)) if start is None else start
    bounds = [(0.0, None)] * len(x0)
    options = {"maxiter": 5000, "ftol": 1e-12, "gtol": 1e-7}
    # OpenBLAS's threads make L-BFGS-B ~20x slower on these tiny problems on a busy machine.
    with threadpool_limits(limits=1, user_api="blas"):
        x = minimize(loss, x0, jac=True, method="L-BFGS-B", bounds=bounds, options=options).x
    z = logits(unpack(x))
    joint = np.exp(z - logsumexp(z))
    # Rating of s': sum over s of the gain of deviating to s' (polarix: -gradient, row sums).
    ratings = [-e.sum(axis=1) for e in expected_gains(joint)]
    return Equilibrium(joint, ratings, x)


@dataclass(frozen=True)
class RoleTable:
    roles: list[str]
    mean: np.ndarray  # [roles, contestants]: win rate when holding the role
    stddev: np.ndarray  # its standard error


@dataclass(frozen=True)
class RoleGames:
    """Per game and (role, contestant) cell: whether the contestant held the role (a game
    counts once per role held) and whether that role's camp won (a draw wins nothing)."""

    roles: list[str]
    held: np.ndarray  # [games, roles * contestants]
    won: np.ndarray

    def table(self, weights: np.ndarray) -> RoleTable | None:
        """The table for games counted `weights` times; None if a cell has no game."""
        n, wins = weights @ self.held, weights @ self.won
        if not self.roles or (n == 0).any():
            return None
        mean = wins / n
        # np.std(ddof=1) / sqrt(n) of 0/1 values; 0 for one game, as Kaggle feeds polarix.
        spread = np.sqrt(mean * (1 - mean) / np.maximum(n - 1, 1)) * (n > 1)
        shape = (len(self.roles), -1)
        return RoleTable(self.roles, mean.reshape(shape), spread.reshape(shape))


def role_games(teams: Sequence[GameTeams], names: Sequence[str]) -> RoleGames:
    """Only the roles every contestant held."""
    held_by: dict[str, set[str]] = defaultdict(set)
    for t in teams:
        for name, role in t.roles:
            held_by[role].add(name)
    roles = sorted(r for r, who in held_by.items() if who >= set(names))
    column = {(r, n): i * len(names) + j for i, r in enumerate(roles) for j, n in enumerate(names)}
    held = np.zeros((len(teams), len(column)))
    won = np.zeros_like(held)
    for g, t in enumerate(teams):
        for name, role in t.roles:
            if (role, name) in column:
                held[g, column[(role, name)]] = 1
                won[g, column[(role, name)]] = t.outcome == (0.0 if role == "werewolf" else 1.0)
    return RoleGames(roles, held, won)


def role_table(teams: Sequence[GameTeams], names: Sequence[str]) -> RoleTable | None:
    """Win rate and its standard error per (role, contestant), for the roles every
    contestant held; None if there is none."""
    return role_games(teams, names).table(np.ones(len(teams)))


@dataclass(frozen=True)
class GTEResult:
    names: list[str]
    roles: list[str]
    rating: np.ndarray  # per contestant
    lo: np.ndarray
    hi: np.ndarray
    weight: np.ndarray  # the contestant's probability in the equilibrium
    role_rating: np.ndarray  # the task player's rating of each role
    resamples: int  # bootstrap resamples that held every (role, contestant) cell


def gte_ratings(
    teams: Sequence[GameTeams], names: Sequence[str], resamples: int = RESAMPLES, seed: int = 0
) -> GTEResult | None:
    """Ratings with 95% percentile intervals from a bootstrap over games; None when no
    role was held by every contestant."""
    cells = role_games(teams, names)
    table = cells.table(np.ones(len(teams)))
    if table is None:
        return None
    full = max_entropy_ce(winrate_game(table.mean, table.stddev))
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(len(teams), np.full(len(teams), 1 / len(teams)), size=resamples)
    boot = []
    for weights in draws.astype(float):
        t = cells.table(weights)
        if t is not None:
            solved = max_entropy_ce(winrate_game(t.mean, t.stddev), start=full.duals)
            boot.append(solved.ratings[1])
    lo, hi = np.percentile(np.array(boot), [2.5, 97.5], axis=0) if boot else (full.ratings[1],) * 2
    return GTEResult(
        names=list(names),
        roles=table.roles,
        rating=full.ratings[1],
        lo=lo,
        hi=hi,
        weight=full.joint.sum(axis=(0, 2)),
        role_rating=full.ratings[0],
        resamples=len(boot),
    )


def gte_json(result: GTEResult | None) -> dict[str, Any] | None:
    """The ratings as the report's metrics.json stores them (None: not computable)."""
    if result is None:
        return None
    return {
        "roles": result.roles,
        "resamples": result.resamples,
        "ratings": [
            {
                "contestant": name,
                "rating": float(result.rating[i]),
                "lo": float(result.lo[i]),
                "hi": float(result.hi[i]),
                "weight": float(result.weight[i]),
            }
            for i, name in enumerate(result.names)
        ],
        "role_ratings": {r: float(result.role_rating[i]) for i, r in enumerate(result.roles)},
    }


def gte_rows(gte: dict[str, Any]) -> list[list[str]]:
    """Report table rows, best first: contestant, rating, interval, equilibrium weight."""
    ranked = sorted(gte["ratings"], key=lambda r: -r["rating"])
    return [
        [
            r["contestant"],
            f"{r['rating']:+.4f}",
            f"[{r['lo']:+.4f}, {r['hi']:+.4f}]",
            f"{r['weight']:.3f}",
        ]
        for r in ranked
    ]
