"""Decisions per second of the PettingZoo AEC environment with random actions, beside the
rules engine's own random games (one core; CPU time, so that other work on a shared machine
skews the figures less than wall time would).

A decision is one seat's answer to one question (a vote of 11 seats is 11 decisions). Three
ways to run the environment, every seat controlled by the trainer and random legal actions
(exploding as rarely as random players do, so that games are as long as the engine's):
  - mask: the random policy reads the action mask from `infos` (`last(observe=False)`), so
    no observation is built: the environment's own cost (also without PettingZoo's
    order-enforcing wrapper, `raw_env`);
  - structured: `observe` builds the feature vector and mask (no text);
  - text: `observe` also renders the seat's prompt text (opt-in: `text_observations=True`);
  - parallel: `parallel_env()` with features, which observes only the seats asked.
Each line ends with its ratio to the engine alone in the same run.

Usage: python benchmarks/environment.py [--games N] [--board 12-A]
"""

import argparse
import os
import platform
import random
import time
from collections.abc import Callable
from typing import Any

from autowerewolf.env import env, parallel_env, raw_env
from autowerewolf.rules.config import make_config
from autowerewolf.rules.engine import apply, is_terminal, new_game, pending_decision
from autowerewolf.rules.random_play import EXPLODE_CHANCE, random_answers


def engine_games(board: str, games: int) -> int:
    """Random games on the engine alone, as benchmarks/engine.py plays them."""
    decisions = 0
    for seed in range(games):
        config = make_config(board, seed=seed)
        state, _ = new_game(config)
        while not is_terminal(state):
            decision = pending_decision(state)
            answers = random_answers(config.root, decision) if decision is not None else {}
            decisions += len(answers)
            state, _ = apply(state, answers, decision)
    return decisions


def env_games(board: str, games: int, observe: str, wrapped: bool = True) -> int:
    """Random legal actions through the AEC environment (`env()`, or the bare `raw_env`
    without PettingZoo's order-enforcing wrapper); returns the decisions taken."""
    make = env if wrapped else raw_env
    werewolf: Any = make(board, text_observations=observe == "text")
    rng = random.Random(0)

    def pick(options: list[str]) -> str:
        """Uniform over the legal options, but exploding as rarely as random players do."""
        if "explode" in options and rng.random() >= EXPLODE_CHANCE:
            options = [o for o in options if o != "explode"]
        return rng.choice(options)

    names = werewolf.unwrapped.table.actions.names
    decisions = 0
    for seed in range(games):
        werewolf.reset(seed=seed)
        for _agent in werewolf.agent_iter():
            if observe == "mask":
                _, _, terminated, truncated, info = werewolf.last(observe=False)
                if terminated or truncated:
                    werewolf.step(None)
                    continue
                action = pick(list(info["options"]))
            else:
                obs, _, terminated, truncated, _ = werewolf.last()
                if terminated or truncated:
                    werewolf.step(None)
                    continue
                action = pick([names[i] for i in obs["action_mask"].nonzero()[0]])
            decisions += 1
            werewolf.step(action)
    return decisions


def parallel_games(board: str, games: int) -> int:
    """Random legal actions through `parallel_env()` with feature observations."""
    werewolf = parallel_env(board)
    rng = random.Random(0)
    names = werewolf.table.actions.names
    decisions = 0
    for seed in range(games):
        observations, _ = werewolf.reset(seed=seed)
        while werewolf.agents:
            asked = werewolf.table.asked
            actions = {}
            for agent, obs in observations.items():
                legal = [names[i] for i in obs["action_mask"].nonzero()[0]]
                if "explode" in legal and rng.random() >= EXPLODE_CHANCE:
                    legal = [o for o in legal if o != "explode"]
                actions[agent] = rng.choice(legal)
            decisions += len(asked)
            observations, *_ = werewolf.step(actions)
    return decisions


def timed(run: Callable[[], int]) -> tuple[int, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    decisions = run()
    return decisions, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--board", default="12-A")
    args = parser.parse_args()
    board, games = args.board, args.games
    env_games(board, 5, "text")  # warm-up: imports and caches
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f} at start")  # fmt: skip
    runs: list[tuple[str, Callable[[], int], int]] = [
        ("engine alone", lambda: engine_games(board, games), games),
        ("env, mask from infos", lambda: env_games(board, games, "mask"), games),
        ("raw_env, mask from infos", lambda: env_games(board, games, "mask", False), games),
        ("env, structured observations", lambda: env_games(board, games, "structured"), games),
        ("parallel_env, structured observations", lambda: parallel_games(board, games), games),
        ("env, text observations", lambda: env_games(board, max(games // 10, 1), "text"),
         max(games // 10, 1)),
    ]  # fmt: skip
    engine_rate = 0.0
    for name, run, n in runs:
        decisions, wall, cpu = timed(run)
        rate = decisions / cpu
        engine_rate = engine_rate or rate
        print(f"{name}: {n} games, {decisions} decisions, {rate:,.0f} decisions per CPU "
              f"second ({decisions / wall:,.0f} per wall second), {rate / engine_rate:.2f}x "
              f"the engine")  # fmt: skip
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
