"""Promise: a damaged database ends every reading command with one `error:` line (or a
correct answer) and is never modified; `resume` of a damaged game writes nothing.
"""

import shutil
import sqlite3
from pathlib import Path

import ormsgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autowerewolf.runner import Games

from .helpers import (
    ALL_READERS,
    FileState,
    cli,
    error_line,
    play_random,
    problems,
    reader_args,
)

PAGE = 4096  # the page size of the games' databases
HEADER = 100  # SQLite's file header, kept intact: the damage is in the payload
# With helpers.SEED, a 99-step game whose last step writes the transcript's snapshot.
LONG_GAME_SECRET = "365eee9f95c588625a0e9153b744b504"


def _latest_checkpoint(db: Path) -> str:
    conn = sqlite3.connect(db)
    try:
        (checkpoint_id,) = conn.execute(
            "SELECT checkpoint_id FROM checkpoints WHERE thread_id = 'g' "
            "ORDER BY checkpoint_id DESC LIMIT 1"
        ).fetchone()
    finally:
        conn.close()
    return checkpoint_id


def _last_step(db: Path) -> int:
    games = Games(db, readonly=True)
    try:
        return games.load("g").game.ply
    finally:
        games.close()


def _update(db: Path, sql: str, *params: object) -> None:
    conn = sqlite3.connect(db)
    with conn:
        changed = conn.execute(sql, params).rowcount
    conn.close()
    assert changed > 0


def _assert_readers_refuse(db: Path, out: Path, fragment: str) -> None:
    for name in ALL_READERS:
        before = FileState.of(db)
        line = error_line(cli(*reader_args(name, db, out)))
        assert fragment in line, (name, line)
        assert FileState.of(db) == before, name


def test_bad_checkpoint_blob_is_a_damaged_game(game_db: Path, tmp_path: Path) -> None:
    # The latest checkpoint is the game-over one, which follows the last step's checkpoint.
    last = _last_step(game_db)
    _update(game_db, "UPDATE checkpoints SET checkpoint = X'C1FFFE00' WHERE checkpoint_id = ?",
            _latest_checkpoint(game_db))  # fmt: skip
    _assert_readers_refuse(game_db, tmp_path / "out", f"game 'g' is damaged after step {last}")


BAD_EVENTS = "UPDATE writes SET value = X'D9FF80' WHERE channel = 'events'"


def test_bad_pending_writes_are_a_damaged_game(game_db: Path, tmp_path: Path) -> None:
    # The transcript of this short game is rebuilt from every step's writes (no snapshot).
    _update(game_db, BAD_EVENTS)
    for name in ("inspect", "replay", "history"):
        assert "is damaged" in error_line(cli(*reader_args(name, game_db, tmp_path)))


def test_bad_writes_behind_a_snapshot_give_a_correct_answer_or_none(tmp_path: Path) -> None:
    """A game long enough for the transcript's delta channel to write a full snapshot (at its
    100th update): the final state no longer needs the damaged writes, so `inspect` and
    `replay` may answer, but only with what the undamaged game says; `history` reads every
    step and refuses."""
    db = tmp_path / "long.db"
    play_random(db, secret=LONG_GAME_SECRET)
    clean = {name: cli(*reader_args(name, db, tmp_path)).stdout for name in ("inspect", "replay")}
    _update(db, BAD_EVENTS)
    for name, expected in clean.items():
        damaged = cli(*reader_args(name, db, tmp_path))
        if damaged.exit_code == 0:
            assert damaged.stdout == expected, name
        else:
            assert "is damaged" in error_line(damaged), name
    assert "is damaged" in error_line(cli(*reader_args("history", db, tmp_path)))


