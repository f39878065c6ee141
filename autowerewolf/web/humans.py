"""Human seats over the web: the decision a seat is asked, and collecting the answers of
every human seat of one decision before resuming the game once.

A game asks all its human seats of a decision with one interrupt, and a resume must carry
all their answers: two seats resuming on their own would each resume with only their own
answer (the second is refused or lost under every LangGraph multitask strategy). So the
answers wait here, keyed by the interrupt, until the last asked seat has answered. They
are kept in memory: after a server restart the decision is still pending and the seats
answer again.

A question asked with a deadline (`Seating.human_deadline_s`, the interrupt's `deadline_s`)
counts from when the server first sees it waiting, whether or not the seat's page is open:
`expire_overdue` answers for every seat still silent at its end, with the seat's seeded
fallback, recorded as a timeout (players/asker.py `human_answer`).
"""

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from starlette.exceptions import HTTPException

from autowerewolf.prompts.choices import option_help, option_labels
from autowerewolf.prompts.question import attacked_seat, decision_instruction, prompt_key
from autowerewolf.rules.decisions import MAX_TEXT_CHARS, Option
from autowerewolf.rules.events import Event
from autowerewolf.rules.state import GameState
from autowerewolf.rules.steps import takes_text
from autowerewolf.rules.views import seat_view
from autowerewolf.web import server_games
from autowerewolf.web.reader import GameReader


@dataclass
class _Collected:
    interrupt_id: str
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)


class AnswerBox:
    def __init__(self) -> None:
        self._locks: dict[str, asyncio.Lock] = {}
        self._collected: dict[str, _Collected] = {}
        self._shown: dict[tuple[str, str, str], float] = {}  # when a seat first saw a question
        self._asked: dict[tuple[str, str], float] = {}  # when a deadline's clock started

    def shown(self, game_id: str, interrupt_id: str, seat: str) -> None:
        """The seat's page has the question: its answer time counts from now."""
        self._shown.setdefault((game_id, interrupt_id, seat), time.monotonic())

    def answered(self, game_id: str, interrupt_id: str, seat: str) -> bool:
        collected = self._collected.get(game_id)
        if collected is None or collected.interrupt_id != interrupt_id:
            return False
        return seat in collected.answers

    async def answer(self, game_id: str, seat: str, body: object) -> dict[str, Any]:
        """Take one seat's answer; resume the game when every asked seat has answered."""
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            pending = await server_games.pending_interrupt(game_id)
            asked = pending["value"]["seats"] if pending else {}
            if pending is None or seat not in asked:
                raise HTTPException(409, "no decision is waiting for this seat")
            if answered_key(body) != pending["value"]["key"]:
                # A tab left open on an earlier question must not answer the next one.
                raise HTTPException(409, "this question has passed")
            answer = checked_answer(
                body, asked[seat]["options"], takes_text(pending["value"]["step"])
            )
            shown = self._shown.pop((game_id, pending["id"], seat), None)
            if shown is not None:
                answer["answer_s"] = round(time.monotonic() - shown, 3)
            resumed = await self._collect(game_id, pending, {seat: answer})
            return {"accepted": True, "resumed": resumed}

    async def _collect(
        self, game_id: str, pending: dict[str, Any], answers: dict[str, dict[str, Any]]
    ) -> bool:
        """Keep `answers` to the pending interrupt; resume once every asked seat answered."""
        collected = self._collected.get(game_id)
        if collected is None or collected.interrupt_id != pending["id"]:
            collected = self._collected[game_id] = _Collected(pending["id"])
        collected.answers.update(answers)
        if set(pending["value"]["seats"]) - set(collected.answers):
            return False
        await server_games.resume(game_id, collected.answers)
        del self._collected[game_id]
        self._asked.pop((game_id, pending["id"]), None)
        return True

    def time_left_s(self, game_id: str, pending: dict[str, Any]) -> float | None:
        """Seconds left to answer the pending interrupt (all of them until the deadline
        check starts its clock); None without a deadline. Reading it changes nothing."""
        deadline_s = pending["value"].get("deadline_s")
        if not isinstance(deadline_s, int | float):
            return None
        started = self._asked.get((game_id, pending["id"]))
        if started is None:
            return float(deadline_s)
        return max(0.0, deadline_s - (time.monotonic() - started))

    async def expire_overdue(self, waiting: dict[str, dict[str, Any]]) -> list[str]:
        """Answer, for every seat still silent, the questions of `waiting` (a game's pending
        interrupt by game id) whose deadline has passed; the games resumed."""
        resumed = []
        for game_id, pending in waiting.items():
            deadline_s = pending["value"].get("deadline_s")
            if isinstance(pending["value"].get("deadline_s"), int | float):
                self._asked.setdefault((game_id, pending["id"]), time.monotonic())
            left = self.time_left_s(game_id, pending)
            if left is None or left > 0:
                continue
            async with self._locks.setdefault(game_id, asyncio.Lock()):
                if await server_games.pending_interrupt(game_id) != pending:
                    continue  # answered or moved on meanwhile
                collected = self._collected.get(game_id)
                done = (
                    collected.answers
                    if collected and collected.interrupt_id == pending["id"]
                    else {}
                )
                late = {"timed_out": True, "answer_s": float(deadline_s)}
                silent = {s: dict(late) for s in pending["value"]["seats"] if s not in done}
                if await self._collect(game_id, pending, silent):
                    resumed.append(game_id)
        return resumed


