"""Helpers for the game-graph tests."""

import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

from click.testing import Result
from typer.testing import CliRunner

from autowerewolf.cli import app
from autowerewolf.graph.context import GameContext
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import BOARDS as RULE_BOARDS
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.events import Event, EventKind
from autowerewolf.runner import GameRecord, Games
from tests.fixed import SECRET

BOARDS = tuple(RULE_BOARDS)  # every preset, in the registry's order
REPO = Path(__file__).resolve().parents[2]

_runner = CliRunner()


def new_games(db: Path, context: GameContext | None = None) -> Games:
    return Games(db, create=True, context=context)


def load_record(db: Path | str, game_id: str, readonly: bool = False) -> GameRecord:
    """One saved game, the store closed again."""
    games = Games(db, readonly=readonly)
    try:
        return games.load(game_id)
    finally:
        games.close()


def load_records(db: Path | str) -> dict[str, GameRecord]:
    """Every saved game by id, the store closed again."""
    games = Games(db)
    try:
        return {game_id: games.load(game_id) for game_id in games.ids()}
    finally:
        games.close()


def start_random(
    games: Games,
    game_id: str,
    board: str = "12-A",
    seed: int = 1,
    seating: Seating | None = None,
) -> GameRecord:
    return games.start(
        game_id, GameSetup(secret=SECRET, board=board, seed=seed), seating or Seating()
    )


def of_kind(events: list[Event], kind: EventKind, day: int | None = None) -> list[Event]:
    return [e for e in events if e.kind is kind and (day is None or e.day == day)]


def first_option_answers(record: GameRecord) -> dict[str, dict[str, str]]:
    """Every waiting human seat answers its first legal option (with a line of speech)."""
    pending = record.interrupts[-1]
    return {
        seat: {"option": prompt["options"][0], "text": f"{seat} thinks aloud."}
        for seat, prompt in pending["seats"].items()
    }


def cli(*args: Any) -> Result:
    """Run the `autowerewolf` typer app in-process (stdout and stderr kept apart)."""
    return _runner.invoke(app, [str(a) for a in args])


def flat(text: str) -> str:
    """Output with rich's line wrapping undone, for substring checks."""
    return " ".join(text.split())


def assert_user_error(result: Result, *fragments: str, quiet: bool = True) -> str:
    """Exit code 2, one `error:` line on stderr, no traceback; nothing on stdout if `quiet`."""
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: "), lines
    assert "Traceback" not in result.stderr + result.stdout
    if quiet:
        assert result.stdout == ""
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


def checkpoint_count(db: Path, game_id: str = "crash") -> int:
    """Checkpoints of one game, read while another process may be writing them."""
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
            query = "SELECT count(*) FROM checkpoints WHERE thread_id = ?"
            return int(conn.execute(query, (game_id,)).fetchone()[0])
    except sqlite3.OperationalError:  # tables not created yet
        return 0


def kill_after(
    command: list[str],
    db: Path,
    checkpoints: int,
    within_s: float,
    env: dict[str, str] | None = None,
) -> tuple[int, str]:
    """Run a game process, SIGKILL it once its game has `checkpoints` checkpoints; returns
    its exit code and output."""
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        deadline = time.monotonic() + within_s
        while checkpoint_count(db) < checkpoints:
            assert proc.poll() is None, f"game process ended early: {proc.communicate()}"
            assert time.monotonic() < deadline, "no checkpoints written in time"
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, out
