"""GTE ratings: the win-rate game and the max-entropy CE by hand, against polarix where the
`gte` extra is installed, and the report's GTE section rendered in headless Chromium."""

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from autowerewolf.evaluation.gte import gte_ratings, max_entropy_ce, role_table, winrate_game
from autowerewolf.evaluation.metrics import Aggregator, GameTeams
from autowerewolf.evaluation.report import build_report
from autowerewolf.evaluation.results import iter_rows


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
mean, stddev = (np.array(m) for m in json.load(sys.stdin))
game = plx.agent_vs_task_game(
    agents=np.array(["a", "b", "c"]), tasks=np.array(["seer", "werewolf"]),
    agent_vs_task=mean.T, agent_vs_task_stddev=stddev.T,
    task_player="metric", normalizer="winrate",
)
result = plx.solve(game, plx.ce_maxent, disable_progress_bar=True)
print(json.dumps({"payoffs": np.asarray(game.payoffs).tolist(),
                  "joint": np.asarray(result.joint).tolist(),
                  "ratings": [np.asarray(r).tolist() for r in result.ratings]}))
"""


def test_matches_polarix_on_a_small_case() -> None:
    if importlib.util.find_spec("polarix") is None:
        pytest.skip("polarix is not installed (pip install -e '.[gte]')")
    mean = [[0.6, 0.4, 0.5], [0.3, 0.5, 0.45]]  # roles x contestants
    stddev = [[0.05, 0.06, 0.04], [0.07, 0.05, 0.05]]
    # In a child process: jax's threads would make later forks in this process unsafe.
    theirs = json.loads(
        subprocess.run(
            [sys.executable, "-c", POLARIX],
            input=json.dumps([mean, stddev]),
            capture_output=True,
            text=True,
            check=True,
            timeout=300,
        ).stdout
    )
    payoffs = winrate_game(np.array(mean), np.array(stddev))
    ours = max_entropy_ce(payoffs)
    assert payoffs == pytest.approx(np.array(theirs["payoffs"]), abs=1e-6)
    assert ours.joint == pytest.approx(np.array(theirs["joint"]), abs=1e-4)
    for mine, reference in zip(ours.ratings, theirs["ratings"], strict=True):
        assert mine == pytest.approx(np.array(reference), abs=1e-4)


def test_heuristic_rates_above_random(study_db: Path) -> None:
    agg = Aggregator().add_all(iter_rows(study_db))
    result = gte_ratings(agg.teams, agg.contestants, resamples=50, seed=1)
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
