"""Reads of a whole game happen only when needed: the web reader reads a game's record once
per checkpoint (a seat's page asks for its header and its question together at each turn),
the live stream reads every saved step only when a step was saved that it had not sent and
never while the server's run of the game plays (its steps come in the stream), a seat's
question is made from the game the stream holds unless the stream is behind, and the
server's thread reads never carry the thread's values (the whole game)."""

import asyncio
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph.types import Command
from langgraph_sdk.schema import StreamPart

from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import GameRecord, Games
from autowerewolf.web import server_games
from autowerewolf.web.frames import PUBLIC
from autowerewolf.web.humans import AnswerBox, question_of
from autowerewolf.web.live import live_messages
from autowerewolf.web.reader import GameReader, Step
from tests.fixed import SECRET
from tests.graph.graph_helpers import first_option_answers

SERVER_GAME = str(uuid.UUID(int=48))


def counted_reads(monkeypatch: pytest.MonkeyPatch, reader: object, method: str) -> list[str]:
    """The game ids `reader.method` is called with from now on, in order (it still reads)."""
    reads: list[str] = []
    read = getattr(reader, method)

    def counted(game_id: str) -> Any:
        reads.append(game_id)
        return read(game_id)

    monkeypatch.setattr(reader, method, counted)
    return reads


async def held_then_sent(
    stream: AsyncIterator[dict[str, Any]], held_s: float, unblock: Callable[[], None]
) -> str:
    """The event `stream` sends once `unblock()` has run, after it sent nothing for `held_s`
    (one wait throughout: a cancelled wait would close the stream)."""
    following = asyncio.ensure_future(stream.__anext__())
    done, _ = await asyncio.wait({following}, timeout=held_s)
    assert not done, f"the stream sent something within {held_s} s"
    unblock()
    return str((await asyncio.wait_for(following, 5))["event"])


def _waiting(db: Path, game_id: str) -> Iterator[tuple[Games, GameRecord, GameReader]]:
    games = Games(db, create=True)
    record = games.start(game_id, GameSetup(secret=SECRET, seed=5), Seating(seats={"P03": "human"}))
    assert record.status == "waiting"
    reader = GameReader(db)
    try:
        yield games, record, reader
    finally:
        reader.close()
        games.close()


@pytest.fixture
def waiting(tmp_path: Path) -> Iterator[tuple[Games, GameRecord, GameReader]]:
    """A game waiting for its human seat P03, and a web reader of its database."""
    yield from _waiting(tmp_path / "games.db", "human")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Games, GameRecord, GameReader]]:
    """The same game under a server game's id (a UUID)."""
    yield from _waiting(tmp_path / "games.db", SERVER_GAME)


def test_a_record_is_read_once_per_checkpoint(
    waiting: tuple[Games, GameRecord, GameReader], monkeypatch: pytest.MonkeyPatch
) -> None:
    games, record, reader = waiting
    reads = counted_reads(monkeypatch, reader.games, "peek")
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
    reads = counted_reads(monkeypatch, reader, "steps")

    async def follow() -> None:
        stream = live_messages(reader, AnswerBox(), "human", PUBLIC, -1)
        kinds = [m["event"] async for m in _until(stream, "status")]
        assert kinds[-2:] == ["ready", "status"] and reads == ["human"]
        again = games._run("human", Command(resume={"P03": {"option": "P99"}}), None)
        assert again.game.ply == record.game.ply and "not legal" in str(again.interrupts[-1])

        def save_a_step() -> None:
            assert reads == ["human"], "no step was saved: nothing to read"
            games.resume("human", first_option_answers(record))

        # The stream's checks grow to a second apart.
        assert await held_then_sent(stream, 2.5, save_a_step) == "frame"
        assert reads == ["human", "human"]
        await stream.aclose()

    asyncio.run(follow())


