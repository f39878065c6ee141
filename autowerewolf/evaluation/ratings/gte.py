"""Game-theoretic evaluation (GTE) ratings, as in Kaggle's Game Arena Werewolf evaluation
with polarix: a max-entropy correlated equilibrium (CE) of a three-player game between a
"task" player that picks a role and two contestant players compared on it.

The game (polarix `agent_vs_task_game(normalizer="winrate")`): for role t and contestants
a, b with role win rates m and standard errors s, wr[t, a, b] = Phi((m_ta - m_tb) /
sqrt(s_ta^2 + s_tb^2)) (each s at least 1e-6). Contestant a gets wr[t, a, b], contestant
b gets wr[t, b, a], and the task player gets |2 wr - 1|: it prefers roles that separate.

The solve (polarix `ce_maxent`): the joint distribution over (t, a, b) of maximal entropy
whose CE gains are all <= 0, found through its convex dual: minimise
logsumexp(A lambda) + 1e-6 * sum(lambda) over lambda >= 0, where column (p, s', s) of A
holds player p's gain from obeying recommendation s rather than deviating to s'. Solved
by Bertsekas' projected Newton method (the Hessian of a logsumexp is cheap at this size):
about 10-30 steps where L-BFGS-B took thousands on the near-degenerate tables a bootstrap
draws (a dominated strategy sends its duals towards infinity). A strategy's rating is its
expected payoff against the equilibrium's other players minus the equilibrium payoff
(<= 0 at a CE; 0 for every strategy the equilibrium plays).

polarix itself pulls jax, optax, distrax and tfp-nightly; this module needs numpy and
scipy only. tests/evaluation/test_gte.py compares it with polarix where the `gte` extra
is installed.
"""

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.linalg import LinAlgError, cho_factor, cho_solve
from scipy.special import ndtr
from threadpoolctl import threadpool_limits

from autowerewolf.evaluation.bootstrap import Resamples
from autowerewolf.evaluation.report.metrics import GameTeams
from autowerewolf.rules.roles import on_wolf_side

MIN_STDDEV = 1e-6
L1_WEIGHT = 1e-6  # polarix's default weight decay of the duals: keeps them finite
RESAMPLES = 200  # each resample is a solve (~10 ms at 8 contestants): the report's first 200


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


def constraint_matrix(gains: Sequence[np.ndarray]) -> np.ndarray:
    """A[x, (p, s', s)] = G_p[s', x] where x_p = s, else 0: the logits of the joint are A
    lambda. Columns run over players, then deviations s', then recommendations s != s'."""
    shape = gains[0].shape[1:]
    columns = []
    for p, g in enumerate(gains):
        for deviation in range(shape[p]):
            for told in range(shape[p]):
                if told == deviation:
                    continue
                column = np.zeros(shape)
                where = tuple(told if i == p else slice(None) for i in range(len(shape)))
                column[where] = g[deviation][where]
                columns.append(column.ravel())
    return np.array(columns).T


@dataclass(frozen=True)
class Equilibrium:
    joint: np.ndarray  # [strategies of player 0, player 1, ...]
    ratings: list[np.ndarray]  # per player, per strategy
    duals: np.ndarray  # the dual solution (one per player, deviation, recommendation)
    converged: bool  # the projected gradient fell below TOLERANCE


TOLERANCE = 1e-9  # on the dual's projected gradient: expected gains, in payoff units
MAX_STEPS = 300
ARMIJO = 1e-4
# Levenberg-Marquardt damping of the Newton step: smaller after a full step, larger after a
# step the line search had to shorten (halved the backtracking on near-tied tables).
DAMPING = (1e-4, 1e-12, 1e3)  # start, floor, ceiling
LOOSEN, TIGHTEN = 3.0, 4.0


def _logsumexp(z: np.ndarray) -> float:
    # scipy's logsumexp checks its arguments at a cost larger than the sum itself here.
    top = float(z.max())
    return top + float(np.log(np.exp(z - top).sum()))


