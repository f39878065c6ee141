"""docs/rules.md §10: the `kaggle` board against Kaggle's own engine, game for game.

170 games are played by Kaggle's engine (kaggle-environments 1.33.2, its `standard`
8-player configuration, `env.run`): 120 with Kaggle's own random agents, 50 with agents that
also abstain and vote for themselves (`kaggle_record.py`). Each is replayed in ours from its
script (its decisions, and Kaggle's draws fixed) and must agree on every recorded field
(`kaggle_replay.py`); the games committed for the default run must be exactly what Kaggle
plays today.

Needs the `kaggle` extra (`pip install -e ".[dev,kaggle]"`; .ci/run installs it in a
virtualenv of its own, since it pins openai below 3). Run: `pytest -m kaggle tests/kaggle`.
"""

import json
from types import ModuleType
from typing import Any

import pytest

from tests.kaggle.kaggle_record import KAGGLE_VERSION, RECORDED, record
from tests.kaggle.kaggle_replay import differences, replay

# Kaggle's engine reads pydantic models in a way pydantic 2.11 deprecates: its warnings only.
pytestmark = [pytest.mark.kaggle, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

RUNS = (
    [("random", seed) for seed in range(0, 120)]
    + [("abstaining", seed) for seed in range(1000, 1030)]
    + [("often_abstaining", seed) for seed in range(2000, 2020)]
)
COMMITTED = {(g["agent"], g["seed"]): g for g in json.loads(RECORDED.read_text())}


@pytest.fixture(scope="module", autouse=True)
def kaggle_environments() -> ModuleType:
    """Kaggle's engine; asked for when a test runs, not when the module is collected, so a
    run that deselects `-m kaggle` does not meet the skip."""
    return pytest.importorskip(
        "kaggle_environments",
        reason="Kaggle's engine is not installed: the `kaggle` extra "
        '(pip install -e ".[dev,kaggle]") runs this differential test',
    )


def test_kaggle_is_the_version_the_board_follows(kaggle_environments: ModuleType) -> None:
    assert kaggle_environments.__version__ == KAGGLE_VERSION


@pytest.mark.parametrize(("agent", "seed"), RUNS, ids=[f"{a}-{s}" for a, s in RUNS])
def test_kaggle_game_agrees_with_ours(agent: str, seed: int) -> None:
    game: dict[str, Any] = record(seed, agent)
    committed = COMMITTED.get((agent, seed))
    if committed is not None:
        assert differences(committed, game) == [], "kaggle_games.json is out of date"
    assert differences(game, replay(game)) == []


def test_every_committed_game_is_among_the_runs() -> None:
    assert set(COMMITTED) <= set(RUNS)
