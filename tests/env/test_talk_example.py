"""The talking self-play example (examples/train/talk.py): its returns, baseline, features
and updates, and a short run of the script (docs/training.md, "Talking self-play", records
the long runs)."""

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

from autowerewolf.players.observation import GLOBAL_FEATURES, SAY, SEAT_FEATURES
from examples.train.talk import (
    COLUMN,
    INTERACTIONS,
    Critic,
    Game,
    Policy,
    legal_actions,
    seat_inputs,
)

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "train" / "talk.py"


def test_a_decision_returns_the_rewards_received_after_it() -> None:
    game = Game(after={"a": [0.1, -0.1, 1.0]})
    assert np.allclose(game.returns("a"), [1.0, 0.9, 1.0])


def test_the_critic_centres_on_a_running_mean_per_camp_and_step() -> None:
    critic = Critic(pace=0.5)
    assert critic.advantage("good", 3, 1.0) == 0.0
    assert critic.advantage("good", 3, 0.0) < 0.0
    assert critic.advantage("good", 4, 0.0) == 0.0
    assert critic.advantage("wolf", 3, 1.0) == 0.0


def test_a_wolf_report_counts_twice_when_one_living_seat_claims_the_seer() -> None:
    seats = np.zeros((3, len(SEAT_FEATURES)), np.float32)
    seats[:, COLUMN["alive"]] = 1.0
    seats[0, COLUMN["claims=seer"]] = 1.0
    seats[1, COLUMN["called_wolf"]] = 0.5
    inputs = seat_inputs(seats)
    assert inputs.shape == (3, len(SEAT_FEATURES) + len(INTERACTIONS))
    assert inputs[1, len(SEAT_FEATURES)] == 0.5 and inputs[0, len(SEAT_FEATURES) + 1] == 1.0
    seats[2, COLUMN["claims=seer"]] = 1.0  # a counter-claim
    assert not seat_inputs(seats)[:, len(SEAT_FEATURES) :].any()


def test_a_mute_speaker_only_passes() -> None:
    names = ("wait", SAY + "accuse P01", SAY + "pass", "P01")
    speech = {"action_mask": np.array([0, 1, 1, 0], np.int8)}
    vote = {"action_mask": np.array([0, 0, 0, 1], np.int8)}
    assert list(legal_actions(speech, True, names)) == [2]
    assert list(legal_actions(speech, False, names)) == [1, 2]
    assert list(legal_actions(vote, True, names)) == [3]


def decision(policy: Policy) -> tuple[float, Any]:
    """The probability of action 0 among two legal acts about seats 0 and 1, and the
    decision."""
    vector = np.zeros(len(GLOBAL_FEATURES) + policy.n_seats * len(SEAT_FEATURES), np.float32)
    vector[1] = 1.0  # the first decision step
    vector[len(GLOBAL_FEATURES)] = 1.0  # seat 0's first feature
    _, made = policy.act({"observation": vector}, np.array([0, 1]), greedy=False)
    return float(made[3][0]), made


def test_an_update_follows_the_advantage_and_the_entropy_bonus_evens_the_odds() -> None:
    policy = Policy(np.array([0, 0]), np.array([0, 1]), 2, np.random.default_rng(0))
    before, made = decision(policy)
    chose_first = made[4] == 0
    policy.learn(made, 1.0 if chose_first else -1.0, 0.5, 0.0)
    raised, _ = decision(policy)
    assert raised > before
    uneven, made = decision(policy)
    policy.learn(made, 0.0, 0.5, 1.0)
    assert abs(decision(policy)[0] - 0.5) < abs(uneven - 0.5)


def test_the_script_trains_and_reports_each_evaluation() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--games", "8", "--eval-every", "4",
                           "--eval-games", "3", "--selfplay-every", "2"],
                          capture_output=True, text=True, timeout=300, check=True)  # fmt: skip
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines[1:]] == ["games 0", "games 4", "games 8"]
    assert all("learned" in line and "seer claims" in line for line in lines[1:])
