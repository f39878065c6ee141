"""Promise: no traceback ever reaches the terminal. Bad input is one `error:` line and exit
code 2; an internal error is one line naming the log file that holds its traceback (exit
code 1); library warnings go to that log too.
"""

import logging
import warnings
from pathlib import Path

import pytest

from autowerewolf.runner import Games

from .helpers import cli, error_line


def _break_loading(monkeypatch: pytest.MonkeyPatch, err: Exception) -> None:
    def broken(self: Games, game_id: str) -> None:
        raise err

    monkeypatch.setattr(Games, "load", broken)


def test_an_internal_error_is_one_line_and_a_logged_traceback(
    played: Path, log_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _break_loading(monkeypatch, ZeroDivisionError("division by zero\nsecond line"))
    result = cli("inspect", "g", "--db", played)
    assert result.exit_code == 1 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    log_file = log_dir / "autowerewolf.log"
    assert lines == [
        f"error: internal error (ZeroDivisionError: division by zero); full traceback in {log_file}"
    ]
    logged = log_file.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in logged and "ZeroDivisionError" in logged


def test_an_unwritable_log_falls_back_to_a_temporary_file(
    played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("", encoding="utf-8")
    monkeypatch.setenv("AUTOWEREWOLF_LOG_DIR", str(not_a_folder))
    _break_loading(monkeypatch, RuntimeError("boom"))
    result = cli("inspect", "g", "--db", played)
    assert result.exit_code == 1
    where = result.stderr.strip().split("full traceback in ")[1]
    assert "RuntimeError: boom" in Path(where).read_text(encoding="utf-8")
    Path(where).unlink()


def test_library_warnings_go_to_the_log(
    played: Path, log_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = Games.load

    def noisy(self: Games, game_id: str) -> object:
        logging.getLogger("some.library").warning("a library complains")
        warnings.warn("a deprecation", UserWarning, stacklevel=1)
        return original(self, game_id)

    monkeypatch.setattr(Games, "load", noisy)
    result = cli("replay", "g", "--db", played)
    assert result.exit_code == 0 and result.stderr == ""
    logged = (log_dir / "autowerewolf.log").read_text(encoding="utf-8")
    assert "a library complains" in logged and "a deprecation" in logged


def test_markup_in_an_error_prints_as_written(tmp_path: Path) -> None:
    missing = tmp_path / "[red]games[/red].db"
    assert error_line(cli("games", "--db", missing)).endswith(f"no game database at {missing}")


def test_a_user_error_never_creates_a_log(played: Path, log_dir: Path) -> None:
    error_line(cli("inspect", "nope", "--db", played))
    assert not log_dir.exists()


def test_ctrl_c_is_one_line(played: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _break_loading(monkeypatch, KeyboardInterrupt())
    result = cli("replay", "g", "--db", played)
    assert result.exit_code == 130 and result.stderr.strip() == "interrupted"


def test_a_missing_third_party_module_names_the_install(
    played: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _break_loading(monkeypatch, ModuleNotFoundError("No module named 'zstd'", name="zstd"))
    line = error_line(cli("replay", "g", "--db", played))
    assert line == "error: No module named 'zstd': install the extra that provides it"
    _break_loading(monkeypatch, ModuleNotFoundError("No module named 'x'", name="autowerewolf.x"))
    assert cli("replay", "g", "--db", played).exit_code == 1  # our own module: a bug
