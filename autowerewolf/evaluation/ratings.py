"""Ratings from game outcomes.

Headline: a Bradley-Terry (logistic) model fitted by maximum likelihood, which does not
depend on the order of the games:

    logit P(good wins game g) = alpha + sum_c theta_c * (good_gc / n_good - wolf_gc / n_wolf)

`alpha` absorbs the board's camp imbalance; `theta_c` is contestant c's skill in logits
for taking over a whole camp. A weak ridge prior (RIDGE) keeps the fit finite when one
contestant always wins, and pins the otherwise free common offset (thetas sum to zero).
With `by_role`, each (contestant, role) pair gets its own skill.

Uncertainty: a bootstrap over games (percentile intervals and P(A ranks above B)).
Baselines: team Elo and OpenSkill (Plackett-Luce), both depending on game order.
"""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from openskill.models import PlackettLuce
from scipy.optimize import minimize

from autowerewolf.evaluation.metrics import GameTeams

RIDGE = 0.1
ELO_K = 32.0
ELO_START = 1500.0


def design(teams: Sequence[GameTeams], names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    index = {name: i for i, name in enumerate(names)}
    x = np.zeros((len(teams), len(names)))
    y = np.empty(len(teams))
    for g, t in enumerate(teams):
        n_good, n_wolf = sum(t.good.values()), sum(t.wolf.values())
        for name, n in t.good.items():
            x[g, index[name]] += n / n_good
        for name, n in t.wolf.items():
            x[g, index[name]] -= n / n_wolf
        y[g] = t.outcome
    return x, y


def _collapse(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Identical games as one row with a count: the fits then scale with distinct rows."""
    rows, counts = np.unique(np.column_stack([x.round(12), y]), axis=0, return_counts=True)
    return rows[:, :-1], rows[:, -1], counts.astype(float)


def _fit(
    x: np.ndarray, y: np.ndarray, w: np.ndarray, start: np.ndarray | None = None
) -> np.ndarray:
    """[alpha, theta...] maximising the weighted, ridge-penalised log-likelihood."""

    def loss(params: np.ndarray) -> tuple[float, np.ndarray]:
        z = params[0] + x @ params[1:]
        p = 0.5 * (1 + np.tanh(z / 2))  # the logistic function, without overflow warnings
        value = np.sum(w * (np.logaddexp(0, z) - y * z)) + 0.5 * RIDGE * params[1:] @ params[1:]
        r = w * (p - y)
        return float(value), np.concatenate([[r.sum()], x.T @ r + RIDGE * params[1:]])

    x0 = np.zeros(x.shape[1] + 1) if start is None else start
    fitted: np.ndarray = minimize(loss, x0, jac=True, method="L-BFGS-B").x
    return fitted


def _newton_batch(
    x: np.ndarray, y: np.ndarray, weights: np.ndarray, start: np.ndarray, steps: int = 25
) -> np.ndarray:
    """The same penalised fit as `_fit` for many weight vectors at once (one per row of
    `weights`): batched Newton steps cost far less than a thousand scipy calls."""
    xa = np.column_stack([np.ones(len(x)), x])
    ridge = np.full(xa.shape[1], RIDGE)
    ridge[0] = 0.0
    params = np.tile(start, (len(weights), 1))
    for _ in range(steps):
        p = 0.5 * (1 + np.tanh((params @ xa.T) / 2))
        grad = (weights * (p - y)) @ xa + ridge * params
        hess = np.einsum("bu,ui,uj->bij", weights * p * (1 - p), xa, xa) + np.diag(ridge)
        # A resample where one camp always won has no finite intercept: keep it solvable.
        hess += 1e-9 * np.eye(xa.shape[1])
        step = np.linalg.solve(hess, grad[:, :, None])[:, :, 0]
        # Damped: a long step from a flat region could overshoot into overflow.
        step *= np.minimum(1.0, 5.0 / np.maximum(np.abs(step).max(axis=1), 1e-12))[:, None]
        params -= step
        if np.abs(step).max() < 1e-10:
            break
    return params


@dataclass(frozen=True)
class BTResult:
    names: list[str]
    camp_intercept: float
    skill: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    p_above: np.ndarray  # [a, b]: share of resamples where a's skill exceeds b's
    resamples: int


def bradley_terry(
    teams: Sequence[GameTeams], names: Sequence[str], resamples: int = 1000, seed: int = 0
) -> BTResult:
    x, y = design(teams, names)
    xs, ys, counts = _collapse(x, y)
    full = _fit(xs, ys, counts)
    rng = np.random.default_rng(seed)
    n = int(counts.sum())
    draws = rng.multinomial(n, counts / n, size=resamples).astype(float)
    boot = _newton_batch(xs, ys, draws, full)[:, 1:]
    lo, hi = np.percentile(boot, [2.5, 97.5], axis=0)
    above = (boot[:, :, None] > boot[:, None, :]).mean(axis=0)
    return BTResult(list(names), float(full[0]), full[1:], lo, hi, above, resamples)


def bradley_terry_by_role(teams: Sequence[GameTeams]) -> dict[tuple[str, str], float]:
    """Point estimates of a skill per (contestant, role); wolves' features count negative."""
    keys = sorted({k for t in teams for k in t.roles})
    index = {k: i for i, k in enumerate(keys)}
    x = np.zeros((len(teams), len(keys)))
    y = np.array([t.outcome for t in teams])
    for g, t in enumerate(teams):
        n_good, n_wolf = sum(t.good.values()), sum(t.wolf.values())
        for (name, role), n in t.roles.items():
            x[g, index[(name, role)]] = -n / n_wolf if role == "werewolf" else n / n_good
    xs, ys, counts = _collapse(x, y)
    params = _fit(xs, ys, counts)
    return {k: float(params[1 + i]) for k, i in index.items()}


def team_elo(teams: Sequence[GameTeams], names: Sequence[str]) -> dict[str, float]:
    """Sequential team Elo: a camp's rating is the seat-weighted mean of its members'."""
    rating = dict.fromkeys(names, ELO_START)
    for t in teams:
        n_good, n_wolf = sum(t.good.values()), sum(t.wolf.values())
        good = sum(rating[c] * n for c, n in t.good.items()) / n_good
        wolf = sum(rating[c] * n for c, n in t.wolf.items()) / n_wolf
        delta = ELO_K * (t.outcome - 1 / (1 + 10 ** ((wolf - good) / 400)))
        for c, n in t.good.items():
            rating[c] += delta * n / n_good
        for c, n in t.wolf.items():
            rating[c] -= delta * n / n_wolf
    return rating


def openskill(teams: Sequence[GameTeams], names: Sequence[str]) -> dict[str, tuple[float, float]]:
    """Plackett-Luce (mu, sigma) per contestant; one rating object per seat, and each
    contestant moves by the mean of its seats' updates."""
    model = PlackettLuce()
    state = {c: (model.mu, model.sigma) for c in names}
    for t in teams:
        sides = [[c for c, n in side.items() for _ in range(n)] for side in (t.good, t.wolf)]
        ranks = [0.0, 0.0] if t.outcome == 0.5 else [1.0 - t.outcome, float(t.outcome)]
        rated = model.rate(
            [[model.rating(mu=state[c][0], sigma=state[c][1]) for c in side] for side in sides],
            ranks=ranks,
        )
        moved: dict[str, list[tuple[float, float]]] = {}
        for side, new in zip(sides, rated, strict=True):
            for c, r in zip(side, new, strict=True):
                moved.setdefault(c, []).append((r.mu - state[c][0], r.sigma))
        for c, updates in moved.items():
            mu = state[c][0] + float(np.mean([u[0] for u in updates]))
            state[c] = (mu, float(np.mean([u[1] for u in updates])))
    return state
