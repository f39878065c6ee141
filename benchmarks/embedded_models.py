"""Candidate embedded models compared on complete default 12-A games: blunder rate,
fallbacks and seconds per game.

    flock /tmp/autowerewolf-model.lock python benchmarks/embedded_models.py play \\
        --model qwen0.5b=/path/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf \\
        --model smollm2=/path/SmolLM2-135M-Instruct.Q4_1.gguf --games 10 --out bench-models
    python benchmarks/embedded_models.py table --out bench-models
    python benchmarks/embedded_models.py profile --out bench-models

`play` serves each model with the project's llama.cpp server (as the local backend runs it:
a slot per seat, prompt cache on) and plays seeded games, every seat `llm` with the
`plain` agent design and the local default `focused` answer budget (`--budget compact`:
private reasoning before every answer, as before Nov 29; `terse`: none; give each a label
of its own), into one database per model (`OUT/LABEL.db`).
Seeds are interleaved across the models (seed 1 on every model, then seed 2...), so that a
run cut short leaves every model with as many games; running it again continues where it
stopped. Each game's wall time, the machine's load average and the server's own work (from
its log: prompt tokens it computed and the seconds it spent on them, tokens it generated
and their seconds; the slots work at once in a simultaneous decision, so these seconds
overlap) are appended to `OUT/LABEL.jsonl`.

`table` reads the databases read-only (of one or several `--out` directories, added up
by model) and prints, per model, one Markdown row per measure: the blunder rates of
`autowerewolf.evaluation.games.blunders` (each metric and overall, blunders / opportunities
over all games), the share of decisions that fell back to a random choice, the share of
speeches and wolf messages that stayed out of character (an apology or a refusal, a
recited prompt, a claim against what the seat knew: `prompts/second_look.py`), the share
of prompt tokens the server answered from its cache, the decisions asked a second time, and
how often the Witch's poison and the Hunter's shot were used when asked (not "none").
Each beside its 95% interval over games (a cluster bootstrap: the games are the
independent unit), the games with an opportunity and, for the blunders, the chance level
(a random player's rate on the same decisions). Then the seconds per game. `profile`
prints where each game's time went (the server's own figures per game, then the model
calls by decision kind).
"""

import argparse
import json
import os
import re
import statistics
import time
from collections.abc import Hashable, Iterator
from pathlib import Path

from autowerewolf.backends.config import PlayerModels
from autowerewolf.backends.local_server import LocalServer
from autowerewolf.evaluation.bootstrap import (
    Cell,
    GameTable,
    Resamples,
    Sums,
    bump,
    chance_ratio,
    proportion,
)
from autowerewolf.evaluation.games.blunders import chances, judgements, tally, total
from autowerewolf.evaluation.games.facts import SECOND_LOOK
from autowerewolf.evaluation.games.speeches import out_of_character
from autowerewolf.evaluation.report.cells import NO_CHANCE, counted
from autowerewolf.graph.context import GameContext
from autowerewolf.players.factory import (
    DEFAULT_MODELS,
    ModelPool,
    PlayerBuilder,
)
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import Seating
from autowerewolf.prompts.answers import BUDGETS
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.decisions import Option
from autowerewolf.runner import GameRecord, Games

# The kills a good seat should hold without evidence: how often each was used, beside the
# blunder metric that judges the target once used (witch_poisons_good, hunter_shoots_good).
KILLS_HELD_BY_DEFAULT = ("witch_poison", "hunter_shot")
RESAMPLES = 2000  # bootstrap resamples of the games, drawn from seed 0: the same every run
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


