"""Asking the seats of one decision in the graph. Nodes ask; players decide.

How a seat's request is built and its answer applied is `players/asker.py`, shared with
every table played without the graph; here are only what the graph adds: live players
from the runtime context, and human seats asked with one LangGraph interrupt for all of
them.
"""

from collections.abc import Mapping
from typing import Any

from langgraph.types import interrupt

from autowerewolf.graph.context import GameContext
from autowerewolf.players.asker import (
    Asking,
    Moment,
    PlayerOf,
    adecide_each,
    asking,
    human_answer,
)
from autowerewolf.players.base import Answer, DecisionRequest
from autowerewolf.players.records import DecisionRecord
from autowerewolf.prompts.question import attacked_seat, decision_instruction, prompt_key
from autowerewolf.prompts.render import lines
from autowerewolf.rules.decisions import Action, PendingDecision
from autowerewolf.rules.steps import takes_text

HUMAN_TRANSCRIPT_LINES = 40


def players_of(context: GameContext, moment: Moment) -> PlayerOf:
    """The live player of a request's seat in this game (built once per run)."""
    return lambda request: context.player(moment.game_id, moment.seating, request.view)


def _answered(
    seats: Asking, deadline_s: float | None
) -> tuple[dict[str, Action], list[DecisionRecord]]:
    if seats.humans:
        seats.answers.update(ask_humans(seats.human_requests(), deadline_s))
    return seats.result()


async def ask(
    context: GameContext, moment: Moment, decision: PendingDecision
) -> tuple[dict[str, Action], list[DecisionRecord]]:
    """Every asked seat's answer, and the records to keep (in seat order): automatic seats
    asked at once, then the humans with one interrupt."""
    seats = asking(moment, decision)
    requests = seats.machine_requests()
    seats.answers.update(await adecide_each(players_of(context, moment), requests))
    return _answered(seats, moment.seating.human_deadline_s)


# --- human seats ------------------------------------------------------------------------


def human_prompt(request: DecisionRequest) -> dict[str, Any]:
    """What a human seat is shown: its own view only, the question in words and the shape
    its answer takes (an option, or an option with the speech or message it carries)."""
    view = request.view
    text = takes_text(request.step)
    return {
        "seat": view.seat,
        "name": view.name,
        "role": view.role.value,
        "teammates": list(view.teammates),
        "question": decision_instruction(
            prompt_key(request.step), view.day, attacked_seat(view), view.rules, person=True
        ),
        "options": list(view.options),
        "text": text,
        "answer": '{"option": OPTION, "text": "..."}' if text else "OPTION",
        "transcript": lines(view.events, view.seat)[-HUMAN_TRANSCRIPT_LINES:],
    }


def ask_humans(
    requests: Mapping[str, DecisionRequest], deadline_s: float | None = None
) -> dict[str, Answer]:
    """One interrupt for all human seats of a decision; asks again, with the errors, if needed.
    `deadline_s`: each seat's time to answer, which whoever serves the question keeps."""
    first = next(iter(requests.values()))
    payload: dict[str, Any] = {
        "key": first.key,
        "step": first.step,
        "seats": {s: human_prompt(r) for s, r in requests.items()},
    }
    if deadline_s is not None:
        payload["deadline_s"] = deadline_s
    while True:
        reply = interrupt(payload)
        errors: dict[str, str] = {}
        answers: dict[str, Answer] = {}
        for seat, request in requests.items():
            raw = reply.get(seat) if isinstance(reply, dict) else None
            try:
                answers[seat] = human_answer(request, raw)
            except ValueError as err:
                errors[seat] = str(err)
        if not errors:
            return answers
        payload = {**payload, "errors": errors}
