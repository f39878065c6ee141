"""The asynchronous runner on SQLite: the async path plays the same games as the sync one;
`batch` plays, skips finished games, resumes after a kill, and marks a failed game
without holding up the others."""

import asyncio
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from autowerewolf.backends.config import PlayerModels
from autowerewolf.backends.gate import Gates
from autowerewolf.batch.cores import MIN_SHARE, cores, processes_for
from autowerewolf.batch.local import run_batch
from autowerewolf.batch.runner import BatchGame, Outcome
from autowerewolf.cli import app
from autowerewolf.graph.builder import RECURSION_LIMIT, build_graph
from autowerewolf.graph.context import GameContext
from autowerewolf.players.factory import ModelPool, PlayerBuilder
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import Games
from tests.fixed import HEX_SECRET, SECRET
from tests.scale.identical import differing, fingerprint, simulated, uninterrupted

cli = CliRunner()


def test_the_async_path_plays_the_same_game_as_the_sync_path() -> None:
    context = GameContext(player_factory=PlayerBuilder(simulated(0.0), ModelPool(gates=Gates())))
    game = {
        "setup": GameSetup(secret=HEX_SECRET, board="12-A", seed=4),
        "seating": Seating(default="llm"),
    }
    values = asyncio.run(
        build_graph().compile().ainvoke(game, {"recursion_limit": RECURSION_LIMIT}, context=context)
    )
    assert fingerprint(values) == uninterrupted(4, "llm")


def random_batch(db: Path, *options: str) -> Result:
    """`batch` plays six random games into `db` with `options`; each must be the game played
    alone."""
    args = ["batch", "--games", "6", "--players", "random", "--db", str(db), *options,
            "--secret", HEX_SECRET]  # fmt: skip
    played = cli.invoke(app, args)
    assert played.exit_code == 0, played.output
    assert differing(db, range(6), "random", "batch") == []
    return played


def test_batch_plays_then_skips_finished_games(tmp_path: Path) -> None:
    db = tmp_path / "b.db"
    random_batch(db, "--concurrency", "3")
    again = random_batch(db, "--concurrency", "3")
    assert "already finished: 6" in again.output
    shown = cli.invoke(app, ["inspect", "batch-2", "--db", str(db)])
    assert shown.exit_code == 0 and "Winner" in shown.output


def test_a_failed_game_is_marked_retried_and_never_blocks_the_others(tmp_path: Path) -> None:
    db = tmp_path / "f.db"
    down = PlayerModels.model_validate(
        {
            "default": {
                "backend": "api",
                "model": "m",
                "base_url": "http://127.0.0.1:9/v1",
                "retries": 0,
            }
        }
    )

    def game(seed: int, kind: str, models: PlayerModels | None = None) -> BatchGame:
        setup, seating = (
            GameSetup(secret=HEX_SECRET, board="12-A", seed=seed),
            Seating(default=kind),
        )
        return BatchGame(f"batch-{seed}", setup, seating, models)

    games = [game(0, "random"), game(1, "llm", down), game(2, "random")]
    outcomes = {o.game_id: o for o in run_batch(db, games, concurrency=3)}
    assert [outcomes[f"batch-{i}"].status for i in range(3)] == ["finished", "failed", "finished"]
    assert "ModelUnavailable" in (outcomes["batch-1"].error or "")
    listed = cli.invoke(app, ["games", "--db", str(db)])
    assert "failed" in listed.output and "ModelUnavailable" in listed.output
    # The server is back (here: a simulated one): running again finishes the failed game.
    retried = run_batch(db, [game(1, "llm", simulated(0.0))], concurrency=1)
    assert retried[0].status == "finished"
    assert "failed" not in cli.invoke(app, ["games", "--db", str(db)]).output
    assert differing(db, range(1, 2), "llm", "batch") == []