def play_game(label: str, path: Path, seed: int, out: Path, budget: str) -> None:
    db = out / f"{label}.db"
    game_id = f"{label}-s{seed}"
    games = Games(db, create=True)
    try:
        record = games.peek(game_id)
        if record is not None and record.status == "finished":
            return
    finally:
        games.close()
    log = out / f"{game_id}.{int(time.time())}.server.log"
    server = LocalServer(model_path=path, alias=label, log_path=log)
    with server:
        # The managed server, as `autowerewolf play` runs it: each seat pinned to its slot.
        config = DEFAULT_MODELS.default.model_copy(
            update={"model": label, "timeout_s": 900, "budget": budget}
        )
        pool = ModelPool(local=server)
        context = GameContext(player_factory=PlayerBuilder(PlayerModels(default=config), pool))
        games = Games(db, create=True, context=context)
        before = load()
        began = time.monotonic()
        try:
            if games.exists(game_id):
                record = games.resume(game_id)
            else:
                # The empty secret: the seed alone deals, so seed N is the same deal on
                # every model and every run (the sampling still varies).
                setup = GameSetup(seed=seed, secret="")
                record = games.start(game_id, setup, Seating(default="llm"))
        finally:
            games.close()
        wall = time.monotonic() - began
    line = {
        "game": game_id,
        "seed": seed,
        "budget": budget,
        "status": record.status,
        "wall_s": round(wall, 1),
        "load_before": before,
        "load_after": load(),
        "days": record.game.day,
        "winner": record.game.winner.value if record.game.winner else None,
        **server_work(log),
    }
    with (out / f"{label}.jsonl").open("a", encoding="utf-8") as f:
        f.write(json.dumps(line) + "\n")
    print(json.dumps(line), flush=True)


# llama-server's timing lines: "prompt eval time = 9568.81 ms / 460 tokens (...)" and
# "eval time = 5544.24 ms / 80 tokens (...)", one pair per answered request.
TIMING = re.compile(r"(prompt eval|\|\s+eval) time =\s+([\d.]+) ms /\s+(\d+) tokens")


def server_work(log: Path) -> dict[str, float]:
    """What the server computed in one run, from its log."""
    work = {"requests": 0.0, "prompt_tokens": 0.0, "prompt_s": 0.0, "gen_tokens": 0.0, "gen_s": 0.0}
    for kind, ms, tokens in TIMING.findall(log.read_text(errors="replace")):
        prompt = kind == "prompt eval"
        work["requests"] += prompt
        work["prompt_tokens" if prompt else "gen_tokens"] += int(tokens)
        work["prompt_s" if prompt else "gen_s"] += float(ms) / 1000
    return {k: round(v, 1) for k, v in work.items()}


def _out_of_character(game: GameRecord, record: DecisionRecord) -> bool:
    """By the widened definition: apologies, recited prompts, acts against what the seat
    knew by that day (a Seer's results, a Witch's saves); the report judges the same."""
    return out_of_character(game.events, game.game.seat(record.seat).role, record)


def table(outs: list[Path]) -> None:
    """Per model (its databases in every `outs` directory): each blunder metric, fallbacks,
    out-of-character texts, cache, second looks and the use of the poison and the shot, as
    count/n with the 95% interval over games (the independent unit), the games with an
    opportunity and the chance level; then the seconds per game."""
    print("| model | measure | count/n (rate) [95% interval over games] | games | chance |")
    print("|" + "---|" * 5)
    for label, dbs in _by_label(outs, "db").items():
        per_game = GameTable()
        for db in dbs:
            for record in finished_games(db):
                per_game.add(_game_values(record))
        sums = Sums(per_game, Resamples(per_game.games, RESAMPLES, seed=0))
        rows = [
            *((m, proportion(sums, (m, "count"), (m, "n"), _chance(sums, m))) for m in METRICS),
            ("fallbacks", proportion(sums, "fallbacks", "decisions")),
            ("out of character", proportion(sums, "out of character", "texts")),
            ("prompt tokens from cache", proportion(sums, "cached", "prompt tokens")),
            ("asked a second time", proportion(sums, "second looks", "decisions")),
            *((f"{step} used (not none)", _used(sums, step)) for step in KILLS_HELD_BY_DEFAULT),
        ]
        for measure, cell in rows:
            chance = NO_CHANCE if cell["chance"] is None else f"{cell['chance']:.1%}"
            print(
                f"| {label} | {measure} | {counted(cell, 'no opportunity')} | {cell['games']}"
                f" | {chance} |"
            )
    print()
    print("| model | games | s/game median (min-max) | days median | load before (1/5 min) |")
    print("|" + "---|" * 5)
    for label, files in _by_label(outs, "jsonl").items():
        lines = [json.loads(x) for f in files for x in f.read_text().splitlines()]
        finished = [x for x in lines if x["status"] == "finished"]
        if not finished:
            continue
        walls = [x["wall_s"] for x in finished]
        # "1.82/1.91": sorted by the 1-minute figure as a number, so "10.2" follows "2.3".
        loads = sorted((x["load_before"] for x in finished), key=lambda x: float(x.split("/")[0]))
        print(
            f"| {label} | {len(finished)} | {statistics.median(walls):.0f}"
            f" ({min(walls):.0f}-{max(walls):.0f})"
            f" | {statistics.median(x['days'] for x in finished):.0f}"
            f" | {loads[0]} to {loads[-1]} |"
        )


