"""Ratings from game outcomes.

Headline: a Bradley-Terry (logistic) model fitted by maximum likelihood, which does not
depend on the order of the games:

    logit P(good wins game g) = alpha + sum_c theta_c * (good_gc / n_good - wolf_gc / n_wolf)

`alpha` absorbs the board's camp imbalance; `theta_c` is contestant c's skill in logits
for taking over a whole camp. A weak ridge prior (RIDGE) keeps the fit finite when one
contestant always wins, and pins the otherwise free common offset (thetas sum to zero).
With `by_role`, each (contestant, role) pair gets its own skill.

Uncertainty: a bootstrap over games, the report's resamples (bootstrap.py): percentile
intervals, P(A ranks above B) and intervals of the skill differences.
Baselines: team Elo and OpenSkill (Plackett-Luce), both depending on game order.
"""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from openskill.models import PlackettLuce
from scipy.optimize import minimize

from autowerewolf.evaluation.bootstrap import Resamples
from autowerewolf.evaluation.report.metrics import GameTeams
from autowerewolf.rules.roles import on_wolf_side

RIDGE = 0.1
# Skills closer than this (in logits) are a tie: the fits converge to about 1e-9, so two
# contestants who play alike differ by rounding noise, which must not rank one above.
TIE_LOGITS = 1e-6
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


