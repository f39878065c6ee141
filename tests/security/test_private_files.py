"""Every file the command line and the server write is 0600 in folders 0700, under a
permissive umask: checked on the files actually present after `serve`, `play`,
`tournament` and `export`, whatever their names."""

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from autowerewolf.errors import SettingsError
from autowerewolf.private_files import (
    DIR_MODE,
    FILE_MODE,
    output_folder,
    private_dir,
    replaced_atomically,
)
from tests.graph.graph_helpers import cli
from tests.web.conftest import running_server

PERMISSIVE_UMASK = 0o022  # the common default: files 0644, folders 0755


@pytest.fixture(autouse=True)
def permissive_umask() -> Iterator[None]:
    previous = os.umask(PERMISSIVE_UMASK)
    try:
        yield
    finally:
        os.umask(previous)


def modes_under(root: Path) -> dict[str, int]:
    """The permission bits of `root` and of every folder and file below it."""
    found = {".": stat.S_IMODE(root.stat().st_mode)}
    for folder, folders, files in os.walk(root):
        for name in [*folders, *files]:
            path = Path(folder) / name
            found[str(path.relative_to(root))] = stat.S_IMODE(path.lstat().st_mode)
    return found


def assert_private(root: Path, at_least: set[str]) -> dict[str, int]:
    """Every folder under `root` (itself included) is 0700 and every file 0600; the files
    named in `at_least` are among them, so that an empty walk cannot pass."""
    modes = modes_under(root)
    assert at_least <= set(modes), sorted(modes)
    for name, mode in modes.items():
        wanted = DIR_MODE if (root / name).is_dir() else FILE_MODE
        assert mode == wanted, f"{name} is {mode:o}, not {wanted:o}"
    return modes


def test_a_played_game_and_its_export_are_private(tmp_path: Path) -> None:
    out = tmp_path / "out"  # created by the commands, under the permissive umask
    db = out / "games" / "g.db"
    played = cli("play", "--players", "random", "--board", "8-arena", "--db", db)
    assert played.exit_code == 0, played.stderr
    assert_private(out, {"games", "games/g.db"})
    exported = cli("export", db, "--out", out / "export" / "dataset")
    assert exported.exit_code == 0, exported.stderr
    chat = cli("export", db, "--out", out / "export" / "chat", "--format", "chat")
    assert chat.exit_code == 0, chat.stderr
    assert_private(
        out,
        {"export/dataset/games.jsonl", "export/dataset/manifest.json", "export/chat/chat.jsonl"},
    )


def test_a_tournament_and_its_report_are_private(tmp_path: Path) -> None:
    design = {
        "name": "small", "board": "8-arena", "games": 2, "seed": 3, "bootstrap": 100,
        "contestants": [{"name": "h", "kind": "heuristic"}, {"name": "r", "kind": "random"}],
    }  # fmt: skip
    config = tmp_path / "t.yaml"
    config.write_text(yaml.safe_dump(design))
    out = tmp_path / "out"
    played = cli("tournament", config, "--out", out / "small", "--no-gte", "--concurrency", 1)
    assert played.exit_code == 0, played.stderr
    modes = assert_private(out, {"small/games.db", "small/report.html", "small/ratings.csv"})
    assert any(name.startswith("small/plots/") for name in modes)


@pytest.mark.slow
def test_the_servers_database_link_book_and_run_registry_are_private(tmp_path: Path) -> None:
    out = tmp_path / "out"
    db = out / "games.db"
    with running_server(tmp_path, db) as server:
        made = server.create({"default": "random", "board": "8-arena"})
        server.wait_status(str(made["game"]), "finished")
        # While it runs: the database's -wal and -shm are there too.
        assert_private(out, {"games.db", "games.db-wal", "games.db-shm", "games.db.server",
                             "games.db.server/links.json"})  # fmt: skip
    # LangGraph writes its run registry as the server stops.
    modes = assert_private(out, {"games.db", "games.db.server/links.json"})
    assert any(name.startswith("games.db.server/.langgraph_api/") for name in modes), modes


def test_private_dir_makes_only_the_missing_folders_private(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()  # the user's folder: 0755 under the umask, and it stays so
    private_dir(mine / "a" / "b")
    assert stat.S_IMODE(mine.stat().st_mode) == 0o755
    assert stat.S_IMODE((mine / "a").stat().st_mode) == DIR_MODE
    assert stat.S_IMODE((mine / "a" / "b").stat().st_mode) == DIR_MODE


def test_a_failed_write_leaves_no_file_and_no_new_folder(tmp_path: Path) -> None:
    target = tmp_path / "new" / "data.jsonl"
    with (
        pytest.raises(RuntimeError),
        output_folder(target.parent),
        replaced_atomically(target) as file,
    ):
        file.write("half a line")
        raise RuntimeError("the source broke")
    assert list(tmp_path.iterdir()) == []
    with replaced_atomically(target) as file:
        file.write("whole\n")
    assert target.read_text() == "whole\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["data.jsonl"]
    assert stat.S_IMODE(target.stat().st_mode) == FILE_MODE
    with pytest.raises(SettingsError, match="is a file, not a folder"), output_folder(target):
        pass