def _chance(sums: Sums, metric: str) -> float | None:
    """A random player's rate on the same decisions (those whose options are known)."""
    return chance_ratio(sums, (metric, "chance"), (metric, "known"))


def _used(sums: Sums, step: str) -> Cell:
    """How often a kill held by default was used when asked, beside a random player's rate."""
    chance = chance_ratio(sums, (step, "chance"), (step, "asked"))
    return proportion(sums, (step, "used"), (step, "asked"), chance)


def _by_label(outs: list[Path], suffix: str) -> dict[str, list[Path]]:
    """Each model's files of one kind (`LABEL.db`, `LABEL.jsonl`) over the directories."""
    found: dict[str, list[Path]] = {}
    for out in outs:
        for path in sorted(out.glob(f"*.{suffix}")):
            found.setdefault(path.stem, []).append(path)
    return found


def _game_values(record: GameRecord) -> dict[Hashable, float]:
    """One game's row of the table's per-game sums: each metric's blunders, opportunities
    and summed chance level (over the decisions whose options are known, and their count),
    and the LLM decisions' counts behind the other measures."""
    found = judgements(record.events, record.records)
    tallies = total(tally(found, record.events))
    odds = chances(found)
    values: dict[Hashable, float] = {}
    for metric, t in tallies.items():
        bump(values, (metric, "count"), t.count)
        bump(values, (metric, "n"), t.opportunities)
        for by_metric in odds.values():
            summed, known = by_metric.get(metric, (0.0, 0.0))
            bump(values, (metric, "chance"), summed)
            bump(values, (metric, "known"), known)
    llm = [r for r in record.records if r.player == "llm" and r.purpose == "decision"]
    said = [r for r in llm if r.text]
    bump(values, "decisions", len(llm))
    bump(values, "fallbacks", sum(r.fallback for r in llm))
    bump(values, "texts", len(said))
    bump(values, "out of character", sum(_out_of_character(record, r) for r in said))
    bump(values, "prompt tokens", sum(r.tokens_in or 0 for r in llm))
    bump(values, "cached", sum(r.cached_tokens or 0 for r in llm))
    bump(values, "second looks", sum(SECOND_LOOK in (r.error or "") for r in llm))
    for step in KILLS_HELD_BY_DEFAULT:
        asked = [r for r in llm if r.step == step]
        bump(values, (step, "asked"), len(asked))
        bump(values, (step, "used"), sum(r.option != Option.NONE for r in asked))
        # A random player uses it unless it draws "none", one of the options.
        bump(values, (step, "chance"), sum(1 - 1 / len(r.options) for r in asked if r.options))
    return values