def _dual_value(a: np.ndarray, duals: np.ndarray) -> float:
    return _logsumexp(a @ duals) + L1_WEIGHT * float(duals.sum())


def _newton_step(
    a: np.ndarray, duals: np.ndarray, p: np.ndarray, grad: np.ndarray, damping: float
) -> np.ndarray:
    """Bertsekas' projected Newton direction: duals at (or near) zero whose gradient
    pushes them down are sent to zero; the others take a damped Newton step on their own
    Hessian."""
    projected = np.where(duals > 0, grad, np.minimum(grad, 0))
    held = (duals <= min(1e-3, np.abs(projected).max())) & (grad > 0)
    free = ~held
    weighted = a[:, free] * p[:, None]
    mean = weighted.sum(axis=0)
    hess = a[:, free].T @ weighted - np.outer(mean, mean)
    # logsumexp is flat along directions that leave the joint unchanged: never singular.
    hess[np.diag_indices_from(hess)] += damping
    step = np.zeros_like(duals)
    try:
        step[free] = -cho_solve(cho_factor(hess), grad[free])
    except LinAlgError:
        step[free] = -np.linalg.lstsq(hess, grad[free], rcond=None)[0]
    if grad[free] @ step[free] >= 0:  # rounding spoilt the direction: steepest descent
        step[free] = -grad[free]
    step[held] = -duals[held]
    return step


def _solve_dual(a: np.ndarray, start: np.ndarray) -> tuple[np.ndarray, bool]:
    duals = start.copy()
    damping, floor, ceiling = DAMPING
    for _ in range(MAX_STEPS):
        z = a @ duals
        p = np.exp(z - _logsumexp(z))
        grad = a.T @ p + L1_WEIGHT
        if np.abs(np.where(duals > 0, grad, np.minimum(grad, 0))).max() < TOLERANCE:
            return duals, True
        step = _newton_step(a, duals, p, grad, damping)
        value, alpha = _dual_value(a, duals), 1.0
        while alpha > 1e-12:  # Armijo backtracking along the projected path
            trial = np.maximum(duals + alpha * step, 0.0)
            if _dual_value(a, trial) <= value + ARMIJO * grad @ (trial - duals):
                break
            alpha /= 2
        else:
            return duals, False  # no descent left at this precision
        damping = max(damping / LOOSEN, floor) if alpha == 1 else min(damping * TIGHTEN, ceiling)
        duals = trial
    return duals, False


def max_entropy_ce(payoffs: np.ndarray) -> Equilibrium:
    """The maximum-entropy correlated equilibrium of a normal-form game."""
    gains = _gains(payoffs)
    shape = payoffs.shape[1:]
    # OpenBLAS's threads make these tiny products ~20x slower on a busy machine.
    with threadpool_limits(limits=1, user_api="blas"):
        a = constraint_matrix(gains)
        # From zero: a resample's solve started at the full table's duals took 2-5x longer.
        duals, converged = _solve_dual(a, np.zeros(a.shape[1]))
        z = a @ duals
        joint = np.exp(z - _logsumexp(z)).reshape(shape)
        # Rating of s': p's expected payoff playing s' against the others' equilibrium play,
        # minus the equilibrium payoff (polarix: minus the gradient's row sums).
        ratings = [-np.tensordot(g, joint, axes=len(shape)) for g in gains]
    return Equilibrium(joint, ratings, duals, converged)


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
        return self.table_of(weights @ self.held, weights @ self.won)

    def tables(self, draws: np.ndarray) -> list[RoleTable | None]:
        """The table of each row of `draws` (one matrix product for all of them)."""
        return [
            self.table_of(n, w) for n, w in zip(draws @ self.held, draws @ self.won, strict=True)
        ]

    def table_of(self, n: np.ndarray, wins: np.ndarray) -> RoleTable | None:
        """The table from each cell's games and wins; None if a cell has no game."""
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
                won[g, column[(role, name)]] = t.outcome == (0.0 if on_wolf_side(role) else 1.0)
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
    weight_lo: np.ndarray
    weight_hi: np.ndarray
    role_rating: np.ndarray  # the task player's rating of each role
    role_lo: np.ndarray
    role_hi: np.ndarray
    resamples: int  # bootstrap resamples that held every (role, contestant) cell
    unconverged: int  # solves (the full one included) stopped before the tolerance


