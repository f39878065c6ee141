"""Asking the seats of one decision. Nodes ask; players decide.

For each seat the rules name, the node builds a request from that seat's view alone, with
its own derived seed and its own earlier records. A fork's forced answers come first;
automatic players are asked concurrently; human seats are asked with one LangGraph
interrupt for all of them. Free text is bounded for every kind of player, and every
answer is recorded. `ask` (threads) and `aask` (the asynchronous runner's tasks) share all
of this and differ only in how they wait for the players.
"""

import asyncio
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from langgraph.types import interrupt

from autowerewolf.graph.context import GameContext
from autowerewolf.players.base import Answer, DecisionRequest, Player, decide_async, plain_record
from autowerewolf.players.records import DecisionRecord, Purpose
from autowerewolf.players.seating import Seating
from autowerewolf.players.simple import scripted_action
from autowerewolf.prompts.render import lines
from autowerewolf.rules.decisions import MAX_TEXT_CHARS, Action, PendingDecision
from autowerewolf.rules.events import Event
from autowerewolf.rules.rng import seat_seed
from autowerewolf.rules.state import GameState
from autowerewolf.rules.views import PlayerInfo, public_players, seat_view

HUMAN_TRANSCRIPT_LINES = 40


@dataclass(frozen=True)
class Table:
    """One game at the moment of one decision, as the node sees it."""

    game_id: str
    game: GameState
    events: Sequence[Event]
    records: Sequence[DecisionRecord]
    seating: Seating

    @property
    def player_root(self) -> int:
        return self.game.config.player_root(self.seating.player_seed)

    @cached_property
    def players(self) -> tuple[PlayerInfo, ...]:
        """The public facts of every seat: the same in each asked seat's view."""
        return public_players(self.game)

    def request(
        self, seat: str, decision: PendingDecision, purpose: Purpose = "decision"
    ) -> DecisionRequest:
        """The seat's question. Its history leaves out probe answers: a probe must never
        change how a seat plays (docs/evaluation.md, "Probes")."""
        return DecisionRequest(
            view=seat_view(self.game, self.events, seat, decision, self.players),
            seed=seat_seed(self.player_root, seat),
            history=tuple(r for r in self.records if r.seat == seat and r.purpose != "probe"),
            purpose=purpose,
        )


def bounded(answer: Answer) -> Answer:
    """Cut a text past the rules' bound, and say so in the record."""
    text = answer.action.text
    if len(text) <= MAX_TEXT_CHARS:
        return answer
    note = f"text cut from {len(text)} to {MAX_TEXT_CHARS} characters"
    action = answer.action.model_copy(update={"text": text[:MAX_TEXT_CHARS]})
    error = "; ".join(e for e in (answer.record.error, note) if e)
    record = answer.record.model_copy(update={"text": action.text, "error": error})
    return Answer(action=action, record=record, notes=answer.notes)


def forced_answers(seating: Seating, requests: Mapping[str, DecisionRequest]) -> dict[str, Answer]:
    """Answers fixed by a fork's `--set`: they replace whatever the seat would have chosen."""
    answers = {}
    for seat, request in requests.items():
        action = scripted_action(seating.overrides, request.key, seat, request.options)
        if action is not None:
            answers[seat] = Answer(action, plain_record(request, "override", action))
    return answers


@dataclass
class Asking:
    """One decision's seats, split by how they answer; `answers` fills in as they do."""

    requests: dict[str, DecisionRequest]
    answers: dict[str, Answer]
    machines: list[str]  # asked concurrently (threads, or tasks in the asynchronous runner)
    humans: list[str]  # asked with one interrupt

    def machine_requests(self) -> dict[str, DecisionRequest]:
        return {s: self.requests[s] for s in self.machines}


def asking(table: Table, decision: PendingDecision) -> Asking:
    requests = {seat: table.request(seat, decision) for seat in decision.options}
    answers = forced_answers(table.seating, requests)
    humans = [s for s in requests if s not in answers and table.seating.kind_of(s) == "human"]
    machines = [s for s in requests if s not in answers and s not in humans]
    return Asking(requests, answers, machines, humans)


def answered(seats: Asking) -> tuple[dict[str, Action], list[DecisionRecord]]:
    """Every asked seat's answer (the humans asked now), and the records in seat order."""
    if seats.humans:
        seats.answers.update(ask_humans({s: seats.requests[s] for s in seats.humans}))
    ordered = {s: bounded(seats.answers[s]) for s in sorted(seats.answers)}
    records = [r for a in ordered.values() for r in (a.record, *a.notes)]
    return {s: a.action for s, a in ordered.items()}, records


