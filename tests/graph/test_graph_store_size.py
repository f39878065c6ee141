"""Checkpoints stay small: the transcript is stored as deltas, not re-stored every step."""

import sqlite3
from pathlib import Path

from tests.graph.graph_helpers import new_games, start_random

MB = 1024 * 1024


def _db_size(tmp_path: Path, name: str, seed: int) -> tuple[int, int, int]:
    """(file bytes, steps, events) of a database holding one complete random 12-A game."""
    db = tmp_path / f"{name}.db"
    games = new_games(db)
    try:
        record = start_random(games, name, seed=seed)
        assert record.status == "finished"
        games.store.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        games.close()
    assert not (tmp_path / f"{name}.db-wal").exists() or (
        (tmp_path / f"{name}.db-wal").stat().st_size == 0
    )
    return db.stat().st_size, record.game.ply, len(record.events)


def test_complete_game_database_is_small_and_grows_linearly(tmp_path: Path) -> None:
    size, steps, events = _db_size(tmp_path, "typical", seed=53)  # 100 steps, 212 events
    assert steps > 80 and events > 200
    assert size < 2 * MB, f"{size / MB:.2f} MB for {steps} steps"

    short_size, short_steps, _ = _db_size(tmp_path, "short", seed=28)  # 43 steps
    # Bytes per step do not grow with the length of the game (a quadratic store would
    # make the 100-step game cost ~2.4x more per step than the 40-step one).
    per_step, short_per_step = size / steps, short_size / short_steps
    assert per_step < 1.35 * short_per_step, (per_step, short_per_step)


def test_events_are_stored_as_deltas(tmp_path: Path) -> None:
    db = tmp_path / "deltas.db"
    games = new_games(db)
    try:
        record = start_random(games, "d", seed=1)
    finally:
        games.close()
    with sqlite3.connect(db) as conn:
        (event_writes,) = conn.execute(
            "SELECT count(*) FROM writes WHERE thread_id = 'd' AND channel = 'events'"
        ).fetchone()
        (event_bytes,) = conn.execute(
            "SELECT sum(length(value)) FROM writes WHERE thread_id = 'd' AND channel = 'events'"
        ).fetchone()
    # One write per step, each holding only that step's new events.
    assert event_writes <= record.game.ply + 2
    full_transcript = sum(len(e.model_dump_json()) for e in record.events)
    assert event_bytes < 2 * full_transcript
