"""What the studies cost: positions build, positions run (rule-based players, and a few
items on the embedded local model), a counterfactual experiment, GTE ratings, export.

    python benchmarks/studies.py --db tournaments/heuristic-vs-random/games.db
    python benchmarks/studies.py --db ... --llm-items 4 --decodes 2   # the embedded model

The role-estimate answer needs ~50 tokens per rated seat (~550 on Day 1 of 12-A), so the
embedded model runs with --max-tokens 1000 (the players' default, 400, cuts it).
    python benchmarks/studies.py --db ... --experiment 50             # 2 x 50 continuations

The database is the example tournament's (`autowerewolf tournament examples/tournament.yaml`).
Everything is written to a temporary folder; the database is only read.
"""

import argparse
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from autowerewolf.backends.config import PlayerModels
from autowerewolf.evaluation.bootstrap import Resamples
from autowerewolf.evaluation.experiments import ExperimentSpec, prepare, run_experiment, summarize
from autowerewolf.evaluation.export.jsonl import export
from autowerewolf.evaluation.positions.items import Filters, PositionItem, build_items
from autowerewolf.evaluation.positions.run import RunSpec, UnderTest, run_positions
from autowerewolf.evaluation.positions.scores import block_text
from autowerewolf.evaluation.positions.scores import summarize as summarize_positions
from autowerewolf.evaluation.ratings.gte import gte_ratings
from autowerewolf.evaluation.report.metrics import Aggregator
from autowerewolf.evaluation.saved import SavedGames
from autowerewolf.evaluation.tournament.results import iter_rows
from autowerewolf.players.factory import DEFAULT_MODELS, load_models
from autowerewolf.rules.engine import pending_decision


def timed(label: str, run: Callable[[], Any]) -> Any:
    started = time.perf_counter()
    result = run()
    print(f"{label}: {time.perf_counter() - started:.1f} s")
    return result


def cell(block: dict[str, Any]) -> str:
    return block_text(block, "" if block["mean"] is None else f"; chance {block['chance']:.3f}")


def positions(
    items: list[PositionItem], kind: str, decodes: int, out: Path, models: PlayerModels | None
) -> None:
    spec = RunSpec(
        items="bench",
        players=kind,  # type: ignore[arg-type]
        agent=None,
        models=models.model_dump() if models else None,
        decodes=decodes,
        seed=0,
    )
    under_test = UnderTest(spec, models)
    try:
        rows = timed(
            f"positions run --players {kind} ({len(items)} items x {decodes})",
            lambda: run_positions(items, under_test, out / f"{kind}.jsonl"),
        )
    finally:
        under_test.pool.close()
    s = summarize_positions(items, rows)
    print(f"  VA {cell(s['overall']['va'])}  OI {cell(s['overall']['oi'])}")
    if s["calls"]:
        answers = len(rows)
        tokens = s["tokens_in"] + s["tokens_out"]
        print(
            f"  {s['calls']} calls, {s['tokens_in']} tokens in ({s['cached_tokens']} cached), "
            f"{s['tokens_out']} out; model time {s['latency_s']:.0f} s, "
            f"{s['latency_s'] / answers:.1f} s and {tokens / answers:.0f} tokens per answer; "
            f"fallbacks {s['fallbacks']}"
        )


def seer_exile(db: Path, game_id: str, replicates: int) -> ExperimentSpec:
    """Every Day-1 voter but the Seer votes the Seer out."""
    games = SavedGames(db)
    try:
        seer = next(s.id for s in games.load(game_id).game.seats if s.role.value == "seer")
        for _, state in games.states(game_id):
            decision = pending_decision(state)
            if decision is not None and decision.key == "d1:exile_vote:r1":
                forced = {f"{v}.exile_vote": seer for v in decision.options if v != seer}
                return ExperimentSpec(
                    source=str(db),
                    game_id=game_id,
                    step=state.ply,
                    replicates=replicates,
                    overrides=forced,
                )
    finally:
        games.close()
    raise SystemExit(f"{game_id} has no Day-1 exile vote")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--llm-items", type=int, default=0, help="items on the embedded model")
    parser.add_argument("--decodes", type=int, default=2)
    parser.add_argument("--max-tokens", type=int, default=1000)
    parser.add_argument("--experiment", type=int, default=0, help="replicates per arm")
    parser.add_argument("--game", default="heuristic-vs-random-00007")
    args = parser.parse_args()
    print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        every_kind = Filters(references=frozenset({"all"}))
        items = timed("positions build", lambda: list(build_items(args.db, every_kind)))
        print(f"  {len(items)} items")
        heuristic = [i for i in items if i.answer_key.source.player == "heuristic"]
        for kind in ("heuristic", "random"):
            positions(heuristic, kind, 5, out, None)
        if args.llm_items:
            good = [i for i in heuristic if i.view.camp.value == "good"][: args.llm_items]
            settings = (f"default.max_tokens={args.max_tokens}", "default.timeout_s=900")
            positions(good, "llm", args.decodes, out, load_models(None, settings))
        agg = Aggregator().add_all(iter_rows(args.db))
        timed(
            "GTE ratings, 200 resamples",
            lambda: gte_ratings(agg.teams, agg.contestants, Resamples(len(agg.teams), 200, 0)),
        )
        timed("export", lambda: export(args.db, out / "export"))
        if args.experiment:
            spec = seer_exile(args.db, args.game, args.experiment)
            games = prepare(spec, out / "experiment")
            outcomes = timed(
                f"experiment, 2 x {args.experiment} continuations, 2 processes",
                lambda: run_experiment(spec, games, DEFAULT_MODELS, concurrency=2),
            )
            summary = summarize(spec, outcomes)
            for arm, row in summary["arms"].items():
                print(f"  {arm}: good wins {row['good']['rate']:.3f} "
                      f"[{row['good']['lo']:.3f}, {row['good']['hi']:.3f}]")  # fmt: skip
            d = summary["difference"]["good"]
            print(f"  difference {d['diff']:+.3f} [{d['lo']:+.3f}, {d['hi']:+.3f}]")
    print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
