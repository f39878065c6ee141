"""The experience pool: a file of its own beside the games, written after a game unless
frozen, read back for the same role by similarity."""

import sqlite3
from pathlib import Path

import pytest

from autowerewolf.players.agents.choice import AgentChoice
from autowerewolf.players.agents.pool import (
    Experience,
    ExperiencePool,
    PoolConfig,
    default_pool,
    experiences_of,
    harvest,
)
from autowerewolf.prompts.experience import EXPERIENCE
from tests.agents.helpers import play
from tests.fakes.chat import FakeChatModel

EVERYONE = AgentChoice(default="experience")


def test_a_finished_game_fills_the_pool_and_later_games_retrieve_from_it(tmp_path: Path) -> None:
    pool = ExperiencePool(PoolConfig(default_pool(tmp_path / "games.db")))
    first = play(FakeChatModel(), seed=3, agents=EVERYONE, experience=pool)
    rows = experiences_of(first["events"], first["records"])
    assert rows and all(e.reward in (-1.0, 1.0) for *_, e in rows)
    assert harvest(pool, "g3", first["events"], first["records"]) == len(rows)
    assert harvest(pool, "g3", first["events"], first["records"]) == 0  # stored once
    second = play(FakeChatModel(), seed=4, agents=EVERYONE, experience=pool)
    retrieved = [r.data["retrieved"] for r in second["records"] if r.step == EXPERIENCE and r.data]
    assert any(retrieved)
    votes = [r for r in second["records"] if r.step == "exile_vote" and r.agent == "experience"]
    assert any("Similar past situations from earlier games" in (v.prompt or "") for v in votes)


def test_retrieval_keeps_to_the_role_and_prefers_what_won(tmp_path: Path) -> None:
    pool = ExperiencePool(PoolConfig(tmp_path / "pool.db"))
    same = "Day 2 exile vote as the seer; 9 of 12 players alive; role claims: seer x2."
    pool.add(
        "g1",
        [
            ("P01", "k1", "seer", Experience(same, "You voted out a wolf.", "won", 1.0)),
            ("P02", "k2", "seer", Experience(same, "You abstained.", "lost", -1.0)),
            ("P03", "k3", "witch", Experience(same, "You voted out a wolf.", "won", 1.0)),
        ],
    )
    found = pool.retrieve("seer", same)
    assert [e.action for e, _ in found] == ["You voted out a wolf.", "You abstained."]
    assert pool.retrieve("hunter", same) == []


def test_a_frozen_pool_is_read_but_never_written(tmp_path: Path) -> None:
    path = tmp_path / "pool.db"
    ExperiencePool(PoolConfig(path)).add(
        "g", [("P01", "k", "seer", Experience("Day 1 as the seer.", "You abstained.", "lost", -1))]
    )
    frozen = ExperiencePool(PoolConfig(path, frozen=True))
    out = play(FakeChatModel(), seed=3, agents=EVERYONE, experience=frozen)
    assert harvest(frozen, "g3", out["events"], out["records"]) == 0
    with pytest.raises(PermissionError):
        frozen.add("g", [])
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM experiences").fetchone() == (1,)


def test_the_pool_lives_beside_the_games_never_inside() -> None:
    assert default_pool(Path("/data/games.db")) == Path("/data/games-experience.db")