async def question_of(
    reader: GameReader,
    box: AnswerBox,
    game_id: str,
    pending: dict[str, Any],
    seat: str,
    shown: bool = True,
    known: tuple[GameState, list[Event]] | None = None,
) -> dict[str, Any] | None:
    """The question `pending` asks `seat`, as its page shows it (None if it asks nothing),
    with the answer time left; if `shown`, the seat's answer time counts from now.
    `known`: the game and its events as the caller holds them (the live stream's newest
    step), used if they pose this very question; else the saved game is read."""
    if shown:
        box.shown(game_id, pending["id"], seat)
    error = (pending["value"].get("errors") or {}).get(seat)
    asked = decision_json(*known, seat, error) if known is not None else None
    if asked is None or asked["key"] != pending["value"]["key"]:
        record = await asyncio.to_thread(reader.load, game_id)
        asked = decision_json(record.game, record.events, seat, error)
    if asked is not None:  # the answer time left, for the question card's clock
        asked["time_left_s"] = box.time_left_s(game_id, pending)
    return asked


def answered_key(body: object) -> str:
    """The decision key an answer names; a 400 if it names none."""
    key = body.get("key") if isinstance(body, dict) else None
    if not isinstance(key, str) or not key:
        raise HTTPException(400, 'an answer names its question: {"key": ..., "option": ...}')
    return key


def checked_answer(
    body: object, options: list[str], text_kind: str | None = None
) -> dict[str, Any]:
    """`{"option", "text"}` if legal; else a 400 naming the problem. (The game checks the
    answer again and asks anew with the error if the rules refuse it.)"""
    if not isinstance(body, dict) or not isinstance(body.get("option"), str):
        raise HTTPException(400, 'an answer is {"option": ..., "text": ...}')
    option, text = body["option"].strip(), body.get("text") or ""
    if not isinstance(text, str):
        raise HTTPException(400, "text must be a string")
    if option not in options:
        raise HTTPException(400, f"{option!r} is not legal; choose one of {', '.join(options)}")
    if len(text) > MAX_TEXT_CHARS:
        raise HTTPException(400, f"text is {len(text)} characters long; at most {MAX_TEXT_CHARS}")
    if text_kind == "speech" and option == Option.SPEAK and not text.strip():
        raise HTTPException(400, "a speech cannot be empty: write what you say")
    return {"option": option, "text": text}


def decision_json(
    game: GameState, events: list[Event], seat: str, error: str | None
) -> dict[str, Any] | None:
    """What the seat is asked now, from its own view: the question as a model would read
    it, its legal options with names, whether it takes a speech or a message."""
    view = seat_view(game, events, seat)
    if not view.options or view.step is None:
        return None
    labels = option_labels(view)
    return {
        "key": view.decision_key,
        "step": view.step,
        "question": decision_instruction(
            prompt_key(view.step), view.day, attacked_seat(view), view.rules, person=True
        ),
        "options": [
            {"option": o, "label": labels.get(o, ""), "help": option_help(view.step, o)}
            for o in view.options
        ],
        "text": takes_text(view.step),
        "max_text": MAX_TEXT_CHARS,
        "error": error,
    }
