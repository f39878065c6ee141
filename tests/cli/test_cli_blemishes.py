"""Small things a researcher met: resuming a finished game, exporting onto a file, a
failed export, replay's default point of view, `games --json`, and `experiment --seat
--models` run for real."""

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from autowerewolf.backends.config import ModelConfig, ModelOverride
from autowerewolf.evaluation.saved import SavedGames
from autowerewolf.rules.engine import pending_decision
from autowerewolf.runner import Games
from tests.graph.graph_helpers import assert_user_error, cli, new_games, start_random

HUMAN_SEAT = "P03"


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """`done`: a finished random 8-arena game; `open`: one waiting for its human seat."""
    db = tmp_path_factory.mktemp("blemishes") / "games.db"
    waiting = cli("play", "--players", "random", "--board", "8-arena", "--seat",
                  f"{HUMAN_SEAT}=human", "--game-id", "open", "--db", db)  # fmt: skip
    assert waiting.exit_code == 0, waiting.stderr
    games = new_games(db)
    try:
        start_random(games, "done", board="8-arena", seed=4)
        assert games.load("open").status == "waiting"
    finally:
        games.close()
    yield db


def test_resume_of_a_finished_game_is_one_error(saved: Path) -> None:
    line = assert_user_error(cli("resume", "done", "--db", saved))
    assert line == "error: game 'done' is already over"


def test_games_json_lists_what_the_table_lists(saved: Path) -> None:
    result = cli("games", "--json", "--db", saved)
    assert result.exit_code == 0, result.stderr
    listed = {row["game_id"]: row for row in json.loads(result.stdout)}
    assert set(listed) == {"done", "open"}
    games = Games(saved)
    try:
        for game_id, row in listed.items():
            record = games.load(game_id)
            assert row["status"] == record.status and row["board"] == "8-arena"
            assert (row["day"], row["steps"]) == (record.game.day, record.game.ply)
            winner = record.game.winner
            assert row["winner"] == (winner.value if winner else None)
    finally:
        games.close()
    table = cli("games", "--db", saved).stdout
    assert all(game_id in table for game_id in listed)


@pytest.mark.parametrize(("game_id", "default"), [("open", "public"), ("done", "omniscient")])
def test_replay_defaults_to_public_until_the_game_is_over(
    saved: Path, game_id: str, default: str
) -> None:
    shown = {
        audience: cli("replay", game_id, "--db", saved, *(["--as", audience] if audience else []))
        for audience in (None, "public", "omniscient")
    }
    assert all(r.exit_code == 0 for r in shown.values()), [r.stderr for r in shown.values()]
    assert shown["public"].stdout != shown["omniscient"].stdout  # the choice is visible
    assert shown[None].stdout == shown[default].stdout


def test_export_onto_a_file_is_one_error_and_leaves_it_alone(saved: Path, tmp_path: Path) -> None:
    taken = tmp_path / "taken.jsonl"
    taken.write_text("mine\n")
    for form in ("dataset", "chat"):
        line = assert_user_error(cli("export", saved, "--out", taken, "--format", form))
        assert "is a file, not a folder" in line and "Errno" not in line
    assert taken.read_text() == "mine\n"


def test_a_failed_export_leaves_no_file_behind(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"SQLite format 3\x00" + b"garbage" * 200)
    for form in ("dataset", "chat"):
        out = tmp_path / f"out-{form}"
        assert_user_error(cli("export", bad, "--out", out, "--format", form), "bad.db")
        assert not out.exists()
        kept = tmp_path / f"kept-{form}"
        kept.mkdir()
        assert_user_error(cli("export", bad, "--out", kept, "--format", form), "bad.db")
        assert list(kept.iterdir()) == []  # no empty or partial file, no temporary one


def test_experiment_with_a_seat_on_a_models_file_runs(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    games = new_games(db)
    try:
        record = start_random(games, "source", board="8-arena", seed=4)
        step = next(
            state.ply for state in (s.values["game"] for s in games.history("source"))
            if state.ply > 0 and pending_decision(state) is not None and state.seat("P03").alive
        )  # fmt: skip
    finally:
        games.close()
    assert record.status == "finished"
    models = tmp_path / "m.yaml"
    # Fields a PlayerModels default has and a bare override had not (speech, max_tokens).
    models.write_text(
        "default: {backend: simulated, model: sim-under-test, latency_s: 0, speech: free, "
        "max_tokens: 300}\n"
    )
    out = tmp_path / "exp"
    args = ["experiment", "source", "--step", step, "--seat", "P03", "--models", models,
            "--replicates", 1, "--db", db, "--out", out]  # fmt: skip
    result = cli(*args)
    assert result.exit_code == 0, result.stderr
    assert "treatment - baseline" in " ".join(result.stdout.split())
    played = SavedGames(out / "games.db")
    try:
        treated = played.load("treatment-000").records
        baseline = played.load("baseline-000").records
    finally:
        played.close()
    by_p03 = [r for r in treated if r.seat == "P03"]
    assert by_p03 and all(r.model == "sim-under-test" for r in by_p03)
    assert not any(r.model == "sim-under-test" for r in baseline)
    spec = json.loads((out / "experiment.json").read_text())
    assert spec["seat_model"]["speech"] == "free" and spec["seat_model"]["max_tokens"] == 300


def test_a_models_files_default_fits_a_seats_override() -> None:
    # `experiment --seat` hands the file's default model to one seat as an override: any
    # field a default may set, an override must take.
    assert set(ModelConfig.model_fields) <= set(ModelOverride.model_fields)