def test_a_seat_s_question_is_made_from_the_stream_s_game_unless_it_is_behind(
    waiting: tuple[Games, GameRecord, GameReader], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The live stream hands a seat's turn its question from the game it holds; a stream
    # still behind the run (its newest step poses another question, or none) must not show
    # that one: the saved game is read instead.
    _, record, reader = waiting
    reads = counted_reads(monkeypatch, reader, "load")
    interrupt = record.interrupts[-1]
    pending = {"id": interrupt["id"], "value": interrupt}
    steps = reader.steps("human")
    events = [e for step in steps for e in step.events]
    behind = [e for step in steps[:-1] for e in step.events]
    box = AnswerBox()

    def asked(known: tuple[Any, list[Any]]) -> dict[str, Any] | None:
        return asyncio.run(question_of(reader, box, "human", pending, "P03", known=known))

    now = asked((steps[-1].game, events))
    assert now is not None and now["key"] == interrupt["key"] and reads == []
    late = asked((steps[-2].game, behind))
    assert late == now and reads == ["human"]


class _Threads:
    """The server's thread registry as the live stream reads it: a stream that says what
    is put in `parts` (at once, as a burst), and searches answered with the status set
    here (every search is kept)."""

    def __init__(self) -> None:
        self.status = "busy"
        self.searches: list[dict[str, Any]] = []
        self.parts: asyncio.Queue[list[StreamPart]] = asyncio.Queue()

    async def join_stream(self, game_id: str) -> AsyncIterator[StreamPart]:
        async def parts() -> AsyncIterator[StreamPart]:
            while True:
                for part in await self.parts.get():
                    yield part

        return parts()

    async def search(self, **query: Any) -> list[dict[str, Any]]:
        self.searches.append(query)
        ids = query.get("ids") or [SERVER_GAME]
        return [{"thread_id": i, "status": self.status, "interrupts": {}} for i in ids]


class _Client:
    def __init__(self) -> None:
        self.threads = _Threads()


def test_while_the_server_runs_a_game_its_stream_waits_for_the_run_s_steps(
    served: tuple[Games, GameRecord, GameReader], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The run's updates reach the stream after its checkpoints reach the database: a read of
    # every step on seeing a newer checkpoint would compete with the run it is waiting for.
    games, record, reader = served
    client = _Client()
    monkeypatch.setattr(server_games, "client", lambda: client)
    reads = counted_reads(monkeypatch, reader, "steps")

    async def follow() -> None:
        stream = live_messages(reader, AnswerBox(), SERVER_GAME, PUBLIC, -1)
        kinds = [m["event"] async for m in _until(stream, "status")]
        assert kinds[-2:] == ["ready", "status"] and reads == [SERVER_GAME]
        games.resume(SERVER_GAME, first_option_answers(record))  # saved behind the stream

        def end_the_run() -> None:
            assert reads == [SERVER_GAME], "the run plays: its steps are to come"
            client.threads.status = "interrupted"  # the run ended; its steps never came

        assert await held_then_sent(stream, 1.5, end_the_run) == "frame"
        assert reads == [SERVER_GAME, SERVER_GAME]
        await stream.aclose()

    asyncio.run(follow())


def test_a_burst_of_steps_is_framed_before_the_status_is_read_again(
    served: tuple[Games, GameRecord, GameReader], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A status read is a request into the server: one per queued update would compete with
    # the run the seat waits for, and the run's end comes after its last update anyway.
    games, record, reader = served
    client = _Client()
    monkeypatch.setattr(server_games, "client", lambda: client)

    def saved_after() -> list[Step]:
        return [s for s in reader.steps(SERVER_GAME) if s.game.ply > record.game.ply]

    async def follow() -> None:
        stream = live_messages(reader, AnswerBox(), SERVER_GAME, PUBLIC, -1)
        assert [m async for m in _until(stream, "status")][-1]["event"] == "status"
        later = record
        while len(new := saved_after()) < 4:
            later = games.resume(SERVER_GAME, first_option_answers(later))
        client.threads.parts.put_nowait(
            [StreamPart("updates", {"step": {"game": s.game, "events": s.events}}) for s in new]
        )
        reads_at_frame = []
        for _ in new:
            assert (await asyncio.wait_for(stream.__anext__(), 5))["event"] == "frame"
            reads_at_frame.append(len(client.threads.searches))
        assert len(set(reads_at_frame)) == 1, "no status read between the burst's frames"
        await stream.aclose()

    asyncio.run(follow())


def test_the_server_s_thread_reads_leave_out_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without a selection the server serializes the thread's values, every event of the
    # game, on each read; the stream reads a thread after every step while a seat waits.
    client = _Client()
    monkeypatch.setattr(server_games, "client", lambda: client)
    client.threads.status = "interrupted"

    async def read_all() -> None:
        assert await server_games.pending_interrupt(SERVER_GAME) is None  # no interrupt
        assert await server_games.thread_statuses() == {SERVER_GAME: "interrupted"}
        assert await server_games.waiting_for_humans() == {}

    asyncio.run(read_all())
    assert len(client.threads.searches) == 3
    for query in client.threads.searches:
        assert query["select"] and "values" not in query["select"]
        assert {"status", "interrupts"} <= set(query["select"])


async def _until(
    stream: AsyncIterator[dict[str, str]], event: str
) -> AsyncIterator[dict[str, str]]:
    async for message in stream:
        yield message
        if message["event"] == event:
            return