def _player(context: GameContext, table: Table, request: DecisionRequest) -> Player:
    return context.player(table.game_id, table.seating, request.view)


def decide_each(
    context: GameContext, table: Table, requests: Mapping[str, DecisionRequest]
) -> dict[str, Answer]:
    """Each automatic seat's answer to its request, asked concurrently (threads)."""

    def decide(seat: str) -> Answer:
        return _player(context, table, requests[seat]).decide(requests[seat])

    seats = list(requests)
    if len(seats) > 1:
        with ThreadPoolExecutor(max_workers=len(seats)) as pool:
            return dict(zip(seats, pool.map(decide, seats), strict=True))
    return {s: decide(s) for s in seats}


async def adecide_each(
    context: GameContext, table: Table, requests: Mapping[str, DecisionRequest]
) -> dict[str, Answer]:
    """`decide_each` for the asynchronous runner: awaited concurrently, no threads."""
    seats = list(requests)
    decided = await asyncio.gather(
        *(decide_async(_player(context, table, requests[s]), requests[s]) for s in seats)
    )
    return dict(zip(seats, decided, strict=True))


def ask(
    context: GameContext, table: Table, decision: PendingDecision
) -> tuple[dict[str, Action], list[DecisionRecord]]:
    """Every asked seat's answer, and the records to keep (in seat order)."""
    seats = asking(table, decision)
    seats.answers.update(decide_each(context, table, seats.machine_requests()))
    return answered(seats)


async def aask(
    context: GameContext, table: Table, decision: PendingDecision
) -> tuple[dict[str, Action], list[DecisionRecord]]:
    """`ask` for the asynchronous runner."""
    seats = asking(table, decision)
    seats.answers.update(await adecide_each(context, table, seats.machine_requests()))
    return answered(seats)


# --- human seats ------------------------------------------------------------------------


def human_prompt(request: DecisionRequest) -> dict[str, Any]:
    """What a human seat is shown: its own view only."""
    view = request.view
    return {
        "seat": view.seat,
        "name": view.name,
        "role": view.role.value,
        "teammates": list(view.teammates),
        "options": list(view.options),
        "transcript": lines(view.events, view.seat)[-HUMAN_TRANSCRIPT_LINES:],
    }


def parse_human_answer(request: DecisionRequest, raw: object) -> Action:
    """Accepts "P05" or {"option": "speak", "text": "..."}; raises ValueError with the reason."""
    if isinstance(raw, str):
        raw = {"option": raw}
    if not isinstance(raw, dict) or not isinstance(raw.get("option"), str):
        raise ValueError("answer must be an option string or {'option': ..., 'text': ...}")
    option, text = raw["option"].strip(), raw.get("text") or ""
    if not isinstance(text, str):
        raise ValueError("'text' must be a string")
    if option not in request.options:
        raise ValueError(f"{option!r} is not legal; choose one of {', '.join(request.options)}")
    if len(text) > MAX_TEXT_CHARS:
        raise ValueError(f"text is {len(text)} characters long; at most {MAX_TEXT_CHARS}")
    return Action(option=option, text=text)


def ask_humans(requests: Mapping[str, DecisionRequest]) -> dict[str, Answer]:
    """One interrupt for all human seats of a decision; asks again, with the errors, if needed."""
    first = next(iter(requests.values()))
    payload: dict[str, Any] = {
        "key": first.key,
        "step": first.step,
        "seats": {s: human_prompt(r) for s, r in requests.items()},
    }
    while True:
        reply = interrupt(payload)
        errors: dict[str, str] = {}
        answers: dict[str, Answer] = {}
        for seat, request in requests.items():
            raw = reply.get(seat) if isinstance(reply, dict) else None
            try:
                action = parse_human_answer(request, raw)
            except ValueError as err:
                errors[seat] = str(err)
                continue
            record = plain_record(request, "human", action)
            answered_in = raw.get("answer_s") if isinstance(raw, dict) else None
            if isinstance(answered_in, int | float) and 0 <= answered_in < 10**6:
                record = record.model_copy(update={"latency_s": float(answered_in)})
            answers[seat] = Answer(action, record)
        if not errors:
            return answers
        payload = {**payload, "errors": errors}
