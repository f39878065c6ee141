"""A TRL-style rollout through the OpenEnv server (docs/training.md, "OpenEnv server"): a
policy (observation -> action) plays one seat of the board through OpenEnv's own client;
every decision becomes a (prompt, completion, reward) triple, the prompt being the seat's
question, the completion the chosen action as JSON and the reward the seat's return of its
game, the shape a GRPO trainer's rollout function hands back. No TRL is needed to run it:
by default it starts a server on 127.0.0.1 itself and plays with a seeded random policy.

Usage: python examples/train/openenv_rollout.py [--episodes 2] [--seat P01] [--board 12-A]
       [--url http://127.0.0.1:8010]  (a server already running: `autowerewolf env serve`)
"""

import argparse
import json
import random
from collections.abc import Callable
from contextlib import nullcontext
from typing import Any

from openenv.core.generic_client import GenericEnvClient

Policy = Callable[[dict[str, Any]], dict[str, Any]]
Triple = tuple[str, str, float]


def random_policy(seed: int) -> Policy:
    """A legal random choice among the observation's options (speeches say nothing more)."""
    rng = random.Random(seed)

    def choose(observation: dict[str, Any]) -> dict[str, Any]:
        return {"option": rng.choice(observation["options"]), "text": ""}

    return choose


def rollout(
    url: str, policy: Policy, episodes: int, seed: int = 0, **reset: Any
) -> list[list[Triple]]:
    """Play `episodes` games of one seat through the server at `url`; each game's triples
    (prompt, completion, reward), the reward being the game's total return for the seat."""
    games: list[list[Triple]] = []
    with GenericEnvClient(base_url=url).sync() as client:
        for episode in range(episodes):
            result = client.reset(seed=seed + episode, **reset)
            turns: list[tuple[str, str]] = []
            total = float(result.reward or 0.0)
            while not result.done:
                observation = result.observation
                action = policy(observation)
                turns.append((observation["text"], json.dumps(action)))
                result = client.step(action)
                total += float(result.reward or 0.0)
            games.append([(prompt, completion, total) for prompt, completion in turns])
    return games


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--episodes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--board", default="12-A")
    parser.add_argument("--seat", default="P01")
    parser.add_argument("--url", default=None, help="A running server (default: start one).")
    args = parser.parse_args(argv)
    if args.url is None:
        from autowerewolf.env.openenv_server import create_app, served

        server: Any = served(create_app(args.board, args.seat))
    else:
        server = nullcontext(args.url)
    with server as url:
        policy = random_policy(args.seed)
        games = rollout(url, policy, args.episodes, args.seed, board=args.board, seat=args.seat)
    for i, triples in enumerate(games):
        reward = triples[0][2] if triples else 0.0
        print(f"episode {i}: {len(triples)} decisions, reward {reward:+.2f}")
    decisions = sum(len(t) for t in games)
    print(f"{decisions} (prompt, completion, reward) triples from {len(games)} episodes")


if __name__ == "__main__":
    main()