def _interval(boot: list[np.ndarray], point: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if not boot:
        return point, point
    lo, hi = np.percentile(np.array(boot), [2.5, 97.5], axis=0)
    return lo, hi


def gte_ratings(
    teams: Sequence[GameTeams],
    names: Sequence[str],
    resamples: Resamples,
    count: int = RESAMPLES,
    progress: Callable[[int], None] | None = None,
) -> GTEResult | None:
    """Ratings, equilibrium weights and role ratings with 95% percentile intervals from the
    first `count` of the report's resamples of the games; None when no role was held by
    every contestant."""
    cells = role_games(teams, names)
    table = cells.table(np.ones(len(teams)))
    if table is None:
        return None
    full = max_entropy_ce(winrate_game(table.mean, table.stddev))
    ratings, weights, roles = [], [], []
    unconverged = int(not full.converged)
    for t in cells.tables(resamples.first(count)):
        if t is not None:
            solved = max_entropy_ce(winrate_game(t.mean, t.stddev))
            ratings.append(solved.ratings[1])
            weights.append(solved.joint.sum(axis=(0, 2)))
            roles.append(solved.ratings[0])
            unconverged += not solved.converged
        if progress is not None:
            progress(1)
    weight = full.joint.sum(axis=(0, 2))
    return GTEResult(
        names=list(names),
        roles=table.roles,
        rating=full.ratings[1],
        lo=_interval(ratings, full.ratings[1])[0],
        hi=_interval(ratings, full.ratings[1])[1],
        weight=weight,
        weight_lo=_interval(weights, weight)[0],
        weight_hi=_interval(weights, weight)[1],
        role_rating=full.ratings[0],
        role_lo=_interval(roles, full.ratings[0])[0],
        role_hi=_interval(roles, full.ratings[0])[1],
        resamples=len(ratings),
        unconverged=unconverged,
    )


def gte_json(result: GTEResult | None) -> dict[str, Any] | None:
    """The ratings as the report's metrics.json stores them (None: not computable)."""
    if result is None:
        return None
    return {
        "roles": result.roles,
        "resamples": result.resamples,
        "unconverged": result.unconverged,
        "ratings": [
            {
                "contestant": name,
                "rating": float(result.rating[i]),
                "lo": float(result.lo[i]),
                "hi": float(result.hi[i]),
                "weight": float(result.weight[i]),
                "weight_lo": float(result.weight_lo[i]),
                "weight_hi": float(result.weight_hi[i]),
            }
            for i, name in enumerate(result.names)
        ],
        "role_ratings": {
            r: {
                "rating": float(result.role_rating[i]),
                "lo": float(result.role_lo[i]),
                "hi": float(result.role_hi[i]),
            }
            for i, r in enumerate(result.roles)
        },
    }


def gte_rows(gte: dict[str, Any]) -> list[list[str]]:
    """Report table rows, best first: contestant, rating, interval, equilibrium weight."""
    ranked = sorted(gte["ratings"], key=lambda r: -r["rating"])
    return [
        [
            r["contestant"],
            f"{r['rating']:+.4f}",
            f"[{r['lo']:+.4f}, {r['hi']:+.4f}]",
            f"{r['weight']:.3f} [{r['weight_lo']:.3f}, {r['weight_hi']:.3f}]",
        ]
        for r in ranked
    ]
