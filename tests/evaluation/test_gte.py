"""GTE ratings: the win-rate game and the max-entropy CE by hand, the projected Newton
solve at the dual's optimum, against polarix (the reference implementation:
`pip install -e ".[dev,eval,gte]" && pytest -m gte`), and the
report's GTE section rendered in headless Chromium."""

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import minimize

from autowerewolf.evaluation.bootstrap import Resamples
from autowerewolf.evaluation.ratings.gte import (
    L1_WEIGHT,
    _gains,
    constraint_matrix,
    gte_ratings,
    max_entropy_ce,
    role_table,
    winrate_game,
)
from autowerewolf.evaluation.report.build import build_report
from autowerewolf.evaluation.report.metrics import Aggregator, GameTeams
from autowerewolf.evaluation.tournament.results import iter_rows


def test_winrate_game_by_hand() -> None:
    # P(a beats b) = Phi((0.6 - 0.4) / sqrt(0.1^2 + 0.1^2)) = Phi(1.41421) = 0.921350
    payoffs = winrate_game(np.array([[0.6, 0.4]]), np.array([[0.1, 0.1]]))
    assert payoffs.shape == (3, 1, 2, 2)
    assert payoffs[1, 0, 0, 1] == pytest.approx(0.921350, abs=1e-6)
    assert payoffs[2, 0, 0, 1] == pytest.approx(1 - 0.921350, abs=1e-6)  # b's payoff
    assert payoffs[1, 0, 0, 0] == 0.5 and payoffs[0, 0, 0, 0] == 0.0  # a mirror says nothing
    assert payoffs[0, 0, 0, 1] == pytest.approx(2 * 0.921350 - 1, abs=1e-6)  # the task's


def test_max_entropy_ce_of_small_games_by_hand() -> None:
    # Matching pennies: the only correlated equilibrium is uniform; nobody gains by deviating.
    pennies = np.array([[[1, -1], [-1, 1]], [[-1, 1], [1, -1]]], dtype=float)
    eq = max_entropy_ce(pennies)
    assert eq.joint == pytest.approx(np.full((2, 2), 0.25), abs=1e-4)
    assert eq.ratings[0] == pytest.approx([0, 0], abs=1e-4)
    # Prisoner's dilemma (C, D): defecting dominates, so all mass goes to (D, D); C's rating
    # is u(C, D) - u(D, D) = 0 - 1 = -1 and D's is 0, for both players.
    mine = np.array([[3, 0], [5, 1]], dtype=float)
    eq = max_entropy_ce(np.stack([mine, mine.T]))
    assert eq.joint[1, 1] == pytest.approx(1, abs=1e-3)
    for ratings in eq.ratings:
        assert ratings == pytest.approx([-1, 0], abs=1e-3)
    # A game where nothing matters: the maximum-entropy joint is uniform.
    flat = max_entropy_ce(np.zeros((3, 2, 3, 3)))
    assert flat.joint == pytest.approx(np.full((2, 3, 3), 1 / 18))


def test_role_table_by_hand() -> None:
    def game(a_role: str, b_role: str, good_won: bool) -> GameTeams:
        return GameTeams({}, {}, float(good_won), {("A", a_role): 1, ("B", b_role): 1})

    teams = [
        game("seer", "werewolf", True),  # A's seer wins, B's wolf loses
        game("werewolf", "seer", True),  # A's wolf loses, B's seer wins
        game("seer", "werewolf", False),  # A's seer loses, B's wolf wins
        game("witch", "seer", True),  # only A held the witch: that role is left out
    ]
    table = role_table(teams, ["A", "B"])
    assert table is not None and table.roles == ["seer", "werewolf"]
    assert table.mean.tolist() == [[0.5, 1.0], [0.0, 0.5]]
    # Standard error of [1, 0]: sd 0.7071 / sqrt(2) = 0.5; of [1, 1] and of one game: 0.
    assert table.stddev == pytest.approx(np.array([[0.5, 0.0], [0.0, 0.5]]))
    assert role_table(teams[:1], ["A", "B"]) is None  # no role held by both


POLARIX = """
import json, sys
import numpy as np
import polarix as plx
out = []
for mean, stddev in json.load(sys.stdin):
    mean, stddev = np.array(mean), np.array(stddev)
    roles, agents = mean.shape
    game = plx.agent_vs_task_game(
        agents=np.array([f"c{i}" for i in range(agents)]),
        tasks=np.array([f"r{i}" for i in range(roles)]),
        agent_vs_task=mean.T, agent_vs_task_stddev=stddev.T,
        task_player="metric", normalizer="winrate",
    )
    result = plx.solve(game, plx.ce_maxent, disable_progress_bar=True)
    out.append({"payoffs": np.asarray(game.payoffs).tolist(),
                "joint": np.asarray(result.joint).tolist(),
                "ratings": [np.asarray(r).tolist() for r in result.ratings]})
print(json.dumps(out))
"""
CASES = [
    # roles x contestants: win rates and their standard errors
    ([[0.6, 0.4, 0.5], [0.3, 0.5, 0.45]], [[0.05, 0.06, 0.04], [0.07, 0.05, 0.05]]),
    # A bootstrap resample's kind of table: cells of one game (standard error 0) and
    # certain outcomes make step-function payoffs and dominated strategies, whose duals run
    # off towards infinity (where L-BFGS-B needed thousands of iterations).
    (
        [[0.6, 0.4, 0.5, 1.0], [0.3, 0.5, 0.45, 0.0], [0.5, 0.5, 0.2, 0.7]],
        [[0.05, 0.0, 0.04, 0.0], [0.07, 0.05, 0.0, 0.0], [0.1, 0.1, 0.1, 0.1]],
    ),
]


