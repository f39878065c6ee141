"""PostgreSQL checkpoints: every command that reads or writes games works on a
`postgresql://` database as on a SQLite file; batch and tournament run on it; pruning keeps
finished games readable; the per-game size is small."""

import itertools
from pathlib import Path

import pytest
from typer.testing import CliRunner

from autowerewolf.cli import app
from autowerewolf.runner import Games
from autowerewolf.storage.target import Postgres, database
from tests.fixed import HEX_SECRET
from tests.scale.identical import differing

cli = CliRunner()
fresh = itertools.count()


@pytest.fixture
def url(postgres_url: str) -> str:
    """A database of its own on the session's server."""
    import psycopg

    name = f"t{next(fresh)}"
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return postgres_url.rsplit("/", 1)[0] + "/" + name


def run(*args: str) -> str:
    result = cli.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_every_game_command_works_on_postgres(url: str, tmp_path: Path) -> None:
    run(
        "play",
        "--players",
        "random",
        "--seed",
        "3",
        "--db",
        url,
        "--game-id",
        "g1",
        "--narration",
        "off",
    )
    assert "g1" in run("games", "--db", url)
    assert "game_over" in run("history", "g1", "--db", url)
    assert "Winner" in run("inspect", "g1", "--db", url)
    assert "P01" in run("replay", "g1", "--db", url, "--as", "public")
    run(
        "fork",
        "g1",
        "--step",
        "6",
        "--new-id",
        "g2",
        "--player-seed",
        "9",
        "--db",
        url,
        "--narration",
        "off",
    )
    assert "g2" in run("games", "--db", url)
    wrong = cli.invoke(app, ["inspect", "nope", "--db", url])
    assert wrong.exit_code == 2 and "no game 'nope'" in wrong.output


def test_batch_on_postgres_equals_its_uninterrupted_games(url: str) -> None:
    run("batch", "--games", "5", "--players", "random", "--db", url, "--concurrency", "5",
        "--secret", HEX_SECRET)  # fmt: skip
    assert differing(url, range(5), "random", "batch") == []
    assert "already finished: 5" in run("batch", "--games", "5", "--players", "random", "--db", url)


def test_pruning_keeps_the_final_state_only(url: str) -> None:
    run("batch", "--games", "2", "--players", "random", "--db", url)
    games = Games(url)
    before = games.load("batch-0")
    games.close()
    assert "pruned 2" in run("db", "prune", "--db", url)
    games = Games(url, readonly=True)
    try:
        after = games.load("batch-0")
        assert (after.status, after.game, after.events, after.records) == (
            "finished", before.game, before.events, before.records,
        )  # fmt: skip
        assert len(list(games.history("batch-0"))) == 1
    finally:
        games.close()
    assert "pruned 0" in run("db", "prune", "--db", url)


def test_the_url_is_never_shown_with_its_password() -> None:
    target = database("postgresql://u:secret@127.0.0.1:1/db")
    assert isinstance(target, Postgres) and "secret" not in str(target)
    refused = cli.invoke(app, ["games", "--db", "postgresql://u:secret@127.0.0.1:1/db"])
    assert refused.exit_code == 2 and "secret" not in refused.output


@pytest.mark.long
def test_tournament_and_report_on_postgres(url: str, tmp_path: Path) -> None:
    pytest.importorskip("openskill")
    config = tmp_path / "t.yaml"
    config.write_text(
        "name: pg\ngames: 4\nconcurrency: 4\n"
        "contestants: [{name: h, kind: heuristic}, {name: r, kind: random}]\n"
    )
    out = run("tournament", str(config), "--db", url, "--out", str(tmp_path / "report"))
    assert "Report:" in out
    assert "4 games" in run("report", url, "--out", str(tmp_path / "again"))
