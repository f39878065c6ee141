"""Counterfactual experiments: arms are independent forks into the experiment's own
database, the source game stays byte-identical, re-running continues, and the interval
of a difference is Newcombe's."""

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from autowerewolf.backends.config import ModelOverride
from autowerewolf.cli import app
from autowerewolf.errors import SettingsError
from autowerewolf.evaluation.experiments import (
    ExperimentSpec,
    fork_missing,
    newcombe,
    player_seed,
    prepare,
    run_experiment,
    summarize,
)
from autowerewolf.evaluation.saved import SavedGames
from autowerewolf.players.factory import DEFAULT_MODELS
from autowerewolf.rules.engine import pending_decision
from autowerewolf.runner import Games
from tests.evaluation.conftest import files_digest


@dataclass(frozen=True)
class Day1Vote:
    game_id: str
    step: int  # the checkpoint at which the Day-1 exile vote is asked
    seer: str
    voters: list[str]


def day1_vote(db: Path) -> Day1Vote:
    """The first study game whose Seer can be voted out on Day 1 (alive, and a legal target
    of every other voter): its step of that vote, its Seer and the voters. Which game that
    is depends on the night's draws, which come from each game's fresh secret."""
    games = SavedGames(db)
    try:
        for game_id in sorted(games.ids()):
            seer = next(s.id for s in games.load(game_id).game.seats if s.role.value == "seer")
            for _, state in games.states(game_id):
                decision = pending_decision(state)
                if decision is None or decision.key != "d1:exile_vote:r1":
                    continue
                voters = list(decision.options)
                if all(seer in decision.options[v] for v in voters if v != seer):
                    return Day1Vote(game_id, state.ply, seer, voters)
                break
    finally:
        games.close()
    raise AssertionError("no study game whose Seer can be voted out on Day 1")


@pytest.fixture(scope="module")
def day1(study_db: Path) -> Day1Vote:
    return day1_vote(study_db)


def seer_exile(db: Path, day1: Day1Vote, replicates: int) -> ExperimentSpec:
    forced = {f"{v}.exile_vote": day1.seer for v in day1.voters if v != day1.seer}
    return ExperimentSpec(
        source=str(db), game_id=day1.game_id, step=day1.step, replicates=replicates,
        overrides=forced,
    )  # fmt: skip


def test_newcombe_by_hand() -> None:
    # Newcombe (1998), Statistics in Medicine 17:873, example (a): 56/70 - 48/80 = 0.2000,
    # hybrid score interval (method 10) 0.0524 to 0.3339.
    lo, hi = newcombe(56, 70, 48, 80)
    assert lo == pytest.approx(0.0524, abs=5e-5) and hi == pytest.approx(0.3339, abs=5e-5)


@dataclass(frozen=True)
class Grown:
    spec: ExperimentSpec  # the final design: 2 replicates per arm
    folder: Path
    rounds: list[list[str]]  # the games each run played
    outcomes: dict[str, str]
    source_untouched: bool


@pytest.fixture(scope="module")
def grown(study_db: Path, day1: Day1Vote, tmp_path_factory: pytest.TempPathFactory) -> Grown:
    """The Seer-exile experiment run three times: 1 replicate, then 2, then 2 again."""
    before = files_digest(study_db)
    folder = tmp_path_factory.mktemp("experiment") / "exp"
    small = seer_exile(study_db, day1, replicates=1)
    more = small.model_copy(update={"replicates": 2})
    rounds: list[list[str]] = []
    outcomes: dict[str, str] = {}
    for spec in (small, more, more):
        played: list[str] = []
        db = prepare(spec, folder)
        outcomes = run_experiment(
            spec, db, DEFAULT_MODELS, progress=lambda i, _, played=played: played.append(i)
        )
        rounds.append(sorted(played))
    return Grown(more, folder, rounds, outcomes, files_digest(study_db) == before)


@pytest.mark.long
def test_arms_are_independent_forks_and_the_source_is_untouched(
    grown: Grown, study_db: Path
) -> None:
    spec = grown.spec
    assert grown.source_untouched
    assert set(grown.outcomes) == {"baseline-000", "baseline-001", "treatment-000", "treatment-001"}
    assert set(grown.outcomes.values()) <= {"good", "wolf", "draw"}
    games = Games(grown.folder / "games.db")
    source = SavedGames(study_db)
    try:
        original = source.at_ply(spec.game_id, spec.step)
        for game_id in grown.outcomes:
            # Each continuation starts at the chosen step of the source game itself.
            first = next(iter(games.history(game_id)))
            assert first.values["game"] == original.game
            assert first.values["events"] == original.events
            record = games.load(game_id)
            assert record.seating.player_seed == player_seed(spec, int(game_id[-3:]))
            forced = [r for r in record.records if r.player == "override"]
            if game_id.startswith("treatment"):
                assert {r.option for r in forced} == set(spec.overrides.values())
                assert len(forced) == len(spec.overrides)
            else:
                assert forced == []
        assert spec.game_id not in games.ids()
    finally:
        games.close()
        source.close()
    # Distinct seeds within an arm, shared across arms.
    assert player_seed(spec, 0) != player_seed(spec, 1)


@pytest.mark.long
def test_rerunning_continues_and_refuses_another_design(grown: Grown, study_db: Path) -> None:
    assert grown.rounds == [
        ["baseline-000", "treatment-000"],
        ["baseline-001", "treatment-001"],
        [],
    ]
    summary = summarize(grown.spec, grown.outcomes)
    assert summary["arms"]["baseline"]["finished"] == 2
    other = grown.spec.model_copy(update={"seed": 9})
    with pytest.raises(SettingsError, match="another experiment"):
        prepare(other, grown.folder)
    with pytest.raises(SettingsError, match="its own database"):
        prepare(grown.spec, study_db.parent)


