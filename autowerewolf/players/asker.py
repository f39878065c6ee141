"""Asking a table's seats one decision: the one way a seat's question is built and its answer
applied, for the graph's nodes and for everything that plays without the graph (the
training table, the preflight dry run, the conformance check, decision positions).

For each seat the rules name, the request holds that seat's view alone, its own derived
seed and its own earlier records. Answers are taken in one order: a fork's forced answer,
then the seat's player (a scripted seat's player reads its script). Free text past the
rules' bound is cut and the cut recorded, whoever answered. Human answers are read here
too; only how they are waited for (a LangGraph interrupt) is the graph's.
"""

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from autowerewolf.players.base import Answer, DecisionRequest, Player, decide_async, plain_record
from autowerewolf.players.records import DecisionRecord, Purpose
from autowerewolf.players.seating import Seating
from autowerewolf.players.simple import random_answer, scripted_action
from autowerewolf.rules.decisions import MAX_TEXT_CHARS, Action, PendingDecision
from autowerewolf.rules.engine import Answerer
from autowerewolf.rules.events import Event
from autowerewolf.rules.rng import seat_seed
from autowerewolf.rules.state import GameState
from autowerewolf.rules.views import PlayerInfo, public_players, seat_view

# The live player that answers a request (built once per seat by its owner).
PlayerOf = Callable[[DecisionRequest], Player]


@dataclass(frozen=True)
class Moment:
    """One game at the moment of one decision."""

    game_id: str
    game: GameState
    events: Sequence[Event]
    records: Sequence[DecisionRecord]
    seating: Seating

    @property
    def player_root(self) -> int:
        return self.game.config.player_root(self.seating.player_seed)

    def seed_of(self, seat: str) -> int:
        return seat_seed(self.player_root, seat)

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
            seed=self.seed_of(seat),
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
    machines: list[str]  # asked concurrently
    humans: list[str]  # asked by the caller (the graph: one interrupt)

    def machine_requests(self) -> dict[str, DecisionRequest]:
        return {s: self.requests[s] for s in self.machines}

    def human_requests(self) -> dict[str, DecisionRequest]:
        return {s: self.requests[s] for s in self.humans}

    def result(self) -> tuple[dict[str, Action], list[DecisionRecord]]:
        """Every seat's answer, bounded, and the records to keep, in seat order."""
        ordered = {s: bounded(self.answers[s]) for s in sorted(self.answers)}
        records = [r for a in ordered.values() for r in (a.record, *a.notes)]
        return {s: a.action for s, a in ordered.items()}, records


def asking(moment: Moment, decision: PendingDecision) -> Asking:
    requests = {seat: moment.request(seat, decision) for seat in decision.options}
    answers = forced_answers(moment.seating, requests)
    humans = [s for s in requests if s not in answers and moment.seating.kind_of(s) == "human"]
    machines = [s for s in requests if s not in answers and s not in humans]
    return Asking(requests, answers, machines, humans)


async def adecide_each(
    player_of: PlayerOf, requests: Mapping[str, DecisionRequest]
) -> dict[str, Answer]:
    """Each automatic seat's answer to its request, awaited concurrently (synchronous
    players on worker threads)."""
    seats = list(requests)
    decided = await asyncio.gather(
        *(decide_async(player_of(requests[s]), requests[s]) for s in seats)
    )
    return dict(zip(seats, decided, strict=True))


def answering(
    player_of: PlayerOf, seating: Seating, records: list[DecisionRecord], game_id: str = ""
) -> Answerer:
    """The answers of a table without the graph, for `rules.engine.play_out`: each decision
    asked as the graph asks it (forced answers, then each seat's player), bounded, and its
    records appended to `records`. A human seat needs the graph to wait for it."""

    def answer(
        state: GameState, events: Sequence[Event], decision: PendingDecision
    ) -> dict[str, Action]:
        seats = asking(Moment(game_id, state, events, records, seating), decision)
        if seats.humans:
            raise ValueError(f"human seats need the graph to wait: {', '.join(seats.humans)}")
        for seat, request in seats.machine_requests().items():
            seats.answers[seat] = player_of(request).decide(request)
        actions, new = seats.result()
        records.extend(new)
        return actions

    return answer


# --- human answers ----------------------------------------------------------------------


def human_action(options: Sequence[str], raw: object) -> Action:
    """A human's answer, "P05" or {"option": "speak", "text": "..."}, checked against
    `options`; ValueError with the reason, in words a person reads."""
    if isinstance(raw, str):
        raw = {"option": raw}
    if not isinstance(raw, dict) or not isinstance(raw.get("option"), str):
        raise ValueError("answer must be an option string or {'option': ..., 'text': ...}")
    option, text = raw["option"].strip(), raw.get("text") or ""
    if not isinstance(text, str):
        raise ValueError("'text' must be a string")
    if option not in options:
        raise ValueError(f"{option!r} is not legal; choose one of {', '.join(options)}")
    if len(text) > MAX_TEXT_CHARS:
        raise ValueError(f"text is {len(text)} characters long; at most {MAX_TEXT_CHARS}")
    return Action(option=option, text=text)


def human_answer(request: DecisionRequest, raw: object) -> Answer:
    """A human seat's answer to `request`, recorded with the time it took if the client
    said (`answer_s`); ValueError as `human_action`. `{"timed_out": true}` (the seat's
    deadline passed, `answer_s` its length): the seat's seeded fallback, recorded so."""
    answered_in = raw.get("answer_s") if isinstance(raw, dict) else None
    took = float(answered_in) if isinstance(answered_in, int | float) else None
    took = took if took is not None and 0 <= took < 10**6 else None
    if isinstance(raw, dict) and raw.get("timed_out") is True:
        action = random_answer(request)
        error = f"no answer within {took:g} s" if took is not None else "no answer in time"
        record = plain_record(request, "human", action, valid=False, fallback=True,
                              timeouts=1, error=error, latency_s=took or 0.0)  # fmt: skip
        return Answer(action, record)
    action = human_action(request.options, raw)
    record = plain_record(request, "human", action)
    if took is not None:
        record = record.model_copy(update={"latency_s": took})
    return Answer(action, record)
