"""Candidate embedded models compared on complete default 12-A games: blunder rate,
fallbacks and seconds per game.

    flock /tmp/autowerewolf-model.lock python benchmarks/embedded_models.py play \\
        --model qwen0.5b=/path/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf \\
        --model smollm2=/path/SmolLM2-135M-Instruct.Q4_1.gguf --games 10 --out bench-models
    python benchmarks/embedded_models.py table --out bench-models

`play` serves each model with the project's llama.cpp server (2 slots, 16k context, prompt
cache on, as the local backend runs it) and plays seeded games, every seat `llm` with the
`plain` agent design, into one database per model (`OUT/LABEL.db`). Seeds are interleaved
across the models (seed 1 on every model, then seed 2...), so that a run cut short leaves
every model with as many games; running it again continues where it stopped. Each game's
wall time and the machine's load average are appended to `OUT/LABEL.jsonl`.

`table` reads the databases read-only and prints one Markdown row per model: the blunder
rates of `autowerewolf.evaluation.games.blunders` (each metric and overall, blunders /
opportunities over all games), the share of decisions that fell back to a random choice,
the share of speeches and wolf messages that stayed out of character (an assistant's
apology or refusal, `prompts/second_look.py`) and the median seconds per game.
"""

import argparse
import json
import os
import statistics
import time
from pathlib import Path

from autowerewolf.backends.config import PlayerModels
from autowerewolf.backends.local_server import LocalServer
from autowerewolf.evaluation.games.blunders import Tally, blunders, merge, total
from autowerewolf.graph.context import GameContext
from autowerewolf.players.factory import (
    DEFAULT_MODELS,
    LOCAL_CONTEXT_TOKENS,
    ModelPool,
    PlayerBuilder,
)
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import Seating
from autowerewolf.prompts.second_look import speech_out_of_character
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.events import EventKind
from autowerewolf.runner import GameRecord, Games

METRICS = (
    "wolf_self_kill",
    "wolf_pack_kills_wolf",
    "wolf_needless_explosion",
    "witch_poisons_good",
    "seer_recheck",
    "hunter_shoots_good",
    "seer_ballot_on_checked_good",
    "wolf_votes_teammate_out",
    "overall",
)


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f}/{five:.2f}"


def play_game(label: str, path: Path, seed: int, out: Path) -> None:
    db = out / f"{label}.db"
    game_id = f"{label}-s{seed}"
    games = Games(db, create=True)
    try:
        record = games.peek(game_id)
        if record is not None and record.status == "finished":
            return
    finally:
        games.close()
    server = LocalServer(model_path=path, alias=label, ctx_size=LOCAL_CONTEXT_TOKENS)
    with server:
        config = DEFAULT_MODELS.default.model_copy(
            update={"model": label, "base_url": server.base_url, "timeout_s": 900}
        )
        pool = ModelPool()
        context = GameContext(player_factory=PlayerBuilder(PlayerModels(default=config), pool))
        games = Games(db, create=True, context=context)
        before = load()
        began = time.monotonic()
        try:
            if games.exists(game_id):
                record = games.resume(game_id)
            else:
                record = games.start(game_id, GameSetup(seed=seed), Seating(default="llm"))
        finally:
            games.close()
        wall = time.monotonic() - began
    line = {
        "game": game_id,
        "seed": seed,
        "status": record.status,
        "wall_s": round(wall, 1),
        "load_before": before,
        "load_after": load(),
        "days": record.game.day,
        "winner": record.game.winner.value if record.game.winner else None,
    }
    with (out / f"{label}.jsonl").open("a", encoding="utf-8") as f:
        f.write(json.dumps(line) + "\n")
    print(json.dumps(line), flush=True)


def _out_of_character(game: GameRecord, record: DecisionRecord) -> bool:
    """By the widened definition: apologies, recited prompts, acts against what the seat
    knew by that day (a Seer's results, a Witch's saves)."""
    role = game.game.seat(record.seat).role
    mine = [e for e in game.events if e.seat == record.seat and e.day <= record.day]
    checks = {e.target: e.value for e in mine if e.kind is EventKind.SEER_RESULT and e.target}
    saved = [e.target for e in mine if e.kind is EventKind.WITCH_CURE and e.target]
    return speech_out_of_character(record, role, checks, saved)


def table(out: Path) -> None:
    print(
        "| model | games | "
        + " | ".join(METRICS)
        + " | fallbacks | out of character | s/game median | days median | load (1/5 min) |"
    )
    print("|" + "---|" * (len(METRICS) + 7))
    for db in sorted(out.glob("*.db")):
        label = db.stem
        games = Games(db, readonly=True)
        tables, fallbacks, decisions, texts, refusals = [], 0, 0, 0, 0
        try:
            for game_id in games.ids():
                record = games.peek(game_id)
                if record is None or record.status != "finished":
                    continue
                tables.append({"all": total(blunders(record.events))})
                llm = [r for r in record.records if r.player == "llm" and r.purpose == "decision"]
                decisions += len(llm)
                fallbacks += sum(r.fallback for r in llm)
                said = [r for r in llm if r.text]
                texts += len(said)
                refusals += sum(_out_of_character(record, r) for r in said)
        finally:
            games.close()
        timings = out / f"{label}.jsonl"  # absent until the model's first game has ended
        lines = (
            [json.loads(x) for x in timings.read_text().splitlines()] if timings.exists() else []
        )
        finished = [x for x in lines if x["status"] == "finished"]
        merged = merge(tables).get("all", {})
        cells = [_rate(merged.get(m)) for m in METRICS]
        walls = [x["wall_s"] for x in finished]
        days = [x["days"] for x in finished]
        loads = sorted({x["load_before"] for x in finished})
        print(
            f"| {label} | {len(tables)} | "
            + " | ".join(cells)
            + f" | {fallbacks}/{decisions} ({fallbacks / max(1, decisions):.1%})"
            + f" | {refusals}/{texts} ({refusals / max(1, texts):.0%})"
            + f" | {statistics.median(walls) if walls else 0:.0f}"
            + f" | {statistics.median(days) if days else 0:.0f}"
            + f" | {loads[0] if loads else '-'} to {loads[-1] if loads else '-'} |"
        )


def _rate(tally: Tally | None) -> str:
    if tally is None or not tally.opportunities:
        return "-"
    return f"{tally.count}/{tally.opportunities} ({tally.count / tally.opportunities:.0%})"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("command", choices=("play", "table"))
    parser.add_argument("--model", action="append", default=[], help="LABEL=PATH.gguf")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed-start", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("bench-models"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.command == "table":
        table(args.out)
        return
    models = [(label, Path(path)) for label, _, path in (m.partition("=") for m in args.model)]
    for seed in range(args.seed_start, args.seed_start + args.games):
        for label, path in models:
            play_game(label, path, seed, args.out)


if __name__ == "__main__":
    main()
