"""Without an optional extra, what needs it says so in one line; `db:` in a game file."""

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from autowerewolf.cli import app

cli = CliRunner()


def test_postgres_without_its_extra_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)
    result = cli.invoke(app, ["games", "--db", "postgresql://u@127.0.0.1:1/db"])
    assert result.exit_code == 2
    assert "'postgres' extra" in result.output and len(result.output.strip().splitlines()) == 1


def test_ray_without_its_extra_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    args = ["batch", "--games", "1", "--players", "random", "--ray", "auto"]
    result = cli.invoke(app, [*args, "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 2 and "'ray' extra" in result.output


def test_ray_needs_a_shared_postgres_database(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    args = ["batch", "--games", "1", "--players", "random", "--ray", "auto"]
    result = cli.invoke(app, [*args, "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 2 and "postgresql://" in result.output


def test_a_rate_limit_without_its_extra_fails_before_any_game(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "aiolimiter", None)
    models = tmp_path / "m.yaml"
    models.write_text("default: {backend: simulated, model: s, requests_per_s: 5}\n")
    db = tmp_path / "x.db"
    result = cli.invoke(app, ["batch", "--games", "1", "--models", str(models), "--db", str(db)])
    assert result.exit_code == 2 and "'ratelimit' extra" in result.output
    assert not db.exists()


def test_a_game_files_db_is_where_the_game_is_saved(tmp_path: Path) -> None:
    game = tmp_path / "game.yaml"
    game.write_text(f"board: 12-A\nseed: 3\ndb: {tmp_path / 'from-file.db'}\n")
    args = ["play", "--config", str(game), "--players", "random", "--narration", "off"]
    assert cli.invoke(app, args).exit_code == 0
    assert (tmp_path / "from-file.db").exists()
    other = tmp_path / "flag.db"
    assert cli.invoke(app, [*args, "--db", str(other)]).exit_code == 0
    assert other.exists()