@pytest.mark.gte
def test_matches_polarix() -> None:
    if importlib.util.find_spec("polarix") is None:
        pytest.skip('polarix is not installed (pip install -e ".[dev,eval,gte]")')
    # In a child process: jax's threads would make later forks in this process unsafe.
    theirs = json.loads(
        subprocess.run(
            [sys.executable, "-c", POLARIX],
            input=json.dumps(CASES),
            capture_output=True,
            text=True,
            check=True,
            timeout=300,
        ).stdout
    )
    for (mean, stddev), reference in zip(CASES, theirs, strict=True):
        payoffs = winrate_game(np.array(mean), np.array(stddev))
        ours = max_entropy_ce(payoffs)
        assert ours.converged
        # polarix computes in float32.
        assert payoffs == pytest.approx(np.array(reference["payoffs"]), abs=1e-6)
        assert ours.joint == pytest.approx(np.array(reference["joint"]), abs=1e-4)
        for mine, rated in zip(ours.ratings, reference["ratings"], strict=True):
            assert mine == pytest.approx(np.array(rated), abs=1e-4)


def _lbfgs_dual_value(payoffs: np.ndarray) -> float:
    """The dual's minimum as scipy's L-BFGS-B finds it with the settings of this module's
    first solver: the Newton solution must be at least as low."""
    a = constraint_matrix(_gains(payoffs))

    def loss(x: np.ndarray) -> tuple[float, np.ndarray]:
        z = a @ x
        top = z.max()
        p = np.exp(z - top)
        total = p.sum()
        return float(top + np.log(total) + L1_WEIGHT * x.sum()), a.T @ (p / total) + L1_WEIGHT

    x0 = np.zeros(a.shape[1])
    options = {"maxiter": 5000, "ftol": 1e-12, "gtol": 1e-7}
    bounds = [(0.0, None)] * len(x0)
    return float(
        minimize(loss, x0, jac=True, method="L-BFGS-B", bounds=bounds, options=options).fun
    )


def random_games() -> list[np.ndarray]:
    rng = np.random.default_rng(4)
    games = [rng.normal(size=(3, 3, 4, 2)), rng.normal(size=(2, 5, 5))]
    for _ in range(8):
        roles, contestants = int(rng.integers(1, 7)), int(rng.integers(2, 9))
        mean = rng.integers(0, 5, size=(roles, contestants)) / 4
        stddev = rng.choice([0.0, 0.05, 0.2], size=(roles, contestants))
        games.append(winrate_game(mean, stddev))
    return games


def dual_value(payoffs: np.ndarray, duals: np.ndarray) -> float:
    z = constraint_matrix(_gains(payoffs)) @ duals
    return float(z.max() + np.log(np.exp(z - z.max()).sum()) + L1_WEIGHT * duals.sum())


@pytest.mark.parametrize("payoffs", random_games(), ids=lambda p: "x".join(map(str, p.shape)))
def test_projected_newton_reaches_the_dual_optimum(payoffs: np.ndarray) -> None:
    eq = max_entropy_ce(payoffs)
    assert eq.converged
    a = constraint_matrix(_gains(payoffs))
    joint = eq.joint.ravel()
    grad = a.T @ joint + L1_WEIGHT
    # KKT of min logsumexp(A l) + w sum(l), l >= 0 (convex, so they make the optimum): the
    # gradient is >= 0, and 0 where l > 0.
    assert (eq.duals >= 0).all()
    assert grad.min() > -1e-8
    assert np.abs(grad[eq.duals > 1e-6]).max(initial=0) < 1e-8
    # Hence a correlated equilibrium up to the weight decay: nobody gains more than ~w by
    # deviating from a recommendation (A's columns are the losses from deviating).
    assert (a.T @ joint).min() > -2 * L1_WEIGHT
    assert joint.sum() == pytest.approx(1)


def test_projected_newton_is_at_least_as_low_as_lbfgs() -> None:
    # L-BFGS-B needs thousands of iterations on the degenerate tables: two quick games.
    for payoffs in (random_games()[0], winrate_game(*map(np.array, CASES[0]))):
        eq = max_entropy_ce(payoffs)
        assert dual_value(payoffs, eq.duals) <= _lbfgs_dual_value(payoffs) + 1e-9


def test_heuristic_rates_above_random(study_db: Path) -> None:
    agg = Aggregator().add_all(iter_rows(study_db))
    result = gte_ratings(agg.teams, agg.contestants, Resamples(len(agg.teams), 50, 1))
    assert result is not None and result.resamples > 45
    h, r = result.names.index("heuristic"), result.names.index("random")
    assert result.rating[h] == pytest.approx(0, abs=1e-4)  # the equilibrium plays it
    assert result.rating[r] < -0.01 and result.weight[h] > result.weight[r]
    for i in (h, r):
        assert result.lo[i] - 1e-6 <= result.rating[i] <= result.hi[i] + 1e-6


def test_report_with_gte_section_renders_in_headless_chromium(
    study_db: Path, tmp_path: Path
) -> None:
    report = build_report(iter_rows(study_db), tmp_path / "report", resamples=50, seed=1)
    gte = report.data["ratings"]["gte"]
    assert [r["contestant"] for r in gte["ratings"]] == ["heuristic", "random"]
    html = tmp_path / "report" / "report.html"
    assert "Game-theoretic ratings" in html.read_text()
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]
    dom = subprocess.run(
        [browser, *flags, "--dump-dom", html.as_uri()],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    # The DOM Chromium built holds the section's heading and one row per contestant.
    section = dom[dom.index("Game-theoretic ratings") :]
    table = section[: section.index("</table>")]
    assert table.count("<tr>") == 3 and "heuristic" in table and "random" in table
