"""Ratings on synthetic games with a known truth."""

import numpy as np
import pytest

from autowerewolf.evaluation.bootstrap import Resamples
from autowerewolf.evaluation.ratings.outcomes import (
    _collapse,
    _fit,
    _newton_batch,
    bradley_terry,
    design,
    openskill,
    p_above,
    role_counts,
    team_elo,
    team_elo_intervals,
)
from autowerewolf.evaluation.report.metrics import GameTeams

NAMES = ["strong", "middle", "weak"]
TRUE = {"strong": 1.5, "middle": 0.0, "weak": -1.5}


def synthetic(n: int, seed: int = 3) -> list[GameTeams]:
    rng = np.random.default_rng(seed)
    games = []
    for _ in range(n):
        good_holder, wolf_holder = rng.choice(NAMES, size=2, replace=False)
        z = -0.3 + TRUE[good_holder] - TRUE[wolf_holder]
        outcome = float(rng.random() < 1 / (1 + np.exp(-z)))
        games.append(GameTeams({good_holder: 8}, {wolf_holder: 4}, outcome, {}))
    return games


def test_bradley_terry_recovers_the_order_with_separated_intervals() -> None:
    bt = bradley_terry(synthetic(600), NAMES, Resamples(600, 300, 1))
    assert list(np.argsort(-bt.skill)) == [0, 1, 2]
    assert bt.lo[0] > bt.hi[1] and bt.lo[1] > bt.hi[2]
    assert bt.camp_intercept == pytest.approx(-0.3, abs=0.35)
    assert bt.p_above[0, 2] == 1.0 and bt.p_above[2, 0] == 0.0
    assert sum(bt.skill) == pytest.approx(0, abs=1e-6)  # the ridge pins the offset


def test_fit_does_not_depend_on_game_order() -> None:
    games = synthetic(200)
    forward = bradley_terry(games, NAMES, Resamples(200, 400, 5))
    backward = bradley_terry(games[::-1], NAMES, Resamples(200, 400, 5))
    assert np.allclose(forward.skill, backward.skill)
    # The resamples draw other games in the other order: the same interval up to its
    # Monte Carlo error.
    assert np.allclose(forward.lo, backward.lo, atol=0.15)


def test_batched_newton_matches_scipy() -> None:
    x, y = design(synthetic(300), NAMES)
    xs, ys, counts, _ = _collapse(x, y)
    scipy_fit = _fit(xs, ys, counts)
    newton = _newton_batch(xs, ys, counts[None, :], np.zeros(len(NAMES) + 1))[0]
    assert np.allclose(scipy_fit, newton, atol=1e-4)


def test_one_sided_data_stays_finite() -> None:
    games = [GameTeams({"strong": 8}, {"weak": 4}, 1.0, {}) for _ in range(20)]
    games += [GameTeams({"weak": 8}, {"strong": 4}, 0.0, {}) for _ in range(20)]
    bt = bradley_terry(games, ["strong", "weak"], Resamples(40, 100, 0))
    assert np.all(np.isfinite(bt.skill)) and bt.skill[0] > 0


def test_baselines_point_the_same_way() -> None:
    games = synthetic(400)
    elo = team_elo(games, NAMES)
    skill = openskill(games, NAMES)
    assert elo["strong"] > elo["middle"] > elo["weak"]
    assert skill["strong"][0] > skill["weak"][0]


def test_team_elo_by_hand_and_its_interval_over_games() -> None:
    # Game 1: A (good) beats B: expected 0.5, delta 16. Game 2: B (good) against A, wolves
    # win (outcome 0): good 1484, wolves 1516, expected 1 / (1 + 10^(32/400)) = 0.4540.
    games = [GameTeams({"A": 8}, {"B": 4}, 1.0, {}), GameTeams({"B": 8}, {"A": 4}, 0.0, {})]
    second = 32 * (0 - 1 / (1 + 10 ** (32 / 400)))
    assert team_elo(games, ["A", "B"]) == pytest.approx({"A": 1516 - second, "B": 1484 + second})
    many = synthetic(300)
    elo = team_elo(many, NAMES)
    intervals = team_elo_intervals(many, NAMES, Resamples(300, 200, 0))
    for name in NAMES:
        lo, hi = intervals[name]
        assert lo < elo[name] < hi
    assert intervals["strong"][0] > intervals["weak"][1]


def test_p_above_counts_ties_half() -> None:
    """Two contestants whose fitted skills differ by rounding noise (the issue: 0.233 for
    a difference of 2.5e-10, ties counted against A) rank above each other half the time;
    a real lead counts whole."""
    rng = np.random.default_rng(0)
    tied = rng.normal(size=(400, 1)) + np.array([[0.0, 2.5e-10]]) * rng.choice([-1, 1], (400, 1))
    assert p_above(tied)[0, 1] == pytest.approx(0.5)
    assert p_above(tied)[1, 0] == pytest.approx(0.5)
    ahead = np.column_stack([np.full(4, 1.0), [0.0, 0.0, 1.0, 2.0]])
    assert p_above(ahead)[0, 1] == pytest.approx((2 + 0.5) / 4)  # two leads, a tie, a loss
    assert p_above(ahead)[0, 1] + p_above(ahead)[1, 0] == pytest.approx(1.0)


def test_by_role_counts_the_games_and_seats_each_skill_rests_on() -> None:
    games = [
        GameTeams(
            {"a": 2}, {"b": 1}, 1.0, {("a", "seer"): 1, ("a", "villager"): 1, ("b", "werewolf"): 1}
        ),
        GameTeams({"b": 2}, {"a": 1}, 0.0, {("b", "villager"): 2, ("a", "werewolf"): 1}),
        GameTeams({"a": 2}, {"b": 1}, 1.0, {("a", "villager"): 2, ("b", "werewolf"): 1}),
    ]
    counts = role_counts(games)
    assert counts[("a", "villager")] == (2, 3)
    assert counts[("b", "werewolf")] == (2, 2)
    assert counts[("a", "seer")] == (1, 1)
