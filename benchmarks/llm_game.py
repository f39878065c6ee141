"""A complete 12-player LLM game: wall time, calls, prompt tokens (median, max, last day
against first day), share served from the server's prompt cache, fallback rate.

    python benchmarks/llm_game.py                      # the embedded local model
    python benchmarks/llm_game.py --simulated 0.2      # a simulated model answering in 0.2 s

With --simulated, it also checks that independent decisions run concurrently: wall time
against (decision rounds on the critical path x latency).
"""

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from autowerewolf.backends.local_server import LocalServer
from autowerewolf.backends.simulated import SimulatedChatModel
from autowerewolf.graph.context import GameContext
from autowerewolf.players.base import Player
from autowerewolf.players.factory import (
    ModelPool,
    PlayerBuilder,
    PlayerFactory,
    basic_player,
)
from autowerewolf.players.llm.player import LLMPlayer
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import PlayerKind, Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.views import SeatView
from autowerewolf.runner import Games


def simulated_factory(latency_s: float) -> PlayerFactory:
    model = SimulatedChatModel(latency_s=latency_s)

    def factory(seat: str, kind: PlayerKind, seating: Seating, view: SeatView) -> Player:
        if kind == "llm":
            return LLMPlayer(model, "simulated")
        return basic_player(seat, kind, seating, view)

    return factory


def decision_rounds(records: list[DecisionRecord]) -> int:
    """Decisions on the critical path: a simultaneous decision counts once."""
    return len({r.key for r in records})


def report(records: list[DecisionRecord], wall_s: float) -> None:
    calls = len(records) + sum(r.retries for r in records)
    prompt_tokens = [r.tokens_in or 0 for r in records]
    cached = sum(r.cached_tokens or 0 for r in records)
    first_day = min(r.day for r in records)
    last_day = max(r.day for r in records)
    first = [r.tokens_in or 0 for r in records if r.day == first_day]
    last = [r.tokens_in or 0 for r in records if r.day == last_day]
    fallbacks = sum(r.fallback for r in records)
    print(f"wall time: {wall_s:.1f} s, decisions: {len(records)}, LLM calls: {calls}")
    print(
        f"prompt tokens per call: median {statistics.median(prompt_tokens):.0f}, "
        f"max {max(prompt_tokens)}; day {first_day} median {statistics.median(first):.0f}, "
        f"day {last_day} median {statistics.median(last):.0f} "
        f"(ratio {statistics.median(last) / max(1, statistics.median(first)):.2f})"
    )
    print(f"prompt tokens served from cache: {cached / max(1, sum(prompt_tokens)):.1%}")
    rate = fallbacks / len(records)
    print(f"fallbacks: {fallbacks} ({rate:.1%}); valid without fallback: {1 - rate:.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--simulated", type=float, help="simulated model latency in seconds")
    parser.add_argument("--db", type=Path, help="keep the game in this database (game id 'bench')")
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        help="rule flag=value, e.g. allow_wolf_self_explode=false",
    )
    args = parser.parse_args()
    pool = ModelPool(LocalServer())
    factory = simulated_factory(args.simulated) if args.simulated else PlayerBuilder(None, pool)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "bench.db"
        games = Games(db, create=True, context=GameContext(factory))
        started = time.perf_counter()
        try:
            variants = {k: v.lower() == "true" for k, v in (f.split("=", 1) for f in args.variant)}
            setup = GameSetup(seed=args.seed, variants=variants)
            record = games.start("bench", setup, Seating(default="llm"))
        finally:
            pool.close()
        wall = time.perf_counter() - started
        games.close()
    game = record.game
    print(f"winner: {game.winner} ({game.win_reason}), days: {game.day}, steps: {game.ply}")
    records = [r for r in record.records if r.player == "llm"]
    report(records, wall)
    if args.simulated:
        rounds = decision_rounds(records)
        bound = rounds * args.simulated
        print(
            f"decision rounds on the critical path: {rounds}; x latency = {bound:.1f} s; "
            f"wall / bound = {wall / bound:.2f}"
        )


if __name__ == "__main__":
    main()
