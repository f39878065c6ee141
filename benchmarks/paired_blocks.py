"""Variance reduction of deals as the unit: tournaments of contestants of known difference,
played offline (the engine's own loop, no database), each pair's win-rate difference with
its variance from resampling games and from resampling blocks (ratings/pairs.py).

Usage: python benchmarks/paired_blocks.py [--games 240] [--processes 2]
Prints a Markdown table (the one in docs/evaluation.md, "Deals as the unit").
"""

import argparse
import platform
import time
from multiprocessing import Pool

import numpy as np

from autowerewolf.evaluation.ratings.pairs import PairedDifference, paired_differences
from autowerewolf.evaluation.tournament.config import TournamentConfig
from autowerewolf.evaluation.tournament.schedule import PlannedGame, plan
from autowerewolf.players.asker import answering
from autowerewolf.players.base import DecisionRequest, Player
from autowerewolf.players.heuristic import HeuristicPlayer
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.simple import RandomPlayer
from autowerewolf.rules.engine import new_game, play_out
from autowerewolf.rules.roles import camp_of

SECRET = "5eed" * 8  # a fixed secret: a block's games share every random draw of the engine
# Contestants of known difference: a real gap, and the same player under two names.
STUDIES = {
    "heuristic vs random": ("heuristic", "random"),
    "heuristic vs heuristic (null)": ("heuristic", "heuristic"),
}


def study_config(
    kinds: tuple[str, str], games: int, seed: int, mixed_share: float
) -> TournamentConfig:
    return TournamentConfig.model_validate(
        {
            "name": "paired",
            "games": games,
            "seed": seed,
            "secret": SECRET,
            "mixed_share": mixed_share,
            "contestants": [{"name": f"c{i}", "kind": k} for i, k in enumerate(kinds)],
        }
    )


def play_planned(game: PlannedGame) -> dict[str, float]:
    """Each contestant's score in a planned game: the share of its seats that won."""
    state, events = new_game(game.setup.build())
    players: dict[str, Player] = {}
    records: list[DecisionRecord] = []

    def player_of(request: DecisionRequest) -> Player:
        kind = game.seating.seats[request.seat]
        return players.setdefault(
            request.seat, HeuristicPlayer() if kind == "heuristic" else RandomPlayer()
        )

    state, _ = play_out(state, events, answering(player_of, game.seating, records))
    won: dict[str, list[bool]] = {}
    for seat, role in zip(sorted(game.seating.contestants), game.setup.deal or (), strict=True):
        won.setdefault(game.seating.contestants[seat], []).append(camp_of(role) == state.winner)
    return {name: sum(wins) / len(wins) for name, wins in won.items()}


def scores(config: TournamentConfig) -> tuple[np.ndarray, list[int]]:
    """[games, contestants] scores of the tournament's games, and each game's block."""
    games = plan(config)
    names = [c.name for c in config.contestants]
    table = np.array([[play_planned(g).get(n, 0.0) for n in names] for g in games])
    return table, [g.block for g in games]


def measure(config: TournamentConfig, resamples: int = 2000) -> PairedDifference:
    table, blocks = scores(config)
    names = [c.name for c in config.contestants]
    (pair,) = paired_differences(names, table, np.ones_like(table), blocks, resamples, 0)
    return pair


def job(args: tuple[str, float, int]) -> tuple[str, float, PairedDifference]:
    study, mixed_share, games = args
    return study, mixed_share, measure(study_config(STUDIES[study], games, 1, mixed_share))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=240, help="games per tournament")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    jobs = [(s, share, args.games) for s in STUDIES for share in (0.0, 0.5)]
    started = time.perf_counter()
    with Pool(args.processes) as pool:
        found = pool.map(job, jobs)
    lines = [
        "| contestants | schedule | games | blocks | win rate A - B, unpaired | paired | variance reduction |",
        "|---|---|---|---|---|---|---|",
    ]
    for study, share, p in found:
        schedule = "team blocks only" if share == 0 else "half mixed blocks"
        cells = [
            f"{p[k]['value']:+.3f} [{p[k]['lo']:+.3f}, {p[k]['hi']:+.3f}]"
            for k in ("unpaired", "paired")
        ]
        factor = p["variance_reduction"]
        lines.append(
            f"| {study} | {schedule} | {p['games']} | {p['blocks']} | {cells[0]} | {cells[1]} | "
            + ("n/a" if factor is None else f"{factor:.2f}x")
            + " |"
        )
    machine = f"{platform.processor() or platform.machine()}, Python {platform.python_version()}"
    print("\n".join(lines))
    print(
        f"\n`python benchmarks/paired_blocks.py --games {args.games}` ({args.processes} processes, "
        f"{time.perf_counter() - started:.0f} s on {machine}; board 12-A, schedule seed 1, "
        "2000 resamples)."
    )


if __name__ == "__main__":
    main()
