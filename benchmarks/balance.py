"""Side balance of every board preset: the village's, the wolves' and the draws' shares over
self-play games of seeded random players and of heuristic players, with 95 % Wilson
intervals over games (each game is independent: its own seed, a fresh secret-free deal).

Usage: python benchmarks/balance.py [--games 2000] [--out docs/balance.md]
Prints a Markdown table (the one in docs/rules.md, "Side balance"), or writes it to --out.
"""

import argparse
import platform
import time
from collections import Counter
from collections.abc import Callable
from multiprocessing import Pool

from autowerewolf.evaluation.bootstrap import wilson
from autowerewolf.players.asker import answering
from autowerewolf.players.base import DecisionRequest, Player
from autowerewolf.players.heuristic import HeuristicPlayer
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import BOARDS, make_config
from autowerewolf.rules.engine import new_game, play_out
from autowerewolf.rules.random_play import play_random_game
from autowerewolf.rules.roles import Camp

KINDS = ("random", "heuristic")


def random_winner(board: str, seed: int) -> Camp | None:
    state, _ = play_random_game(make_config(board, seed=seed, secret=""))
    return state.winner


def heuristic_winner(board: str, seed: int) -> Camp | None:
    """A game of heuristic seats, each asked as a table asks it (players/asker.py)."""
    state, events = new_game(make_config(board, seed=seed, secret=""))
    players: dict[str, Player] = {}
    records: list[DecisionRecord] = []

    def player_of(request: DecisionRequest) -> Player:
        return players.setdefault(request.seat, HeuristicPlayer())

    state, _ = play_out(state, events, answering(player_of, Seating(default="heuristic"), records))
    return state.winner


WINNERS: dict[str, Callable[[str, int], Camp | None]] = {
    "random": random_winner,
    "heuristic": heuristic_winner,
}


def tally(job: tuple[str, str, int, int]) -> Counter[str]:
    kind, board, first, games = job
    play = WINNERS[kind]
    won: Counter[str] = Counter()
    for seed in range(first, first + games):
        winner = play(board, seed)
        won["draw" if winner is None else winner.value] += 1
    return won


def share(won: Counter[str], side: str, games: int) -> str:
    low, high = wilson(won[side], games)
    return f"{won[side] / games:.3f} [{low:.3f}, {high:.3f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="games per board and kind")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--out", help="write the table here instead of printing it")
    args = parser.parse_args()
    chunk = max(1, args.games // (4 * args.processes))
    jobs = [
        (kind, board, first, min(chunk, args.games - first))
        for kind in KINDS
        for board in BOARDS
        for first in range(0, args.games, chunk)
    ]
    started = time.perf_counter()
    with Pool(args.processes) as pool:
        counts = pool.map(tally, jobs)
    totals: dict[tuple[str, str], Counter[str]] = {}
    for (kind, board, _, _), won in zip(jobs, counts, strict=True):
        totals.setdefault((kind, board), Counter()).update(won)
    lines = [
        "| board | players | games | village wins | wolves win | draws |",
        "|---|---|---|---|---|---|",
    ]
    for board in BOARDS:
        for kind in KINDS:
            won, n = totals[(kind, board)], sum(totals[(kind, board)].values())
            cells = [share(won, side, n) for side in (Camp.GOOD.value, Camp.WOLF.value, "draw")]
            lines.append(f"| `{board}` | {kind} | {n:,} | " + " | ".join(cells) + " |")
    machine = f"{platform.processor() or platform.machine()}, Python {platform.python_version()}"
    footer = (
        f"\n`python benchmarks/balance.py --games {args.games}` ({args.processes} "
        f"process{'es' if args.processes != 1 else ''}, "
        f"{time.perf_counter() - started:.0f} s on {machine}; seeds 0-{args.games - 1}, no "
        "secret; 95 % Wilson intervals over games)."
    )
    table = "\n".join(lines) + "\n" + footer + "\n"
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            out.write(table)
    else:
        print(table)


if __name__ == "__main__":
    main()
