"""Promise: a game stopped as it began (killed after its input was saved, before its first
step: a Ray driver or `play` killed at the wrong moment) breaks no command. Listing shows
it as unfinished, the report, `db prune` and the web lobby pass over it, and `resume`
begins it. The cluster test's killed driver left such a game and the listing failed on it.
"""

import shutil
from pathlib import Path

from autowerewolf.graph.builder import build_graph
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import Games
from autowerewolf.web.reader import GameReader
from tests.fixed import SECRET

from .helpers import cli, error_line


def stop_as_it_began(db: Path, game_id: str) -> None:
    """Save a game's input and nothing more, as a kill right after it does."""
    games = Games(db, create=True)
    try:
        graph = build_graph().compile(checkpointer=games.store.saver, interrupt_before=["setup"])
        setup = {"setup": GameSetup(secret=SECRET, seed=3), "seating": Seating(default="random")}
        graph.invoke(setup, Games.run_config(game_id))
        assert game_id in games.ids() and games.peek(game_id) is None
    finally:
        games.close()


def test_every_command_copes_and_resume_begins_it(played_two_kinds: Path, tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    shutil.copy(played_two_kinds, db)  # holds the finished game `g`
    stop_as_it_began(db, "begun")

    listing = cli("games", "--db", db)
    assert listing.exit_code == 0, listing.stderr
    assert "begun" in listing.stdout and "unfinished" in listing.stdout

    report = cli("report", db, "--out", tmp_path / "report", "--resamples", 100)
    assert report.exit_code == 0, report.stderr  # over `g` alone

    reader = GameReader(db)
    try:
        assert reader.listed("begun") is None and reader.listed("g") is not None
    finally:
        reader.close()

    missing = cli("inspect", "begun", "--db", db)
    assert "no game 'begun'" in error_line(missing)

    resumed = cli("resume", "begun", "--db", db, "--narration", "off")
    assert resumed.exit_code == 0, resumed.stderr
    games = Games(db, readonly=True)
    try:
        record = games.load("begun")
        assert record.status == "finished" and record.game.config.seed == 3
    finally:
        games.close()


def test_prune_passes_over_it(played: Path, tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    shutil.copy(played, db)
    stop_as_it_began(db, "begun")
    pruned = cli("db", "prune", "--db", db)
    assert pruned.exit_code == 0, pruned.stderr
    games = Games(db, readonly=True)
    try:
        assert games.peek("begun") is None and games.load("g").status == "finished"
    finally:
        games.close()
