"""The live transcript of a game for one audience, as server-sent events.

The backlog comes from the database (reader.py); then each step as the server's run
produces it, from the thread's LangGraph stream (it follows every run of the thread, so
also the runs that resume a human decision). The stream's raw updates hold every seat's
secrets: they are turned into the audience's frames here and never forwarded. Steps the
stream missed (it is joined after the backlog is read) and games the server does not run
(written by the command line) are caught by a cheap check of the newest checkpoint when
the stream is quiet and the game is not running here (while it runs, its steps come
from the stream). The status is checked whenever the stream has nothing more queued
(a run that reached a human's question ends just after its last update), and again soon
after the stream was last heard, then less and less often.

Messages: `frame` (id = the frame's number, so `Last-Event-ID` resumes), `ready` after the
backlog, `status` when it changes (on a seat's own page, the status of its turn carries
the question: `decision`, as the decision route gives it), `end` when the game is over.
"""

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from langgraph_sdk.schema import StreamPart

from autowerewolf.graph.state import events_of, game_of, records_of
from autowerewolf.rules.events import Event
from autowerewolf.rules.state import GameState
from autowerewolf.seeding import is_server_game
from autowerewolf.web import server_games
from autowerewolf.web.frames import GOD, PUBLIC, Framer
from autowerewolf.web.humans import AnswerBox, question_of
from autowerewolf.web.reader import GameReader, Step

log = logging.getLogger(__name__)
QUIET_S = 1.0  # the longest the stream may be silent before the database is checked
SOON_S = 0.02  # the first check after the stream was heard; doubled up to QUIET_S


async def _pump(game_id: str, queue: asyncio.Queue[StreamPart]) -> None:
    try:
        stream = await server_games.client().threads.join_stream(game_id)
        async for part in stream:
            await queue.put(part)
    except Exception:  # the quiet-time checks carry on without the stream
        log.warning("the live stream of game %s failed", game_id, exc_info=True)


def _step_of(part: StreamPart) -> Step | None:
    if part.event != "updates" or not isinstance(part.data, dict):
        return None
    for update in part.data.values():
        if isinstance(update, dict) and "game" in update:
            return Step(
                game=game_of(update),
                events=tuple(events_of(update)),
                records=tuple(records_of(update)),
                saved_at=None,
            )
    return None


class Status:
    """The game's status as this audience may know it. Who a game waits for is the
    owner's and the asked seat's business: that a human is asked at night tells which
    seats hold night roles."""

    def __init__(self, reader: GameReader, box: AnswerBox, game_id: str, audience: str):
        self.reader, self.box, self.game_id, self.audience = reader, box, game_id, audience
        self.running = False  # a run of this server plays the game, as of the last check
        self.pending: dict[str, Any] | None = None  # the question of the last turn found

    async def now(self, over: bool) -> dict[str, Any]:
        self.running = False
        if over:
            return {"status": "finished"}
        if not is_server_game(self.game_id):
            return {"status": "stopped"}  # a command-line game: this server does not run it
        thread = await server_games.thread_of(self.game_id)
        if thread is None:
            return {"status": "stopped"}
        raw = str(thread["status"])
        self.running = raw == "busy"
        status = {"busy": "running", "interrupted": "waiting", "idle": "stopped"}.get(raw, raw)
        pending = server_games.interrupt_of(thread)
        asked = list(pending["value"]["seats"]) if pending else []
        if self.audience == GOD:
            return {"status": status, "waiting_for": asked}
        if status == "waiting":
            status = "running"
        if self.audience == PUBLIC:
            return {"status": status}
        waiting = pending is not None and self.audience in asked
        if (
            waiting
            and pending is not None
            and not self.box.answered(self.game_id, pending["id"], self.audience)
        ):
            # The interrupt's id: a new question, or the same one asked again after an error.
            self.pending = pending
            return {"status": status, "turn": pending["id"]}
        return {"status": status, "turn": None}

    async def told(
        self, current: dict[str, Any], known: tuple[GameState, list[Event]] | None
    ) -> dict[str, Any]:
        """The status as sent to the seat's own page: a turn carries its question, which
        the page shows at once (a request for it would cost a round trip per question),
        made from the game the stream holds (`known`) when that game poses it. A GET
        changes nothing: the seat's answer time starts with the page's POST of
        /decision (docs/security.md), which the page sends beside showing it."""
        if not current.get("turn") or self.pending is None:
            return current
        asked = await question_of(
            self.reader, self.box, self.game_id, self.pending, self.audience, False, known
        )
        return {**current, "decision": asked}


