"""Real-model smoke (run by .ci/run: `pytest -m realmodel`): `positions run` on the embedded
model answers a good-camp item (vote and role estimate) and prints VA and OI."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from autowerewolf.cli import app
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import Games
from tests.fixed import ARENA_DEAL, SECRET
from tests.servers.local_extra import require_local_extra

pytestmark = [pytest.mark.realmodel, pytest.mark.slow]


def test_positions_run_on_the_embedded_model(tmp_path: Path) -> None:
    require_local_extra()
    db = tmp_path / "games.db"
    games = Games(db, create=True)
    try:
        # Heuristic good seats against random wolves on a seed where the good camp wins, on
        # the 8-seat board: its role estimate rates seven seats, the 12-seat board's eleven.
        wolves = {f"P{i + 1:02d}": "random" for i, r in enumerate(ARENA_DEAL) if r == "werewolf"}
        seating = Seating(default="heuristic", seats=wolves)
        setup = GameSetup(secret=SECRET, board="8-arena", seed=1, deal=ARENA_DEAL)
        games.start("smoke", setup, seating)
    finally:
        games.close()
    items = tmp_path / "items.jsonl"
    runner = CliRunner()
    built = runner.invoke(app, ["positions", "build", str(db), "--out", str(items)])
    assert built.exit_code == 0, built.output
    # The role estimate needs ~50 tokens per rated seat: more than the players' default.
    run = ["positions", "run", str(items), "--limit", "1", "--decodes", "1", "--seed", "3"]
    result = runner.invoke(app, [*run, "--model", "default.max_tokens=1000"])
    assert result.exit_code == 0, result.output
    assert "overall" in result.output and "VA" in result.output and "OI" in result.output
    summary = json.loads(next(tmp_path.glob("*.summary.json")).read_text())
    assert summary["calls"] >= 2 and summary["tokens_out"] > 0
    assert summary["overall"]["va"]["n"] == 1 and summary["overall"]["oi"]["n"] == 1