def test_a_value_of_the_wrong_type_is_a_damaged_game(game_db: Path, tmp_path: Path) -> None:
    """The blob decodes, but `game` is an int: the serializer's silent fallback is caught."""
    last = _last_step(game_db)
    checkpoint_id = _latest_checkpoint(game_db)
    conn = sqlite3.connect(game_db)
    blob = conn.execute(
        "SELECT checkpoint FROM checkpoints WHERE checkpoint_id = ?", (checkpoint_id,)
    ).fetchone()[0]
    conn.close()
    checkpoint = ormsgpack.unpackb(blob, ext_hook=lambda code, data: ormsgpack.Ext(code, data))
    assert "game" in checkpoint["channel_values"]
    checkpoint["channel_values"]["game"] = 7
    _update(game_db, "UPDATE checkpoints SET checkpoint = ? WHERE checkpoint_id = ?",
            ormsgpack.packb(checkpoint), checkpoint_id)  # fmt: skip
    _assert_readers_refuse(game_db, tmp_path / "out", f"game 'g' is damaged after step {last}")


def test_resume_of_a_damaged_game_writes_nothing(game_db: Path) -> None:
    # Cut the finished game back to an unfinished one whose latest checkpoint is damaged.
    _update(game_db, "DELETE FROM checkpoints WHERE checkpoint_id = ?", _latest_checkpoint(game_db))
    _update(game_db, "UPDATE checkpoints SET checkpoint = X'C1' WHERE checkpoint_id = ?",
            _latest_checkpoint(game_db))  # fmt: skip
    before = FileState.of(game_db)
    line = error_line(cli("resume", "g", "--db", game_db))
    assert "is damaged" in line and "cannot be read or resumed" in line
    assert FileState.of(game_db) == before


# Truncation is drawn less often: any cut makes SQLite refuse the file outright, while
# flipped bytes inside pages reach the checkpoint decoding this test is after.
damage = st.lists(
    st.one_of(
        st.tuples(st.just("flip"), st.integers(0, 10**9), st.integers(1, 255)),
        st.tuples(st.just("flip"), st.integers(0, 10**9), st.integers(1, 255)),
        st.tuples(st.just("zero-run"), st.integers(0, 10**9), st.integers(1, 600)),
        st.tuples(st.just("truncate"), st.integers(0, 10**9), st.just(0)),
    ),
    min_size=1,
    max_size=6,
)


def _damaged(data: bytes, operations: list[tuple[str, int, int]]) -> bytes:
    damaged = bytearray(data)
    for kind, position, value in operations:
        at = HEADER + position % (len(damaged) - HEADER)
        if kind == "flip":
            damaged[at] ^= value
        elif kind == "zero-run":
            damaged[at : at + value] = bytes(len(damaged[at : at + value]))
        else:
            del damaged[max(at, PAGE) :]
    return bytes(damaged)


# 45 s on 2 cores: with the single tests of 20 s or more (`pytest -m long`, run by .ci/run).
@pytest.mark.long
@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(operations=damage)
def test_byte_level_damage_never_escapes(
    played: Path, tmp_path: Path, operations: list[tuple[str, int, int]]
) -> None:
    folder = tmp_path / "fuzz"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    db = folder / "games.db"
    db.write_bytes(_damaged(played.read_bytes(), operations))
    before = FileState.of(db)
    for name in ALL_READERS:
        result = cli(*reader_args(name, db, tmp_path / "report"))
        assert not problems(result, allow_ok=True), (name, problems(result, allow_ok=True))
        assert FileState.of(db) == before, f"{name} modified the damaged file"
    result = cli("resume", "g", "--db", db)
    assert not problems(result, allow_ok=True), ("resume", problems(result, allow_ok=True))


@pytest.mark.parametrize("size", [0, HEADER, PAGE, PAGE + 1])
def test_truncated_to_nothing_is_refused(played: Path, tmp_path: Path, size: int) -> None:
    db = tmp_path / "games.db"
    db.write_bytes(played.read_bytes()[:size])
    before = FileState.of(db)
    for name in ALL_READERS:
        assert not problems(cli(*reader_args(name, db, tmp_path / "out")), allow_ok=False)
    assert FileState.of(db) == before
