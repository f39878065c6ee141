"""Seeded episodes pinned by a digest of everything a trainer reads: each agent's feature
vector, action mask, legal options and step, the rewards, the global state and the game's
events. An optimisation of the observation path that changes any value fails here."""

import hashlib
import random
from typing import Any

import numpy as np
import pytest

from autowerewolf.env import env, parallel_env
from autowerewolf.players.features import sums
from autowerewolf.rules.decisions import Option
from autowerewolf.rules.random_play import EXPLODE_CHANCE

# Recomputed only when a change of behaviour is meant (features, actions or rules).
DIGESTS = {
    "12-A": "4d03ad711c334d9bdc36d6e18ed2dc036ebf5a5aa4bf1e89abf90bf1ad7e33a4",
    "9-standard": "59fb736d3be4b9165e3e3f8411c848f6ef46586806baf1a6cd0b55a970f3d2ea",
}
PARALLEL_DIGEST = "a87e7aa3a55e49879d49ab8a94e33ae258acd12f16576cd662f7eed6273d8f76"


def playable(legal: Any, names: tuple[str, ...], rng: random.Random) -> list[int]:
    """The legal actions, exploding as rarely as random players do, so that the games
    last and reach the later days' features."""
    if rng.random() < EXPLODE_CHANCE:
        return list(legal)
    return [i for i in legal if names[i] != Option.EXPLODE.value] or list(legal)


def aec_digest(board: str, seeds: range) -> str:
    werewolf: Any = env(board)
    names = werewolf.unwrapped.table.actions.names
    digest = hashlib.sha256()
    rng = random.Random(0)
    for seed in seeds:
        werewolf.reset(seed=seed)
        for agent in werewolf.agent_iter():
            obs, reward, terminated, truncated, info = werewolf.last()
            digest.update(f"{agent}|{reward:.6f}|{terminated}|{truncated}".encode())
            digest.update(obs["observation"].tobytes())
            digest.update(obs["action_mask"].tobytes())
            if terminated or truncated:
                digest.update(repr(sorted(info.items())).encode())
                werewolf.step(None)
                continue
            digest.update(repr((info["options"], info["step"], info["key"])).encode())
            digest.update(werewolf.unwrapped.state().tobytes())
            legal = obs["action_mask"].nonzero()[0]
            assert sorted(names[i] for i in legal) == sorted(info["options"])
            werewolf.step(int(rng.choice(playable(legal, names, rng))))
        digest.update(repr(werewolf.unwrapped.table.events).encode())
    return digest.hexdigest()


def parallel_digest(board: str, seeds: range) -> str:
    werewolf = parallel_env(board)
    names = werewolf.table.actions.names
    digest = hashlib.sha256()
    rng = random.Random(1)
    for seed in seeds:
        observations, _ = werewolf.reset(seed=seed)
        while werewolf.agents:
            actions = {}
            for agent, obs in sorted(observations.items()):
                digest.update(agent.encode())
                digest.update(obs["observation"].tobytes())
                digest.update(obs["action_mask"].tobytes())
                legal = obs["action_mask"].nonzero()[0]
                actions[agent] = int(rng.choice(playable(legal, names, rng)))
            observations, rewards, *_ = werewolf.step(actions)
            digest.update(repr(sorted(rewards.items())).encode())
        digest.update(repr(werewolf.table.events).encode())
    return digest.hexdigest()


@pytest.mark.parametrize("board", sorted(DIGESTS))
def test_seeded_aec_episodes_observe_the_pinned_values(board: str) -> None:
    assert aec_digest(board, range(4)) == DIGESTS[board]


def test_seeded_parallel_episodes_observe_the_pinned_values() -> None:
    assert parallel_digest("12-A", range(3)) == PARALLEL_DIGEST


@pytest.mark.parametrize("share", [1 / 12, 1 / 9, 1 / 8, 1 / 30])
def test_counted_features_hold_the_sums_adding_one_share_at_a_time_leaves(share: float) -> None:
    added = np.zeros(1, np.float32)
    expected = [0.0]
    for _ in range(40):
        added[0] += share
        expected.append(float(added[0]))
    assert sums(share, 40)[:41] == expected
