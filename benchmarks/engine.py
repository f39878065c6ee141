"""Complete random-legal 12-player games per second on the rules engine alone (one core).

Usage: python benchmarks/engine.py [--games N] [--board 12-A]
"""

import argparse
import platform
import time

from autowerewolf.rules.config import make_config
from autowerewolf.rules.random_play import play_random_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--board", default="12-A")
    args = parser.parse_args()
    configs = [make_config(args.board, seed=seed) for seed in range(args.games)]
    play_random_game(configs[0])  # warm-up: imports and caches
    steps = 0
    started = time.perf_counter()
    for config in configs:
        state, _ = play_random_game(config)
        steps += state.ply
    elapsed = time.perf_counter() - started
    print(
        f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}"
    )
    print(f"board {args.board}: {args.games} games in {elapsed:.2f} s")
    rate, step_rate = args.games / elapsed, steps / elapsed
    print(f"{rate:.0f} games/s, {step_rate:.0f} steps/s, {steps / args.games:.0f} steps/game")


if __name__ == "__main__":
    main()