def test_a_seat_handed_to_a_model_plays_as_llm(
    study_db: Path, day1: Day1Vote, tmp_path: Path
) -> None:
    seer = day1.seer
    spec = ExperimentSpec(
        source=str(study_db),
        game_id=day1.game_id,
        step=day1.step,
        replicates=1,
        seat=seer,
        seat_model=ModelOverride(backend="local", model="sim"),
    )
    out = prepare(spec, tmp_path / "exp")
    assert fork_missing(spec, out) == 2
    games = Games(out)
    try:
        assert games.load("treatment-000").seating.kind_of(seer) == "llm"
        assert games.load("baseline-000").seating.kind_of(seer) != "llm"
    finally:
        games.close()


def test_summary_by_hand() -> None:
    spec = ExperimentSpec(source="x.db", game_id="g", step=1, replicates=4)
    outcomes = {
        "baseline-000": "good", "baseline-001": "good", "baseline-002": "wolf",
        "baseline-003": "draw", "treatment-000": "wolf", "treatment-001": "wolf",
        "treatment-002": "good",
    }  # fmt: skip
    summary = summarize(spec, outcomes)
    base, treat = summary["arms"]["baseline"], summary["arms"]["treatment"]
    assert (base["finished"], base["draws"], base["good"]["rate"]) == (4, 1, 0.5)
    assert (treat["finished"], treat["planned"], treat["good"]["wins"]) == (3, 4, 1)
    assert summary["difference"]["good"]["diff"] == pytest.approx(1 / 3 - 1 / 2)
    lo, hi = newcombe(1, 3, 2, 4)
    assert summary["difference"]["good"]["lo"] == lo and summary["difference"]["good"]["hi"] == hi


def test_cli_experiment_prints_both_arms(study_db: Path, day1: Day1Vote, tmp_path: Path) -> None:
    spec = seer_exile(study_db, day1, replicates=1)
    sets = [arg for k, v in spec.overrides.items() for arg in ("--set", f"{k}={v}")]
    args = ["experiment", spec.game_id, "--step", str(spec.step), "--replicates", "1", *sets]
    args += ["--db", str(study_db), "--out", str(tmp_path / "exp")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "baseline" in result.output and "treatment - baseline" in result.output
    # The reference level the differences are taken against, said in words and numbers.
    output = " ".join(result.output.split())
    summary = json.loads((tmp_path / "exp" / "summary.json").read_text())
    reference = f"Reference level: the baseline arm (continuations of {spec.game_id} from step"
    assert reference in output and "without the change, 1 finished)" in output
    for camp in ("good", "wolf"):
        rate = summary["arms"]["baseline"][camp]["rate"]
        assert f"{camp} win rate, treatment - baseline" in output
        assert f"against the reference {rate:.3f})" in output
    assert (tmp_path / "exp" / "summary.json").is_file()
    wrong = [*args[:6], "--set", "P01.wolves=P02", "--db", str(study_db), "--out"]
    refused = CliRunner().invoke(app, [*wrong, str(tmp_path / "other")])
    assert refused.exit_code == 2 and "exile_vote decision" in refused.output
    assert not (tmp_path / "other" / "experiment.json").exists()


def vote_with_a_dead_seat(db: Path) -> tuple[str, int, str, list[str]]:
    """The first exile vote after a death in the study's games: its game, step, a dead seat
    and the voters."""
    games = SavedGames(db)
    try:
        for game_id in sorted(games.ids()):
            for _, state in games.states(game_id):
                decision = pending_decision(state)
                dead = [s.id for s in state.seats if not s.alive]
                if decision is not None and decision.key.endswith("exile_vote:r1") and dead:
                    return game_id, state.ply, dead[0], list(decision.options)
    finally:
        games.close()
    raise AssertionError("no vote after a death")


def test_a_refused_treatment_writes_nothing_and_the_corrected_one_runs(
    study_db: Path, tmp_path: Path
) -> None:
    game_id, step, dead, voters = vote_with_a_dead_seat(study_db)
    folder = tmp_path / "exp"
    base = ["experiment", game_id, "--step", str(step), "--replicates", "1", "--db", str(study_db)]
    base += ["--out", str(folder)]
    voter, target = voters[0], voters[1]
    illegal = CliRunner().invoke(app, [*base, "--set", f"{voter}.exile_vote=P99"])
    assert illegal.exit_code == 2 and "not a legal answer" in illegal.output
    outsider = CliRunner().invoke(app, [*base, "--set", f"{dead}.exile_vote={target}"])
    assert outsider.exit_code == 2 and "does not decide" in outsider.output
    assert not folder.exists()  # nothing claimed the folder
    corrected = CliRunner().invoke(app, [*base, "--set", f"{voter}.exile_vote={target}"])
    assert corrected.exit_code == 0, corrected.output


def test_a_dead_or_absent_seat_cannot_be_handed_to_a_model(study_db: Path, tmp_path: Path) -> None:
    game_id, step, dead, _ = vote_with_a_dead_seat(study_db)
    model = ModelOverride(backend="local", model="sim")
    for seat, message in ((dead, "is dead at step"), ("P13", "not a seat of this game")):
        spec = ExperimentSpec(
            source=str(study_db),
            game_id=game_id,
            step=step,
            replicates=1,
            seat=seat,
            seat_model=model,
        )
        out = prepare(spec, tmp_path / seat)
        with pytest.raises(SettingsError, match=message):
            fork_missing(spec, out)
        assert not (tmp_path / seat).exists()
