"""A tiny policy learns to play one camp through the PettingZoo environment (numpy only,
a few minutes on one CPU core).

The policy scores each legal action of a decision: a seat by a linear function of that
seat's features in the observation (alive, teammate, revealed, votes...), with one weight
vector per step; any other option (none, abstain, run, speak, a bid...) by one number per
step and option. It plays every seat of one camp (default the wolves) against seeded random
(or heuristic) players and learns by REINFORCE: each decision of a game is pushed towards
the game's team reward (+1 a win, -1 a loss), minus a running baseline. It prints the camp's
win rate over each block of games; docs/benchmarks.md ("Learning example") records runs.
`--rate 0` plays the untrained (uniform random) policy: the starting point.

Usage: python examples/train/learn.py [--games 4000] [--block 250] [--camp wolf|good]
       [--opponents random|heuristic] [--rate 0.05] [--seed 0]
"""

import argparse
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from autowerewolf.env import raw_env
from autowerewolf.players.observation import (
    DECISION_STEPS,
    GLOBAL_FEATURES,
    SEAT_FEATURES,
    TOKENS,
)


@dataclass
class Policy:
    """One weight vector per step for seat actions, one score per step and option token."""

    n_seats: int
    rng: np.random.Generator
    seat_w: np.ndarray = field(init=False)
    token_b: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.seat_w = np.zeros((len(DECISION_STEPS), len(SEAT_FEATURES)))
        self.token_b = np.zeros((len(DECISION_STEPS), len(TOKENS)))

    def act(self, obs: dict[str, np.ndarray]) -> tuple[int, tuple[Any, ...]]:
        """An action index, and what its gradient needs."""
        vector, mask = obs["observation"], obs["action_mask"]
        step = int(np.argmax(vector[1 : 1 + len(DECISION_STEPS)]))
        seats = vector[len(GLOBAL_FEATURES) :].reshape(self.n_seats, len(SEAT_FEATURES))
        scores = np.concatenate(([0.0], seats @ self.seat_w[step], self.token_b[step]))
        legal = mask.nonzero()[0]
        legal = legal[legal <= self.n_seats + len(TOKENS)]  # speeches: the plain option alone
        logits = scores[legal] - scores[legal].max()
        probs = np.exp(logits) / np.exp(logits).sum()
        choice = int(self.rng.choice(len(legal), p=probs))
        return int(legal[choice]), (step, seats, legal, probs, choice)

    def learn(self, trace: list[tuple[Any, ...]], advantage: float, rate: float) -> None:
        n = self.n_seats
        for step, seats, legal, probs, choice in trace:
            onehot = np.zeros(len(legal))
            onehot[choice] = 1.0
            push = rate * advantage * (onehot - probs)  # d log p / d score, per legal action
            is_seat = (legal >= 1) & (legal <= n)
            self.seat_w[step] += push[is_seat] @ seats[legal[is_seat] - 1]
            tokens = legal[legal > n] - n - 1
            self.token_b[step, tokens] += push[legal > n]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--block", type=int, default=250)
    parser.add_argument("--rate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--camp", choices=["wolf", "good"], default="wolf")
    parser.add_argument("--opponents", choices=["random", "heuristic"], default="random")
    args = parser.parse_args()
    werewolf = raw_env(
        "12-A", agents=f"camp:{args.camp}", opponents=args.opponents, text_observations=False
    )
    policy = Policy(len(werewolf.table.seats), np.random.default_rng(args.seed))
    baseline, wins, started = 0.0, 0, time.perf_counter()
    print(f"games  {args.camp} camp's win rate (block)  elapsed")
    for game in range(1, args.games + 1):
        werewolf.reset(seed=args.seed * 1_000_000 + game)
        traces: dict[str, list[tuple[Any, ...]]] = {}
        result = 0.0
        for agent in werewolf.agent_iter():
            obs, reward, terminated, truncated, _ = werewolf.last()
            if terminated or truncated:
                result = reward
                werewolf.step(None)
                continue
            action, grad = policy.act(obs)
            traces.setdefault(agent, []).append(grad)
            werewolf.step(action)
        wins += result > 0
        for trace in traces.values():
            policy.learn(trace, result - baseline, args.rate)
        baseline += 0.02 * (result - baseline)
        if game % args.block == 0:
            elapsed = time.perf_counter() - started
            print(f"{game:5d}  {wins / args.block:.3f}  {elapsed:6.0f} s", flush=True)
            wins = 0


if __name__ == "__main__":
    main()