@pytest.mark.long
def test_a_killed_batch_resumes_to_identical_games(tmp_path: Path) -> None:
    """Random players: an LLM seat's recorded prompts change when its memory is rebuilt
    after a resume on this version (docs/scale.md); the game itself does not."""
    db = tmp_path / "k.db"
    games_count = 60  # two shares of 30: each core gets a worker process (MIN_SHARE 20)
    command = [
        sys.executable, "-m", "autowerewolf", "batch", "--games", str(games_count),
        "--players", "random", "--concurrency", "8", "--db", str(db), "--secret", HEX_SECRET,
        "--processes", "2",
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 600  # a loaded machine starts the process slowly
    while time.monotonic() < deadline and _finished(db) < 10:
        time.sleep(0.2)
    workers = _workers_of(process.pid)
    assert len(workers) == 2  # the games were being played by its workers
    process.send_signal(signal.SIGKILL)
    process.wait()
    # Its worker processes (one per core) die with it: none plays on after the kill. Waited
    # for by pid: an exiting process's cmdline is empty while it still holds the database.
    deadline = time.monotonic() + 60
    while any(Path(f"/proc/{pid}").exists() for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _workers_of(process.pid) == []
    assert 10 <= _finished_after_kill(db) < games_count, "the kill should land mid-batch"
    rerun = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    assert differing(db, range(games_count), "random", "batch") == []


def _workers_of(parent: int) -> list[int]:
    """The batch worker processes (batch/core_worker.py) started by `parent`, still alive."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            args = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"autowerewolf.batch.core_worker" in args and str(parent).encode() in args:
            found.append(int(proc.name))
    return found


def _count_finished(db: Path, writer: bool) -> int:
    games = Games(db, readonly=not writer)
    try:
        records = (games.peek(i) for i in games.ids())
        return sum(record is not None and record.status == "finished" for record in records)
    finally:
        games.close()


def _finished(db: Path) -> int:
    """How many games have finished, while the batch writes (mid-write: then 0)."""
    try:
        return _count_finished(db, writer=False)
    except Exception:
        return 0


def _finished_after_kill(db: Path) -> int:
    """How many games had finished when the batch was killed. Only a writer can read the
    steps left in the -wal (docs/reliability.md), and just after a kill its open can still
    meet the dead processes' lock (once in CI: a count of 0 that hid the error): it is
    tried again for a while, then the error is raised."""
    deadline = time.monotonic() + 30
    while True:
        try:
            return _count_finished(db, writer=True)
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def test_a_batch_runs_inside_a_running_event_loop(tmp_path: Path) -> None:
    """As from a notebook: the caller's thread already runs a loop."""

    async def caller() -> list[Outcome]:
        game = BatchGame("inside-1", GameSetup(secret=SECRET, seed=1), Seating(default="random"))
        return run_batch(tmp_path / "inside.db", [game], concurrency=1)

    outcomes = asyncio.run(caller())
    assert [o.status for o in outcomes] == ["finished"]


@pytest.mark.long
def test_a_batch_on_two_processes_plays_the_games_of_one(tmp_path: Path) -> None:
    """One event loop per core (autowerewolf/batch/cores.py): the same games, whichever
    process plays them; the tournament's `finished` hook hears each in the parent."""
    db = tmp_path / "two.db"
    random_batch(db, "--processes", "2")
    heard: list[str] = []
    games = [
        BatchGame(f"batch-{s}", GameSetup(secret=HEX_SECRET, seed=s), Seating()) for s in range(8)
    ]
    outcomes = run_batch(
        db, games, concurrency=2, processes=2, finished=lambda r: heard.append(r.game_id)
    )
    assert sorted(heard) == sorted(g.game_id for g in games)  # 6 already finished, 2 new
    assert sum(o.played for o in outcomes) == 2


def test_games_on_the_embedded_model_stay_in_one_process() -> None:
    llm = [BatchGame(f"g{i}", GameSetup(seed=i), Seating(default="llm")) for i in range(60)]
    assert processes_for(llm, None, None) == 1  # the default models: the local server
    assert processes_for(llm, simulated(0.0), None) == min(cores(), 3)


def test_a_small_batch_plays_in_one_process_unless_asked() -> None:
    """A worker's start-up costs more than a few quick games: each process gets a share of
    at least MIN_SHARE games."""
    randoms = [BatchGame(f"g{i}", GameSetup(seed=i), Seating()) for i in range(5)]
    assert processes_for(randoms, None, None) == 1
    assert processes_for(randoms, None, 9) == 5 and processes_for(randoms, None, 1) == 1
    many = randoms * (MIN_SHARE * 8 // 5)
    assert processes_for(many, None, None) == min(cores(), 8)
