"""Counterfactual experiments: R continuations of a saved game from one step, in two arms.

The baseline arm plays R plain continuations; the treatment arm R continuations with the
change under study (forced answers at that step, and/or one seat handed to an LLM on
another model). Each continuation is its own game, forked from the saved step of the
source game (opened read-only) into the experiment's own database. Replicate r of either
arm uses player seed derive(seed, "replicate:r"): replicates differ from each other, and
the two arms share seeds, so they differ only by the change until their paths diverge.

Re-running continues: forks that exist are resumed or counted, missing ones are made.
"""

import math
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from autowerewolf.backends.config import ModelOverride, PlayerModels
from autowerewolf.errors import GameError, SettingsError
from autowerewolf.evaluation.bootstrap import Z95, wilson
from autowerewolf.evaluation.saved import SavedGames
from autowerewolf.graph.context import GameContext
from autowerewolf.players.factory import ModelPool, PlayerBuilder
from autowerewolf.players.seating import PlayerKind
from autowerewolf.rules.config import MAX_SEED
from autowerewolf.rules.engine import pending_decision
from autowerewolf.rules.rng import derive
from autowerewolf.runner import Games

Arm = Literal["baseline", "treatment"]
ARMS: tuple[Arm, ...] = ("baseline", "treatment")
Progress = Callable[[str, str], None]


