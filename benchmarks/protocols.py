"""What discussion protocols and probes cost in model calls, and one day of it on a model.

    python benchmarks/protocols.py                  # calls per day, from random 12-A games
    python benchmarks/protocols.py --local          # + one day on the embedded local model

Calls per day: complete 12-A games of random players (the same seeds under each protocol,
every probe on), counting per day with a discussion the decisions the day asked (each one
call for an LLM seat) by kind, and the probe calls. `--local` plays Night 1 and Day 1
(`max_days=1`) of a 12-A game with every seat on the embedded model, bidding and every
probe on, and reports its calls, tokens and wall time.
"""

import argparse
import time
from collections import Counter
from pathlib import Path

from autowerewolf.backends.local_server import LocalServer
from autowerewolf.graph.builder import RECURSION_LIMIT, build_graph
from autowerewolf.graph.context import GameContext
from autowerewolf.players.factory import (
    ModelPool,
    PlayerBuilder,
    load_models,
)
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import Seating
from autowerewolf.prompts.probes import PROBES
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import Games

PROTOCOLS = ("round_robin", "bidding", "bid_once")
SPEECH_STEPS = {"discussion", "discussion_bid"}


def kind_of(record: DecisionRecord) -> str:
    """A call's category: a probe by name, discussion speeches and bids, everything else."""
    if record.purpose == "probe":
        return f"probe {record.step}"
    if record.step in SPEECH_STEPS:
        return record.step
    return "other decisions"


def calls_by_day(protocol: str, seeds: range) -> list[tuple[int, Counter[str]]]:
    """For each day with a discussion: the living players, and the day's calls by kind."""
    graph = build_graph().compile()
    days = []
    for seed in seeds:
        setup = GameSetup(seed=seed, variants={"discussion": protocol})
        out = graph.invoke(
            {"setup": setup, "seating": Seating(probes=PROBES)},
            {"recursion_limit": RECURSION_LIMIT},
            context=GameContext(),
        )
        records = out["records"]
        for day in sorted({r.day for r in records if r.step == "discussion"}):
            mine = [r for r in records if r.day == day]
            voters = {r.seat for r in mine if r.step == "exile_vote"}
            speakers = {r.seat for r in mine if r.step == "discussion"}
            days.append((len(voters | speakers), Counter(kind_of(r) for r in mine)))
    return days


def report_calls(seeds: range) -> None:
    print(f"12-A, random players, seeds {seeds.start}-{seeds.stop - 1}, every probe on.")
    print("Mean calls per day with a discussion, by players alive that day:")
    columns = ["discussion", "discussion_bid", *(f"probe {p}" for p in PROBES), "other decisions"]
    print(f"{'protocol':<12} {'alive':>5} {'days':>5} " + " ".join(f"{c:>21}" for c in columns))
    for protocol in PROTOCOLS:
        days = calls_by_day(protocol, seeds)
        groups = sorted({n for n, _ in days}, reverse=True)
        for alive in [*groups, 0]:  # 0: every day
            chosen = [c for n, c in days if alive in (0, n)]
            if len(chosen) < 3:
                continue
            total = sum(chosen, Counter())
            cells = " ".join(f"{total[c] / len(chosen):>21.1f}" for c in columns)
            label = "all" if alive == 0 else str(alive)
            print(f"{protocol:<12} {label:>5} {len(chosen):>5} {cells}")


def one_local_day(
    board: str, seed: int, max_tokens: int, timeout_s: int, db: Path, explosions: bool = True
) -> None:
    """Night 1 and Day 1 on the embedded model: bidding and every probe. A role estimate
    of every other seat needs more than the default 400 answer tokens, and more time on a
    busy CPU: `max_tokens` and `timeout_s` raise both."""
    pool = ModelPool(LocalServer())
    settings = [f"default.max_tokens={max_tokens}", f"default.timeout_s={timeout_s}"]
    models = load_models(None, settings)
    # Without explosions a day always reaches its last speech and vote (every probe asked).
    variants = {"discussion": "bidding", "allow_wolf_self_explode": explosions}
    setup = GameSetup(board=board, seed=seed, max_days=1, variants=variants)
    games = Games(db, create=True, context=GameContext(PlayerBuilder(models, pool)))
    started = time.perf_counter()
    try:
        record = games.start(f"day-{seed}", setup, Seating(default="llm", probes=PROBES))
    finally:
        pool.close()
        games.close()
    wall = time.perf_counter() - started
    records = [r for r in record.records if r.player == "llm"]
    print(f"One {board} day (Night 1 + Day 1, seed {seed}) on the embedded model, bidding and")
    print(f"every probe, answers up to {max_tokens} tokens:")
    print(f"wall time {wall:.0f} s; status {record.status}; steps {record.game.ply}")
    by_kind: dict[str, list[DecisionRecord]] = {}
    for r in records:
        by_kind.setdefault(kind_of(r), []).append(r)
    for kind, rs in sorted(by_kind.items()):
        calls = len(rs) + sum(r.retries for r in rs)
        tokens_in = sum(r.tokens_in or 0 for r in rs)
        tokens_out = sum(r.tokens_out or 0 for r in rs)
        seconds = sum(r.latency_s for r in rs)
        fallbacks = sum(r.fallback for r in rs)
        print(
            f"  {kind:<24} questions {len(rs):>4}  calls {calls:>4}  tokens in {tokens_in:>8}  "
            f"out {tokens_out:>7}  model seconds {seconds:>7.0f}  fallbacks {fallbacks}"
        )
    calls = len(records) + sum(r.retries for r in records)
    tokens = sum((r.tokens_in or 0) + (r.tokens_out or 0) for r in records)
    print(f"  total: {len(records)} questions, {calls} calls, {tokens} tokens")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=30, help="random games per protocol (0: none)")
    parser.add_argument("--local", action="store_true", help="also one day on the local model")
    parser.add_argument("--seed", type=int, default=7, help="seed of the local day")
    parser.add_argument("--board", default="12-A", help="board of the local day")
    parser.add_argument("--max-tokens", type=int, default=1200, help="answer bound, local day")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per call, local day")
    parser.add_argument("--db", type=Path, default=Path("protocols-day.db"), help="local day")
    parser.add_argument(
        "--no-explosions", action="store_true", help="local day: wolves may not self-explode"
    )
    args = parser.parse_args()
    if args.games:
        report_calls(range(args.games))
    if args.local:
        one_local_day(
            args.board, args.seed, args.max_tokens, args.timeout, args.db, not args.no_explosions
        )


if __name__ == "__main__":
    main()
