"""`db migrate` and `db prune` on a SQLite file: pruned games keep their final state and
the file shrinks; a prune killed between copy and delete is completed by the next one."""

from pathlib import Path

from typer.testing import CliRunner

from autowerewolf.cli import app
from autowerewolf.runner import Games
from autowerewolf.storage.prune import COPY, _move

cli = CliRunner()


def test_prune_keeps_final_states_and_shrinks_the_file(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    assert cli.invoke(app, ["db", "migrate", "--db", str(db)]).exit_code == 0
    batch = ["batch", "--games", "3", "--players", "random", "--db", str(db)]
    assert cli.invoke(app, batch).exit_code == 0
    games = Games(db)
    before = {i: games.load(i) for i in games.ids()}
    _move(games, "batch-1", "batch-1" + COPY)  # a prune killed after its copy
    games.close()
    size = db.stat().st_size
    result = cli.invoke(app, ["db", "prune", "--db", str(db), "--keep", "batch-2"])
    assert result.exit_code == 0 and "pruned 2" in result.output, result.output
    games = Games(db, readonly=True)
    try:
        assert games.ids() == ["batch-0", "batch-1", "batch-2"]
        for game_id, record in before.items():
            after = games.load(game_id)
            assert (after.status, after.game, after.events) == (
                "finished",
                record.game,
                record.events,
            )
        assert len(list(games.history("batch-0"))) == 1
        assert len(list(games.history("batch-2"))) > 1  # kept whole
    finally:
        games.close()
    assert db.stat().st_size < size
    assert cli.invoke(app, ["replay", "batch-0", "--db", str(db)]).exit_code == 0
