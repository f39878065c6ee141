"""Reads of a whole game happen only when needed: the web reader reads a game's record once
per checkpoint (a seat's page asks for its header and its question together at each turn),
and the live stream reads every saved step only when a step was saved that it had not sent."""

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from langgraph.types import Command

from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import GameRecord, Games
from autowerewolf.web.frames import PUBLIC
from autowerewolf.web.humans import AnswerBox
from autowerewolf.web.live import live_messages
from autowerewolf.web.reader import GameReader, Step
from tests.fixed import SECRET
from tests.graph.graph_helpers import first_option_answers


@pytest.fixture
def waiting(tmp_path: Path) -> Iterator[tuple[Games, GameRecord, GameReader]]:
    """A game waiting for its human seat P03, and a web reader of its database."""
    db = tmp_path / "games.db"
    games = Games(db, create=True)
    record = games.start("human", GameSetup(secret=SECRET, seed=5), Seating(seats={"P03": "human"}))
    assert record.status == "waiting"
    reader = GameReader(db)
    try:
        yield games, record, reader
    finally:
        reader.close()
        games.close()


def test_a_record_is_read_once_per_checkpoint(
    waiting: tuple[Games, GameRecord, GameReader], monkeypatch: pytest.MonkeyPatch
) -> None:
    games, record, reader = waiting
    reads: list[str] = []
    peek = reader.games.peek

    def counted(game_id: str) -> object:
        reads.append(game_id)
        return peek(game_id)

    monkeypatch.setattr(reader.games, "peek", counted)
    first = reader.load("human")
    assert reader.row("human").steps == first.game.ply and reader.load("human") is first
    assert reads == ["human"]
    record = games.resume("human", first_option_answers(record))
    moved = reader.load("human")
    assert reads == ["human", "human"] and moved.game.ply == record.game.ply > first.game.ply
    assert moved.events == record.events


def test_the_live_stream_reads_every_step_only_when_one_was_saved(
    waiting: tuple[Games, GameRecord, GameReader], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A new checkpoint that adds no step (a question asked again after an illegal answer)
    # must not cost a read of the whole game: that read delays the next question's status.
    games, record, reader = waiting
    reads: list[str] = []
    steps = reader.steps

    def counted(game_id: str) -> list[Step]:
        reads.append(game_id)
        return steps(game_id)

    monkeypatch.setattr(reader, "steps", counted)

    async def follow() -> None:
        stream = live_messages(reader, AnswerBox(), "human", PUBLIC, -1)
        kinds = [m["event"] async for m in _until(stream, "status")]
        assert kinds[-2:] == ["ready", "status"] and reads == ["human"]
        again = games._run("human", Command(resume={"P03": {"option": "P99"}}), None)
        assert again.game.ply == record.game.ply and "not legal" in str(again.interrupts[-1])
        # The stream's checks grow to a second apart; a cancelled wait would close it.
        following = asyncio.ensure_future(stream.__anext__())
        done, _ = await asyncio.wait({following}, timeout=2.5)
        assert not done and reads == ["human"], "no step was saved: nothing to read"
        games.resume("human", first_option_answers(record))
        assert (await asyncio.wait_for(following, 5))["event"] == "frame"
        assert reads == ["human", "human"]
        await stream.aclose()

    asyncio.run(follow())


async def _until(
    stream: AsyncIterator[dict[str, str]], event: str
) -> AsyncIterator[dict[str, str]]:
    async for message in stream:
        yield message
        if message["event"] == event:
            return
