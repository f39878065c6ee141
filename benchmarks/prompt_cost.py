"""What prompts cost over complete default 12-A games with every seat an LLM: how they grow
from the first day to the last, how much of them a prefix cache can serve, and the CPU the
project spends per step outside the model.

    python benchmarks/prompt_cost.py --games 5              # a deterministic fake model
    python benchmarks/prompt_cost.py --agent adaptive       # another agent design
    flock /tmp/autowerewolf-model.lock python benchmarks/prompt_cost.py --local --games 1
    python benchmarks/prompt_cost.py --db bench-models/qwen0.5b.db   # games already played

With the fake model (no server): prompt sizes are characters / 4; the cacheable share is
the part of each prompt that repeats the start of the previous prompt of the same seat (or of
the seats sharing its view) or of the prompt sent just before (what a server keeping every
slot's prefix could serve); CPU per step is the
process CPU time of the game, less the fake model's own, over the game's steps. With
`--local`, the embedded model answers and the figures are the server's own token counts and
cached tokens. With `--db`, the finished games of a database (read-only) are measured the
same way from their records.
"""

import argparse
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from autowerewolf.backends.config import ModelConfig
from autowerewolf.graph.context import GameContext
from autowerewolf.players.agents.choice import AgentChoice
from autowerewolf.players.factory import ModelPool, PlayerBuilder
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import GameRecord, Games

# The fake model lives in the tests package, which is not installed: run as a script, the
# repository root is not on the path.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.fakes.chat import FakeChatModel, legal_json


class TimedAnswers:
    """The fake model's answers (tests/fakes/chat.py), counting the CPU spent writing them:
    the model's side. The client's side (LangChain and the OpenAI SDK building the request
    and parsing the answer) is the project's own cost, as with a real server."""

    def __init__(self) -> None:
        self.cpu_s = 0.0

    def __call__(self, messages: list[BaseMessage], schema: dict[str, Any]) -> str:
        began = time.process_time()
        try:
            return legal_json(messages, schema)
        finally:
            self.cpu_s += time.process_time() - began


class FakePool(ModelPool):
    def __init__(self, chat: FakeChatModel) -> None:
        super().__init__()
        self.fake = chat

    def chat(self, config: ModelConfig, seat: int | str | None = None) -> Any:
        return self.fake


def shared_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def fake_game(seed: int, agents: AgentChoice) -> dict[str, Any]:
    answers = TimedAnswers()
    chat = FakeChatModel(answers)
    seating = Seating(default="llm", agents=agents)
    with tempfile.TemporaryDirectory() as tmp:
        games = Games(
            Path(tmp) / "g.db",
            create=True,
            context=GameContext(PlayerBuilder(None, FakePool(chat))),
        )
        began = time.process_time()
        record = games.start("g", GameSetup(seed=seed), seating)
        cpu = time.process_time() - began
        games.close()
    by_view: dict[str, str] = {}
    total = cacheable = 0
    previous = ""
    for prompt in chat.prompts:
        # The seats that share a view share their system prompt, and a slot
        # (rules.views.shared_view): the others' system prompts are their own.
        view = prompt.split("\nGame so far:")[0]
        total += len(prompt)
        # The slot's previous prompt, or the last one sent (the common rules text).
        cacheable += max(
            shared_prefix(by_view.get(view, ""), prompt), shared_prefix(previous, prompt)
        )
        by_view[view] = previous = prompt
    return {
        "records": record.records,
        "steps": record.game.ply,
        "cpu_ms_per_step": 1000 * (cpu - answers.cpu_s) / record.game.ply,
        "cacheable": cacheable / total,
        "days": record.game.day,
    }


def growth(records: list[DecisionRecord], chars: bool) -> tuple[float, float]:
    """Median prompt size of the first day's calls and of the last day's."""
    size = defaultdict(list)
    for r in records:
        if r.player == "llm":
            size[r.day].append((r.prompt_chars or 0) / 4 if chars else (r.tokens_in or 0))
    return statistics.median(size[min(size)]), statistics.median(size[max(size)])


def real_cost(record: GameRecord) -> dict[str, Any]:
    """A game's figures from the server's own counts in its records."""
    llm = [r for r in record.records if r.player == "llm"]
    prompt = sum(r.tokens_in or 0 for r in llm)
    return {
        "records": record.records,
        "steps": record.game.ply,
        "cacheable": sum(r.cached_tokens or 0 for r in llm) / max(1, prompt),
        "days": record.game.day,
    }


def local_game(seed: int, agents: AgentChoice) -> dict[str, Any]:
    pool = ModelPool()
    with tempfile.TemporaryDirectory() as tmp:
        games = Games(
            Path(tmp) / "g.db", create=True, context=GameContext(PlayerBuilder(None, pool))
        )
        try:
            record = games.start("g", GameSetup(seed=seed), Seating(default="llm", agents=agents))
        finally:
            games.close()
            pool.close()
    return real_cost(record)


def saved_games(db: Path) -> list[tuple[str, dict[str, Any]]]:
    games = Games(db, readonly=True)
    try:
        records = (games.peek(i) for i in games.ids())
        return [(r.game_id, real_cost(r)) for r in records if r and r.status == "finished"]
    finally:
        games.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed-start", type=int, default=1)
    parser.add_argument("--agent", default="plain", help="the agent design of every seat")
    parser.add_argument("--local", action="store_true", help="the embedded model, not a fake")
    parser.add_argument("--db", type=Path, help="measure the finished games of this database")
    args = parser.parse_args()
    agents = AgentChoice(default=args.agent)
    real = args.local or args.db is not None
    print(
        "| game | days | steps | first-day median | last-day median | ratio | cache share |"
        + ("" if real else " CPU ms/step |")
    )
    print("|---|---|---|---|---|---|---|" + ("" if real else "---|"))
    ratios, shares, cpus = [], [], []
    seeds = range(args.seed_start, args.seed_start + args.games)
    played = (
        saved_games(args.db)
        if args.db is not None
        else ((str(seed), local_game(seed, agents) if args.local else fake_game(seed, agents))
              for seed in seeds)
    )  # fmt: skip
    for name, out in played:
        first, last = growth(out["records"], chars=not real)
        ratios.append(last / first)
        shares.append(out["cacheable"])
        line = (
            f"| {name} | {out['days']} | {out['steps']} | {first:.0f} | {last:.0f} | "
            f"{last / first:.2f} | {out['cacheable']:.1%} |"
        )
        if not real:
            cpus.append(out["cpu_ms_per_step"])
            line += f" {out['cpu_ms_per_step']:.1f} |"
        print(line, flush=True)
    print(
        f"\nmax last/first ratio {max(ratios):.2f} (goal <= 2), min cache share "
        f"{min(shares):.1%} (goal >= 70%)"
        + (f", max CPU {max(cpus):.1f} ms/step (goal <= 10)" if cpus else "")
    )


if __name__ == "__main__":
    main()