def _collapse(
    x: np.ndarray, y: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Identical games as one row with a count (the fits then scale with distinct rows),
    and each game's row."""
    rows, inverse, counts = np.unique(
        np.column_stack([x.round(12), y]), axis=0, return_inverse=True, return_counts=True
    )
    return rows[:, :-1], rows[:, -1], counts.astype(float), inverse.ravel()


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


OUTER_FLOATS = 4_000_000  # rows' outer products held at once (32 MB)


def _hessians(xa: np.ndarray, c: np.ndarray) -> np.ndarray:
    """X' diag(c_b) X for each row c_b of `c`: the rows' outer products weighted by one
    matrix product per block of rows (numpy's batched matmul and einsum are ~10x slower)."""
    k = xa.shape[1]
    block = max(1, OUTER_FLOATS // (k * k))
    hess = np.zeros((len(c), k * k))
    for at in range(0, len(xa), block):
        rows = xa[at : at + block]
        hess += c[:, at : at + block] @ (rows[:, :, None] * rows[:, None, :]).reshape(len(rows), -1)
    return hess.reshape(len(c), k, k)


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
        hess = _hessians(xa, weights * p * (1 - p)) + np.diag(ridge)
        # A resample where one camp always won has no finite intercept: keep it solvable.
        hess += 1e-9 * np.eye(xa.shape[1])
        step = np.linalg.solve(hess, grad[:, :, None])[:, :, 0]
        # Damped: a long step from a flat region could overshoot into overflow.
        step *= np.minimum(1.0, 5.0 / np.maximum(np.abs(step).max(axis=1), 1e-12))[:, None]
        params -= step
        if np.abs(step).max() < 1e-9:  # quadratic convergence: 3-5 steps from the full fit
            break
    return params


@dataclass(frozen=True)
class BTResult:
    names: list[str]
    camp_intercept: float
    skill: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    p_above: np.ndarray  # [a, b]: share of resamples where a's skill exceeds b's, ties half
    resamples: int
    boot: np.ndarray  # [resamples, contestants]: the skills fitted to each resample


def _bootstrap_fit(
    x: np.ndarray, y: np.ndarray, resamples: Resamples, count: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The fit to every game, and the skills fitted to each resample of the games (the
    first `count` resamples if given)."""
    xs, ys, counts, row_of_game = _collapse(x, y)
    full = _fit(xs, ys, counts)
    order = np.argsort(row_of_game, kind="stable")
    starts = np.searchsorted(row_of_game[order], np.arange(len(xs)))
    fits = []
    blocks = resamples.chunks() if count is None else [resamples.first(count)]
    for weights in blocks:
        # Game counts summed per distinct row: the batched fit's weights.
        draws = np.add.reduceat(weights[:, order], starts, axis=1)
        fits.append(_newton_batch(xs, ys, draws, full)[:, 1:])
    return full, np.vstack(fits) if fits else full[None, 1:]


def bradley_terry(
    teams: Sequence[GameTeams], names: Sequence[str], resamples: Resamples
) -> BTResult:
    """The fit, and the same fit on each of the report's resamples of the games."""
    full, boot = _bootstrap_fit(*design(teams, names), resamples)
    lo, hi = np.percentile(boot, [2.5, 97.5], axis=0)
    return BTResult(list(names), float(full[0]), full[1:], lo, hi, p_above(boot), len(boot), boot)


def p_above(boot: np.ndarray) -> np.ndarray:
    """[a, b]: the share of resamples (rows of `boot`) in which a's skill exceeds b's by
    more than TIE_LOGITS, ties counting half (so 0.5 for two who always tie)."""
    gap = boot[:, :, None] - boot[:, None, :]
    ahead = (gap > TIE_LOGITS).mean(axis=0)
    tied = (np.abs(gap) <= TIE_LOGITS).mean(axis=0)
    above: np.ndarray = ahead + 0.5 * tied
    return above


BY_ROLE_RESAMPLES = 200  # a parameter per (contestant, role): the report's first 200


def bradley_terry_by_role(
    teams: Sequence[GameTeams], resamples: Resamples, count: int = BY_ROLE_RESAMPLES
) -> dict[tuple[str, str], tuple[float, float, float]]:
    """A skill per (contestant, role) with its 95% interval over the first `count` of the
    report's resamples of the games; wolves' features count negative."""
    keys = sorted({k for t in teams for k in t.roles})
    index = {k: i for i, k in enumerate(keys)}
    x = np.zeros((len(teams), len(keys)))
    y = np.array([t.outcome for t in teams])
    for g, t in enumerate(teams):
        n_good, n_wolf = sum(t.good.values()), sum(t.wolf.values())
        for (name, role), n in t.roles.items():
            x[g, index[(name, role)]] = -n / n_wolf if on_wolf_side(role) else n / n_good
    full, boot = _bootstrap_fit(x, y, resamples, min(count, resamples.count))
    lo, hi = np.percentile(boot, [2.5, 97.5], axis=0)
    return {k: (float(full[1 + i]), float(lo[i]), float(hi[i])) for k, i in index.items()}


def role_counts(teams: Sequence[GameTeams]) -> dict[tuple[str, str], tuple[int, int]]:
    """(games, seats) of each (contestant, role): what a skill by role rests on."""
    counts: dict[tuple[str, str], tuple[int, int]] = {}
    for t in teams:
        for key, seats in t.roles.items():
            games, held = counts.get(key, (0, 0))
            counts[key] = (games + 1, held + seats)
    return counts


ELO_RESAMPLES = 200  # each replays every game: the report's first 200 resamples


def _elo(teams: Sequence[GameTeams], names: Sequence[str], counts: np.ndarray) -> np.ndarray:
    """Sequential team Elo, replayed once per row of `counts` (how many times each game is
    played, in game order; a resample of the games): [rows, contestants]."""
    index = {n: i for i, n in enumerate(names)}
    rating = np.full((len(counts), len(names)), ELO_START)
    for g, t in enumerate(teams):
        times = counts[:, g]
        if not times.any():
            continue
        good = np.array([index[c] for c in t.good])
        wolf = np.array([index[c] for c in t.wolf])
        good_share = np.array(list(t.good.values()), dtype=float) / sum(t.good.values())
        wolf_share = np.array(list(t.wolf.values()), dtype=float) / sum(t.wolf.values())
        for k in range(int(times.max())):  # a game drawn twice is played twice, in place
            gap = rating[:, wolf] @ wolf_share - rating[:, good] @ good_share
            delta = ELO_K * (t.outcome - 1 / (1 + 10 ** (gap / 400))) * (times > k)
            rating[:, good] += delta[:, None] * good_share
            rating[:, wolf] -= delta[:, None] * wolf_share
    return rating


def team_elo(teams: Sequence[GameTeams], names: Sequence[str]) -> dict[str, float]:
    """Sequential team Elo: a camp's rating is the seat-weighted mean of its members'."""
    played = _elo(teams, names, np.ones((1, len(teams))))[0]
    return {n: float(played[i]) for i, n in enumerate(names)}


def team_elo_intervals(
    teams: Sequence[GameTeams],
    names: Sequence[str],
    resamples: Resamples,
    count: int = ELO_RESAMPLES,
) -> dict[str, tuple[float, float]]:
    """95% percentile intervals of team Elo over the first `count` of the report's
    resamples of the games (each replayed in game order)."""
    boot = _elo(teams, names, resamples.first(min(count, resamples.count)))
    lo, hi = np.percentile(boot, [2.5, 97.5], axis=0)
    return {n: (float(lo[i]), float(hi[i])) for i, n in enumerate(names)}


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