async def live_messages(
    reader: GameReader,
    box: AnswerBox,
    game_id: str,
    audience: str,
    after: int,
    seat_page: bool = False,
) -> AsyncIterator[dict[str, str]]:
    """The SSE messages for one audience, skipping frames up to number `after`; with
    `seat_page` (the seat's own link asks), each of its turns comes with its question."""
    queue: asyncio.Queue[StreamPart] = asyncio.Queue()
    pump = None
    if is_server_game(game_id):
        pump = asyncio.create_task(_pump(game_id, queue))
    framer, status = Framer(audience), Status(reader, box, game_id, audience)
    sent, last_ply, over, last_status = -1, -1, False, None
    quiet = SOON_S
    head = await asyncio.to_thread(reader.head, game_id)

    # The game as of the newest step sent, with every event so far: what a seat's question
    # is made from, without reading the saved game again.
    game: GameState | None = None
    events: list[Event] = []

    def emit(steps: list[Step]) -> list[dict[str, str]]:
        nonlocal sent, last_ply, over, game
        messages = []
        for step in steps:
            if step.game.ply <= last_ply:
                continue  # already sent from the backlog
            last_ply, over, game = step.game.ply, step.game.is_over, step.game
            events.extend(step.events)
            frame = framer.frame(step)
            if frame is None:
                continue
            sent += 1
            if sent > after:
                messages.append({"event": "frame", "id": str(sent), "data": json.dumps(frame)})
        return messages

    try:
        for message in emit(await asyncio.to_thread(reader.steps, game_id)):
            yield message
        yield {"event": "ready", "data": "{}"}
        while True:
            # A burst of updates is framed before the status is asked again: the status
            # read is a request into the server, and the run's end follows its last update.
            if over or queue.empty():
                current = await status.now(over)
                if current != last_status:
                    last_status = current
                    known = (game, events) if game is not None else None
                    told = await status.told(current, known) if seat_page else current
                    yield {"event": "status", "data": json.dumps(told)}
            if over:
                yield {"event": "end", "data": "{}"}
                return
            part = None
            with contextlib.suppress(TimeoutError):
                part = await asyncio.wait_for(queue.get(), quiet)
            quiet = SOON_S if part is not None else min(2 * quiet, QUIET_S)
            step = _step_of(part) if part is not None else None
            if step is not None and step.game.ply <= last_ply + 1:
                new_steps = [step]
            elif step is None and status.running and pump is not None and not pump.done():
                # The run's steps are on their way in the stream, behind the database: a
                # read now would read the whole game again, competing with the run.
                continue
            else:  # quiet, a gap, an interrupt or the end of a run: read what is saved
                latest = await asyncio.to_thread(reader.head, game_id)
                if latest == head and step is None:
                    continue
                if step is None:
                    # Read every saved step (a read that grows with the game, and delays the
                    # next question's status) only if the stream missed one.
                    saved = await asyncio.to_thread(reader.latest, game_id)
                    if saved is not None and saved.ply == last_ply:
                        head = latest
                        continue
                head = latest
                new_steps = await asyncio.to_thread(reader.steps, game_id)
            for message in emit(new_steps):
                yield message
    finally:
        if pump is not None:
            pump.cancel()