class ExperimentSpec(BaseModel):
    """What an experiment is: saved as `experiment.json` in its folder. Re-running with a
    different spec (other than more replicates) is refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str  # the source database's path
    game_id: str
    step: int = Field(ge=0)
    replicates: int = Field(ge=1)
    seed: int = Field(0, ge=0)
    overrides: dict[str, str] = {}  # "SEAT.STEP" -> forced answer at the step (treatment)
    seat: str | None = None  # the seat handed to an LLM in the treatment arm
    seat_model: ModelOverride | None = None  # that seat's model config

    def same_design(self, other: "ExperimentSpec") -> bool:
        return self.model_copy(update={"replicates": 0}) == other.model_copy(
            update={"replicates": 0}
        )


@dataclass(frozen=True)
class Replicate:
    arm: Arm
    index: int

    @property
    def game_id(self) -> str:
        return f"{self.arm}-{self.index:03d}"


def player_seed(spec: ExperimentSpec, index: int) -> int:
    return derive(spec.seed, f"replicate:{index}") % MAX_SEED


def plan(spec: ExperimentSpec) -> list[Replicate]:
    return [Replicate(arm, r) for r in range(spec.replicates) for arm in ARMS]


def arm_models(spec: ExperimentSpec, base: PlayerModels, arm: Arm) -> PlayerModels:
    """The models of a continuation: `base` for LLM seats of the source game, plus the seat
    under test on its own model in the treatment arm."""
    if arm == "baseline" or spec.seat is None or spec.seat_model is None:
        return base
    return base.model_copy(update={"seats": {**base.seats, spec.seat: spec.seat_model}})


def prepare(spec: ExperimentSpec, folder: Path) -> Path:
    """The experiment's database in `folder`, after checking that `folder` holds no other
    experiment (the spec is saved beside it once the source accepts the design)."""
    db = folder / "games.db"
    if db.resolve() == Path(spec.source).resolve():
        raise SettingsError("the experiment writes its own database: choose another --out")
    saved = folder / "experiment.json"
    if saved.exists():
        before = ExperimentSpec.model_validate_json(saved.read_text(encoding="utf-8"))
        if not before.same_design(spec):
            raise SettingsError(f"{folder} holds another experiment: choose another --out")
    return db


def forced_answers(overrides: dict[str, str], step: str) -> dict[str, str]:
    """{"P03.exile_vote": "P07"} as {"P03": "P07"}, once the step is the one pending."""
    forced = {}
    for target, value in overrides.items():
        seat, _, name = target.partition(".")
        if name != step:
            raise SettingsError(f"--set {target}: the step is a {step} decision ({seat}.{step})")
        forced[seat] = value
    return forced


def fork_missing(spec: ExperimentSpec, out: Path) -> int:
    """Fork every planned continuation not yet in `out`, in this process: the whole
    treatment (step, seat, forced answers) is checked before anything is written, so a
    refused command leaves the folder free for the corrected one."""
    source = SavedGames(Path(spec.source))
    try:
        forced = _checked_answers(spec, source)
        out.parent.mkdir(parents=True, exist_ok=True)
        (out.parent / "experiment.json").write_text(spec.model_dump_json(indent=2), "utf-8")
        games = Games(out, create=True)
        try:
            return _fork(spec, source, games, forced)
        finally:
            games.close()
    finally:
        source.close()


def _checked_answers(spec: ExperimentSpec, source: SavedGames) -> dict[str, str]:
    """The treatment's forced answers, once every part of the treatment is checked against
    the saved step: the seat handed to a model is alive, each forced seat decides there,
    and each answer is one of its legal options."""
    record = source.at_ply(spec.game_id, spec.step)
    game = record.game
    if game.is_over:
        raise GameError(f"game {spec.game_id!r} is over at step {spec.step}")
    if spec.seat is not None:
        seat = next((s for s in game.seats if s.id == spec.seat), None)
        if seat is None:
            raise SettingsError(f"--seat {spec.seat} is not a seat of this game")
        if not seat.alive:
            raise SettingsError(
                f"--seat {spec.seat} is dead at step {spec.step} (day {seat.death_day}): "
                "a dead seat decides nothing"
            )
    forced = forced_answers(spec.overrides, game.step)
    decision = pending_decision(game)
    for who, answer in forced.items():
        legal = decision.options.get(who) if decision is not None else None
        if legal is None:
            deciding = ", ".join(decision.options) if decision is not None else "nobody"
            raise SettingsError(
                f"--set {who}.{game.step}={answer}: {who} does not decide at step "
                f"{spec.step} (deciding: {deciding})"
            )
        if answer not in legal:
            raise SettingsError(
                f"--set {who}.{game.step}={answer}: not a legal answer (legal: {', '.join(legal)})"
            )
    return forced


def _fork(spec: ExperimentSpec, source: SavedGames, games: Games, forced: dict[str, str]) -> int:
    made = 0
    for rep in plan(spec):
        if games.exists(rep.game_id):
            continue
        treated = rep.arm == "treatment"
        kinds: dict[str, PlayerKind] = {spec.seat: "llm"} if treated and spec.seat else {}
        source.fork(
            spec.game_id,
            spec.step,
            rep.game_id,
            overrides=forced if treated else None,
            player_seed=player_seed(spec, rep.index),
            into=games,
            seats=kinds,
        )
        made += 1
    return made


def play_replicate(out: str, game_id: str, models: PlayerModels) -> tuple[str, str]:
    """Play one forked continuation to its end (or resume it); returns (id, outcome)."""
    pool = ModelPool()
    games = Games(Path(out), context=GameContext(player_factory=PlayerBuilder(models, pool)))
    try:
        record = games.resume(game_id)
    finally:
        games.close()
        pool.close()
    if record.status != "finished":
        return game_id, record.status
    return game_id, record.game.winner.value if record.game.winner else "draw"


def run_experiment(
    spec: ExperimentSpec,
    out: Path,
    base: PlayerModels,
    concurrency: int = 1,
    progress: Progress | None = None,
) -> dict[str, str]:
    """Fork what is missing, play every unfinished continuation; returns outcome by id."""
    fork_missing(spec, out)
    outcomes = finished_outcomes(out)
    todo = [rep for rep in plan(spec) if rep.game_id not in outcomes]
    jobs = [(str(out), rep.game_id, arm_models(spec, base, rep.arm)) for rep in todo]
    if concurrency == 1:
        results = (play_replicate(*job) for job in jobs)
        for game_id, outcome in results:
            outcomes[game_id] = outcome
            if progress is not None:
                progress(game_id, outcome)
        return outcomes
    with ProcessPoolExecutor(max_workers=concurrency) as pool:
        futures = [pool.submit(play_replicate, *job) for job in jobs]
        for future in as_completed(futures):
            game_id, outcome = future.result()
            outcomes[game_id] = outcome
            if progress is not None:
                progress(game_id, outcome)
    return outcomes


def finished_outcomes(out: Path) -> dict[str, str]:
    """Winner ("good", "wolf" or "draw") of every finished continuation in `out`."""
    games = Games(out, create=True)
    try:
        outcomes = {}
        for game_id in games.ids():
            record = games.peek(game_id)
            if record is not None and record.status == "finished":
                winner = record.game.winner
                outcomes[game_id] = winner.value if winner else "draw"
        return outcomes
    finally:
        games.close()


def newcombe(
    wins_a: float, n_a: float, wins_b: float, n_b: float, z: float = Z95
) -> tuple[float, float]:
    """Newcombe's hybrid score interval (his method 10) for p_a - p_b, from the two Wilson
    intervals; it treats the arms as independent samples."""
    p_a, p_b = wins_a / n_a, wins_b / n_b
    lo_a, hi_a = wilson(wins_a, n_a, z)
    lo_b, hi_b = wilson(wins_b, n_b, z)
    d = p_a - p_b
    return (
        d - math.sqrt((p_a - lo_a) ** 2 + (hi_b - p_b) ** 2),
        d + math.sqrt((hi_a - p_a) ** 2 + (p_b - lo_b) ** 2),
    )


def summarize(spec: ExperimentSpec, outcomes: dict[str, str]) -> dict[str, Any]:
    """Per arm, each camp's win rate with its Wilson interval; the treatment's difference
    from the baseline with Newcombe's interval (both over finished replicates)."""
    arms: dict[str, Any] = {}
    counts: dict[str, Counter[str]] = {}
    for arm in ARMS:
        ids = [rep.game_id for rep in plan(spec) if rep.arm == arm]
        counts[arm] = Counter(outcomes[i] for i in ids if i in outcomes)
        n = sum(counts[arm].values())
        arms[arm] = {"finished": n, "planned": len(ids), "draws": counts[arm]["draw"]}
        for camp in ("good", "wolf"):
            lo, hi = wilson(counts[arm][camp], n)
            rate = counts[arm][camp] / n if n else None
            arms[arm][camp] = {"rate": rate, "lo": lo, "hi": hi, "wins": counts[arm][camp]}
    difference = {}
    n_t, n_b = arms["treatment"]["finished"], arms["baseline"]["finished"]
    for camp in ("good", "wolf"):
        if n_t and n_b:
            wins_t, wins_b = counts["treatment"][camp], counts["baseline"][camp]
            lo, hi = newcombe(wins_t, n_t, wins_b, n_b)
            difference[camp] = {"diff": wins_t / n_t - wins_b / n_b, "lo": lo, "hi": hi}
    return {"spec": spec.model_dump(), "arms": arms, "difference": difference}
