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
from autowerewolf.players.base import Answer, DecidesAtOnce, DecisionRequest, Player
from autowerewolf.players.heuristic import HeuristicPlayer
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.simple import RandomPlayer
from autowerewolf.rules.engine import new_game, play_out
from autowerewolf.rules.roles import camp_of

SECRET = "5eed" * 8  # a fixed secret: a block's games share every random draw of the engine
WEAKENED_SHARE = 0.3  # of a weakened heuristic's decisions, answered at random
# Contestants of known difference: a wide gap, a narrow one, and none (one player, two names).
STUDIES = {
    "heuristic vs random": ("heuristic", "random"),
    f"heuristic vs weakened heuristic ({WEAKENED_SHARE:.0%} random answers)": (
        "heuristic",
        "weakened",
    ),
    "heuristic vs heuristic (null)": ("heuristic", "heuristic"),
}


class WeakenedHeuristic(DecidesAtOnce):
    """A heuristic player that answers a seeded share of its decisions at random."""

    kind = "heuristic"

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.heuristic, self.random = HeuristicPlayer(), RandomPlayer()

    def decide(self, request: DecisionRequest) -> Answer:
        chosen = self.random if self.rng.random() < WEAKENED_SHARE else self.heuristic
        return chosen.decide(request)


def make_player(kind: str, seed: int) -> Player:
    if kind == "weakened":
        return WeakenedHeuristic(seed)
    return HeuristicPlayer() if kind == "heuristic" else RandomPlayer()


def study_config(
    kinds: tuple[str, str],
    games: int,
    seed: int,
    mixed_share: float,
    secret: str | None = SECRET,
) -> TournamentConfig:
    """Two contestants `c0` and `c1` playing `kinds` (benchmark players: `make_player`)."""
    return TournamentConfig.model_validate(
        {
            "name": "paired",
            "games": games,
            "seed": seed,
            "secret": secret,
            "mixed_share": mixed_share,
            "contestants": [
                {"name": f"c{i}", "kind": "random" if k == "random" else "heuristic"}
                for i, k in enumerate(kinds)
            ],
        }
    )


def play_planned(game: PlannedGame, kinds: dict[str, str]) -> dict[str, float]:
    """Each contestant's score in a planned game (`kinds`: each contestant's benchmark
    player): the share of its seats that won."""
    state, events = new_game(game.setup.build())
    players: dict[str, Player] = {}
    records: list[DecisionRecord] = []

    def player_of(request: DecisionRequest) -> Player:
        if request.seat not in players:
            kind = kinds[game.seating.contestants[request.seat]]
            players[request.seat] = make_player(kind, game.setup.seed * 100 + len(players))
        return players[request.seat]

    state, _ = play_out(state, events, answering(player_of, game.seating, records))
    won: dict[str, list[bool]] = {}
    for seat, role in zip(sorted(game.seating.contestants), game.setup.deal or (), strict=True):
        won.setdefault(game.seating.contestants[seat], []).append(camp_of(role) == state.winner)
    return {name: sum(wins) / len(wins) for name, wins in won.items()}


def measure(
    config: TournamentConfig, kinds: tuple[str, str], resamples: int = 2000
) -> PairedDifference:
    """The paired difference of c0 minus c1 over `config`'s games, c0 and c1 playing
    `kinds`."""
    names = [c.name for c in config.contestants]
    by_name = dict(zip(names, kinds, strict=True))
    games = plan(config)
    table = np.array([[play_planned(g, by_name).get(n, 0.0) for n in names] for g in games])
    blocks = [g.block for g in games]
    (pair,) = paired_differences(names, table, np.ones_like(table), blocks, resamples, 0)
    return pair


def job(args: tuple[str, float, int]) -> tuple[str, float, PairedDifference]:
    study, mixed_share, games = args
    kinds = STUDIES[study]
    return study, mixed_share, measure(study_config(kinds, games, 1, mixed_share), kinds)


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
        "| contestants | schedule | games | blocks | win rate A - B, unpaired | paired "
        "| variance reduction |",
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
            + ("n/a (paired variance 0)" if factor is None else f"{factor:.2f}x")
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