def profile(outs: list[Path]) -> None:
    """Where each finished game's time went: the server's own figures per game, then the
    model calls of every finished game by decision kind (from the games' records)."""
    print("| game | wall s | requests | prompt tokens computed | prompt s | tokens generated"
          " | generation s | load before |")  # fmt: skip
    print("|" + "---|" * 8)
    for timings in (f for out in outs for f in sorted(out.glob("*.jsonl"))):
        for line in map(json.loads, timings.read_text().splitlines()):
            if line["status"] != "finished" or "requests" not in line:
                continue
            print(
                f"| {line['game']} | {line['wall_s']:.0f} | {line['requests']:.0f}"
                f" | {line['prompt_tokens']:.0f} | {line['prompt_s']:.0f}"
                f" | {line['gen_tokens']:.0f} | {line['gen_s']:.0f} | {line['load_before']} |"
            )
    print()
    print("| model | decision | decisions | second looks | prompt tokens | from cache"
          " | prompt tokens computed | of which the question (est.) | generated tokens"
          " | generated per decision |")  # fmt: skip
    print("|" + "---|" * 10)
    for label, dbs in _by_label(outs, "db").items():
        for step, calls in sorted(_calls_by_step(dbs).items(), key=lambda kv: -kv[1][3]):
            n, looks, prompt, computed, question, generated = calls
            cached = 1 - computed / max(1, prompt)
            print(
                f"| {label} | {step} | {n} | {looks} | {prompt} | {cached:.0%}"
                f" | {computed} | {question} | {generated} | {generated / max(1, n):.0f} |"
            )


def _calls_by_step(dbs: list[Path]) -> dict[str, list[int]]:
    """Per decision kind over the databases' finished games: decisions, second looks,
    prompt tokens, prompt tokens not from the cache, the question's share of the prompt
    tokens, and generated tokens (a second look's included).

    The question (the record's `prompt`: the seat's notes, the decision and its choices)
    follows the transcript, so no cache ever holds it. Its tokens are estimated as the
    prompt's tokens times its share of the prompt's characters."""
    steps: dict[str, list[int]] = {}
    for record in (game for db in dbs for game in finished_games(db)):
        for r in record.records:
            if r.player != "llm":
                continue
            step = r.key.split(":")[1] if r.purpose == "decision" else r.purpose
            row = steps.setdefault(step, [0, 0, 0, 0, 0, 0])
            prompt = r.tokens_in or 0
            row[0] += 1
            row[1] += SECOND_LOOK in (r.error or "")
            row[2] += prompt
            row[3] += prompt - (r.cached_tokens or 0)
            row[4] += round(prompt * len(r.prompt or "") / r.prompt_chars) if r.prompt_chars else 0
            row[5] += r.tokens_out or 0
    return steps


def finished_games(db: Path) -> Iterator[GameRecord]:
    """The finished games of a database, read-only."""
    games = Games(db, readonly=True)
    try:
        for game_id in games.ids():
            record = games.peek(game_id)
            if record is not None and record.status == "finished":
                yield record
    finally:
        games.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("command", choices=("play", "table", "profile"))
    parser.add_argument("--model", action="append", default=[], help="LABEL=PATH.gguf")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed-start", type=int, default=1)
    parser.add_argument(
        "--budget",
        choices=tuple(BUDGETS),
        default="focused",
        help="play: the answer budget (focused, the local default's; compact: reasoning "
        "before every answer; terse: none)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        action="append",
        help="the games' directory (default bench-models); `table` adds up several",
    )
    args = parser.parse_args()
    outs: list[Path] = args.out or [Path("bench-models")]
    if args.command in ("table", "profile"):
        missing = [str(out) for out in outs if not out.is_dir()]
        if missing:
            parser.error(f"no such directory: {', '.join(missing)}")
        (table if args.command == "table" else profile)(outs)
        return
    if len(outs) > 1:
        parser.error("play writes to one --out directory")
    out = outs[0]
    out.mkdir(parents=True, exist_ok=True)
    models = [(label, Path(path)) for label, _, path in (m.partition("=") for m in args.model)]
    for seed in range(args.seed_start, args.seed_start + args.games):
        for label, path in models:
            play_game(label, path, seed, out, args.budget)


if __name__ == "__main__":
    main()
