"""A tournament records its design in its database: a rerun of a changed file is refused
with the changed fields named, more games extend it (the report can tell the runs apart),
an unbalanced schedule is warned about, and `report` prints the tournament's numbers."""

import json
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError
from typer.testing import CliRunner

from autowerewolf.cli import app
from autowerewolf.errors import SettingsError
from autowerewolf.evaluation.tournament.config import TournamentConfig
from autowerewolf.evaluation.tournament.fingerprint import recorded
from autowerewolf.evaluation.tournament.play import pending, run_tournament
from autowerewolf.evaluation.tournament.results import connect
from autowerewolf.evaluation.tournament.schedule import balanced_size
from autowerewolf.runner import Games
from tests.fixed import HEX_SECRET

FILE = {
    "name": "small",
    "board": "8-arena",
    "games": 4,
    "seed": 3,
    "contestants": [{"name": "h", "kind": "heuristic"}, {"name": "r", "kind": "random"}],
}


def config(**changes: object) -> TournamentConfig:
    return TournamentConfig.model_validate({**FILE, **changes})


@pytest.fixture
def played(tmp_path: Path) -> Path:
    db = tmp_path / "games.db"
    run_tournament(config(), db)
    return db


def runs(db: Path) -> list[int]:
    store = connect(db)
    try:
        found = recorded(store, "small")
    finally:
        store.close()
    assert found is not None
    return found.runs


def test_a_changed_design_is_refused_naming_the_changes(played: Path) -> None:
    more = [*FILE["contestants"], {"name": "x", "kind": "random"}]  # type: ignore[misc]
    with pytest.raises(SettingsError, match=r"changed: contestants \(added x\)") as err:
        pending(config(contestants=more, games=3), played)
    assert "new `name:`" in str(err.value)
    with pytest.raises(SettingsError, match="changed: seed, variants"):
        pending(config(seed=4, variants={"badge_swallow": "double"}), played)
    sim = {"default": {"backend": "simulated", "model": "sim"}}
    with pytest.raises(SettingsError, match="changed: models"):
        pending(config(models=sim), played)
    assert runs(played) == [4]  # nothing was recorded by the refused runs


def test_fewer_games_than_played_are_refused_and_settings_may_change(played: Path) -> None:
    with pytest.raises(SettingsError, match="games: 3 is fewer than the 4 games"):
        pending(config(games=3), played)
    # Concurrency and bootstrap decide no game.
    found = pending(config(concurrency=2, bootstrap=200), played)
    assert (found.todo, found.done) == ([], 4)


def test_more_games_extend_it_and_the_runs_are_recorded(played: Path) -> None:
    found = pending(config(games=6), played)
    assert [g.game_id for g in found.todo] == ["small-00004", "small-00005"]
    assert found.note == "tournament 'small' resized from 4 to 6 games"
    assert runs(played) == [4, 6]
    run_tournament(config(games=6), played)
    assert pending(config(games=6), played).done == 6


def test_cli_refuses_with_one_line_and_warns_about_an_unbalanced_schedule(
    tmp_path: Path,
) -> None:
    three = [*FILE["contestants"], {"name": "s", "kind": "random"}]  # type: ignore[misc]
    unbalanced = {**FILE, "games": 7, "contestants": three}
    assert balanced_size(config(games=7, contestants=three)) == 12
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump(unbalanced))
    out = ["--out", str(tmp_path / "out"), "--no-gte"]
    first = CliRunner().invoke(app, ["tournament", str(path), *out])
    assert first.exit_code == 0, first.output
    assert "unbalanced schedule" in first.output and "smallest balanced size" in first.output
    assert "is 12" in first.output
    # The case: a contestant added and 7 games made 6 after the run.
    path.write_text(
        yaml.safe_dump(
            {**unbalanced, "games": 6, "contestants": [*three, {"name": "z", "kind": "random"}]}
        )
    )
    second = CliRunner().invoke(app, ["tournament", str(path), *out])
    assert second.exit_code == 2
    assert "error:" in second.output and "contestants (added z)" in second.output
    assert second.output.count("\n") == 1


def test_report_prints_the_tournaments_numbers(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    design = {**FILE, "games": 8, "seed": 9, "bootstrap": 300, "secret": HEX_SECRET}
    path.write_text(yaml.safe_dump(design))
    fast = "--no-gte"
    played = CliRunner().invoke(app, ["tournament", str(path), "--out", str(tmp_path / "a"), fast])
    assert played.exit_code == 0, played.output
    db = str(tmp_path / "a" / "games.db")
    again = CliRunner().invoke(app, ["report", db, "--out", str(tmp_path / "b"), fast])
    assert again.exit_code == 0, again.output
    assert "bootstrap seed 9, 300 resamples" in again.output
    other = CliRunner().invoke(
        app, ["report", db, "--out", str(tmp_path / "c"), "--seed", "1", fast]
    )
    assert other.exit_code == 0, other.output

    def intervals(folder: str) -> list[tuple[float, float]]:
        data = json.loads((tmp_path / folder / "metrics.json").read_text())
        return [(s["lo"], s["hi"]) for s in data["ratings"]["bradley_terry"]["skills"]]

    assert intervals("b") == intervals("a")
    assert intervals("c") != intervals("a")


def test_the_report_tells_each_runs_games_apart(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump(FILE))
    out = ["--out", str(tmp_path / "a"), "--no-gte"]
    assert CliRunner().invoke(app, ["tournament", str(path), *out]).exit_code == 0
    path.write_text(yaml.safe_dump({**FILE, "games": 6}))
    extended = CliRunner().invoke(app, ["tournament", str(path), *out])
    assert extended.exit_code == 0, extended.output
    assert "resized from 4 to 6 games" in " ".join(extended.output.split())
    header = (tmp_path / "a" / "report.md").read_text().splitlines()[2]
    assert "games small-00000 to small-00003, then small-00004 to small-00005" in header
    data = json.loads((tmp_path / "a" / "metrics.json").read_text())
    assert data["games"] == 6 and "one range per run" in data["note"]


def test_a_secret_replays_the_tournament_and_a_changed_one_is_refused(tmp_path: Path) -> None:
    def transcripts(db: Path) -> dict[str, list[str]]:
        games = Games(db)
        try:
            return {g: [e.text for e in games.load(g).events] for g in sorted(games.ids())}
        finally:
            games.close()

    first, second, fresh = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "c.db"
    run_tournament(config(games=2, secret=HEX_SECRET), first)
    run_tournament(config(games=2, secret=HEX_SECRET), second)
    run_tournament(config(games=2), fresh)
    assert transcripts(first) == transcripts(second)
    # Without a secret each game draws its own: the same schedule plays other games.
    assert transcripts(first) != transcripts(fresh)
    with pytest.raises(SettingsError, match="changed: secret"):
        pending(config(games=2, secret="ab" * 16), first)
    store = connect(first)
    try:
        found = recorded(store, "small")
    finally:
        store.close()
    assert found is not None and HEX_SECRET not in json.dumps(found.design)


def test_a_malformed_secret_is_refused() -> None:
    with pytest.raises(ValidationError):
        config(secret="not-hex")
