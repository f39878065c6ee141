"""Promise: game, script, model and tournament files are read as UTF-8, at most 1 MB, at
most 32 levels deep and 200,000 values after YAML aliases; anything else is one `error:`
line (never a RecursionError or a hang), and nothing is written.
"""

from pathlib import Path

import pytest

from autowerewolf.files import MAX_DEPTH, MAX_FILE_BYTES

from .helpers import cli, error_line

# An alias bomb: nine levels of ten aliases each expand to 10**9 strings.
_ALIASES = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 9)
)
BAD_FILES: dict[str, tuple[bytes, str]] = {
    "latin1.yaml": ("board: 12-A\nname: Jos\xe9\n".encode("latin-1"), "is not UTF-8 text"),
    "utf16.json": ('{"board": "12-A"}'.encode("utf-16"), "is not UTF-8 text"),
    "deep.yaml": (b"a: " + b"[" * 1500 + b"]" * 1500 + b"\n", "nests too deeply"),
    "deep.json": (b'{"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nests too deeply"),
    "blockdeep.yaml": (
        "".join(f"{'  ' * i}k{i}:\n" for i in range(MAX_DEPTH + 2)).encode(),
        "nests too deeply",
    ),
    # "- - - x" nests sequences without brackets: the parser's recursion limit is hit.
    "compact.yaml": (b"a:\n  " + b"- " * 5000 + b"x\n", "nests too deeply"),
    "aliases.yaml": (_ALIASES.encode(), "too many values"),
    "huge.yaml": (b"# " + b"x" * MAX_FILE_BYTES + b"\n", "settings files are at most"),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
@pytest.mark.parametrize("option", ["--config", "--script", "--models"])
def test_bad_settings_files_end_in_one_line(tmp_path: Path, name: str, option: str) -> None:
    content, fragment = BAD_FILES[name]
    path = tmp_path / name
    path.write_bytes(content)
    db = tmp_path / "games.db"
    line = error_line(cli("play", "--players", "random", option, path, "--db", db))
    assert fragment in line, line
    assert not db.exists()


@pytest.mark.parametrize("name", ["latin1.yaml", "deep.yaml", "aliases.yaml"])
def test_bad_tournament_files_end_in_one_line(tmp_path: Path, name: str) -> None:
    content, fragment = BAD_FILES[name]
    path = tmp_path / name
    path.write_bytes(content)
    assert fragment in error_line(cli("tournament", path, "--out", tmp_path / "out"))
    assert not (tmp_path / "out").exists()


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_bytes("\ufeffboard: 8-arena\nseed: 3\n".encode())
    result = cli("play", "--players", "random", "--config", path, "--db", tmp_path / "g.db")
    assert result.exit_code == 0, result.stderr
