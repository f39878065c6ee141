"""Kaggle Game Arena's Werewolf engine and ours on the same work (one core each).

Three measures of the same 8-player game (Kaggle's `standard` configuration, our `kaggle`
board), each with random players to the end:

* the same games: `--games` games recorded from Kaggle's `env.run` with its random agents,
  timed there, then replayed in our engine from their scripts (docs/scripts.md: every
  decision and every draw Kaggle made), so both engines play identical games;
* Kaggle's bare `Moderator` (its state machine without the `env.run` harness: no agent
  observations, no schema checks) driven by a minimal random policy, against our engine's
  own random games on the `kaggle` board (`play_random_game`, random players included).

Needs the `kaggle` extra (kaggle-environments 1.33.2).

Usage: python benchmarks/kaggle_speed.py [--games 30] [--random-games 300]
"""

import argparse
import logging
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any

from autowerewolf.rules.config import make_config
from autowerewolf.rules.random_play import play_random_game

# The recorder and the replay live in the tests package, which is not installed: run as a
# script, the repository root is not on the path.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.kaggle.kaggle_record import (
    SEATS,
    from_history,
    observed_ballots,
    play,
    standard_config,
)
from tests.kaggle.kaggle_replay import play_script, script


def bare_moderator_game(seed: int) -> int:
    """One game on Kaggle's `Moderator` alone, its players choosing at random among the
    options the moderator offers; the number of actions played."""
    from kaggle_environments.envs.werewolf.game.actions import (
        ChatAction,
        HealAction,
        InspectAction,
        VoteAction,
    )
    from kaggle_environments.envs.werewolf.game.consts import DetailedPhase, RoleConst, Team
    from kaggle_environments.envs.werewolf.game.engine import Moderator
    from kaggle_environments.envs.werewolf.game.protocols.factory import create_protocol
    from kaggle_environments.envs.werewolf.game.roles import create_players_from_agents_config
    from kaggle_environments.envs.werewolf.game.states import GameState

    config = standard_config(seed)
    random.seed(seed)
    players = create_players_from_agents_config(config["agents"], randomize_roles=True, seed=seed)
    state = GameState(players=players, history={})
    moderator = Moderator(
        state=state,
        discussion=create_protocol(config["discussion_protocol"]),
        day_voting=create_protocol(config["day_voting_protocol"]),
        night_voting=create_protocol(config["werewolf_night_vote_protocol"]),
    )
    actions: dict[str, Any] = {}
    played = 0
    while not moderator.is_game_over():
        moderator.advance(actions)
        actions = {}
        alive = [p.id for p in state.alive_players()]
        good = [p.id for p in state.alive_players_by_team(Team.VILLAGERS)]
        for pid in moderator.get_active_player_ids():
            role = state.get_player_by_id(pid).role.name
            common = {"day": state.day_count, "phase": state.phase, "actor_id": pid}
            phase = moderator.detailed_phase
            others = [p for p in alive if p != pid]
            if phase == DetailedPhase.NIGHT_AWAIT_ACTIONS and role == RoleConst.WEREWOLF:
                actions[pid] = VoteAction(**common, target_id=random.choice(good))
            elif phase == DetailedPhase.NIGHT_AWAIT_ACTIONS and role == RoleConst.DOCTOR:
                actions[pid] = HealAction(**common, target_id=random.choice(alive))
            elif phase == DetailedPhase.NIGHT_AWAIT_ACTIONS and role == RoleConst.SEER:
                actions[pid] = InspectAction(**common, target_id=random.choice(others))
            elif phase == DetailedPhase.DAY_CHAT_AWAIT:
                actions[pid] = ChatAction(**common, message="Let's think carefully.")
            elif phase == DetailedPhase.DAY_VOTING_AWAIT:
                actions[pid] = VoteAction(**common, target_id=random.choice(others))
        played += len(actions)
    return played


def rate(games: int, seconds: float) -> str:
    return f"{games / seconds:.2f} games/s ({1000 * seconds / games:.1f} ms/game)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=30, help="Kaggle env.run games")
    parser.add_argument("--random-games", type=int, default=300, help="bare and ours, each")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    try:
        import kaggle_environments
        from kaggle_environments import make
    except ImportError:
        sys.exit('error: Kaggle\'s engine is not installed: pip install -e ".[kaggle]"')

    play(0)  # warm-up: imports, the env's registration
    recorded, run_s = [], 0.0
    for seed in range(args.games):
        random.seed(seed)
        env = make("werewolf", configuration=standard_config(seed))
        with observed_ballots() as decided:
            started = time.perf_counter()  # env.run alone: not the env's creation
            env.run(["random"] * len(SEATS))
            run_s += time.perf_counter() - started
        recorded.append(script(from_history(env, decided, seed, "random")))
    play_script(recorded[0])
    started = time.perf_counter()
    for file in recorded:
        play_script(file)
    replay_s = time.perf_counter() - started

    bare_moderator_game(0)
    started = time.perf_counter()
    actions = sum(bare_moderator_game(seed) for seed in range(args.random_games))
    bare_s = time.perf_counter() - started
    configs = [make_config("kaggle", seed=seed) for seed in range(args.random_games)]
    play_random_game(configs[0])
    started = time.perf_counter()
    steps = sum(play_random_game(config)[0].ply for config in configs)
    ours_s = time.perf_counter() - started

    print(
        f"machine: {platform.processor() or platform.machine()}, Python "
        f"{platform.python_version()}, kaggle-environments {kaggle_environments.__version__}, "
        f"{len(SEATS)} players"
    )
    print(f"same {args.games} games: Kaggle env.run {rate(args.games, run_s)}")
    print(f"same {args.games} games: ours from their scripts {rate(args.games, replay_s)}")
    print(f"  ours / Kaggle env.run: {run_s / replay_s:.0f}x")
    print(
        f"{args.random_games} random games: Kaggle bare Moderator {rate(args.random_games, bare_s)}"
        f", {actions / args.random_games:.0f} actions/game"
    )
    print(
        f"{args.random_games} random games: ours {rate(args.random_games, ours_s)}, "
        f"{steps / args.random_games:.0f} steps/game"
    )
    print(f"  ours / Kaggle bare Moderator: {bare_s / ours_s:.0f}x")


if __name__ == "__main__":
    main()
