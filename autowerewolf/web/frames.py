"""What one audience may see of a game, as JSON for the browser.

An audience is `public`, one seat (`P03`) or `god` (everything: the owner only). Seat
payloads are built from the rules' own view (`rules.views.seat_view`), public ones from
public players and public events only; every line of text comes from the one event
renderer (`prompts.render.describe`), with the seat as reader.

A game is sent as *frames*: one per step that shows this audience something new. Steps
that show it nothing are left out, and nothing is numbered across audiences (no step
counter, no event index, no record index), so a seat cannot count the night's hidden
actions from gaps.
"""

from collections.abc import Iterable, Sequence
from typing import Any

from autowerewolf.players.records import DecisionRecord
from autowerewolf.prompts.render import describe
from autowerewolf.rules.events import Event, EventKind
from autowerewolf.rules.roles import Role
from autowerewolf.rules.state import GameState
from autowerewolf.rules.views import (
    SeatView,
    ending_reveal,
    public_events,
    public_players,
    seat_view,
)
from autowerewolf.web.reader import Step
from autowerewolf.web.standing import death_notice, ending_words

GOD = "god"
PUBLIC = "public"


def is_seat(audience: str) -> bool:
    return audience not in (GOD, PUBLIC)


def reader_of(audience: str) -> str | None:
    """Who reads the text: a seat reads "you" in its own private events."""
    return audience if is_seat(audience) else None


def visible_events(state: GameState, events: Iterable[Event], audience: str) -> tuple[Event, ...]:
    if audience == GOD:
        return tuple(events)
    if audience == PUBLIC:
        return public_events(events)
    return seat_view(state, events, audience).events


def visible_records(records: Iterable[DecisionRecord], audience: str) -> tuple[DecisionRecord, ...]:
    """Decision records: all for god, a seat's own for that seat, none for the public
    (a record's prompt holds the seat's private view)."""
    if audience == GOD:
        return tuple(records)
    if audience == PUBLIC:
        return ()
    return tuple(r for r in records if r.seat == audience)


def event_json(event: Event, reader: str | None) -> dict[str, Any]:
    """Structured fields for tables (votes), and the rendered line for the transcript.
    The step an event happened in is left out: it would tell a seat which night role
    acted."""
    return {
        "kind": event.kind.value,
        "day": event.day,
        "audience": event.audience.value,
        "actor": event.actor,
        "target": event.target,
        "targets": list(event.targets),
        "value": event.value,
        "round": event.round,
        "weight": event.weight,
        "line": describe(event, reader),
    }


def players_json(state: GameState, audience: str) -> list[dict[str, Any]]:
    if audience == GOD:
        return [
            {
                "seat": s.id,
                "name": s.name,
                "alive": s.alive,
                "sheriff": s.id == state.sheriff,
                "role": s.role.value,
                "revealed_role": s.role.value if s.revealed else None,
            }
            for s in state.seats
        ]
    if audience == PUBLIC:
        players = [p.model_dump(mode="json") for p in public_players(state)]
    else:
        view = seat_view(state, (), audience)
        players = []
        for p in view.players:
            entry = p.model_dump(mode="json")
            if p.seat == view.seat:
                entry["role"] = view.role.value
            entry["teammate"] = p.seat in view.teammates
            players.append(entry)
    if state.is_over:  # the moderator reveals the deal to everyone (rules.views.ending_reveal)
        for entry, seat in zip(players, state.seats, strict=True):
            entry["role"] = seat.role.value
    return players


def record_summary(record: DecisionRecord, ref: int) -> dict[str, Any]:
    """A decision at a glance; `ref` is its number in this audience's own record list."""
    return {
        "ref": ref,
        "seat": record.seat,
        "player": record.player,
        "purpose": record.purpose,
        "model": record.model,
        "day": record.day,
        "step": record.step,
        "key": record.key,
        "option": record.option,
        "valid": record.valid,
        "fallback": record.fallback,
        "tokens_in": record.tokens_in,
        "tokens_out": record.tokens_out,
        "latency_s": round(record.latency_s, 3),
        "has_prompt": record.prompt is not None,
    }


def record_detail(record: DecisionRecord, ref: int, audience: str) -> dict[str, Any]:
    """The drill-down: prompt and parsed choice; the reasoning, the structured output and
    the raw answer (which carries the reasoning) are private: god view only."""
    detail = record_summary(record, ref)
    detail.update(
        options=list(record.options),
        text=record.text,
        prompt=record.prompt,
        prompt_chars=record.prompt_chars,
        retries=record.retries,
        error=record.error,
        cached_tokens=record.cached_tokens,
    )
    if audience == GOD:
        detail.update(raw=record.raw, reasoning=record.reasoning, data=record.data)
    return detail


def header_json(state: GameState, audience: str) -> dict[str, Any]:
    header: dict[str, Any] = {
        "day": state.day,
        "over": state.is_over,
        "winner": state.winner.value if state.winner else None,
        "win_reason": state.win_reason,
        "ending": ending_words(state.winner.value if state.winner else None, state.win_reason)
        if state.is_over
        else None,
    }
    if audience == GOD:
        header["ply"] = state.ply
    return header


class Framer:
    """Turns steps into one audience's frames, in order. It numbers the audience's own
    records as it goes, and sends the players only when they changed (a replay is then a
    third of the size)."""

    def __init__(self, audience: str) -> None:
        self.audience = audience
        self.records_seen = 0
        self.players: list[dict[str, Any]] | None = None
        self.events: list[Event] = []  # the whole game so far: the end reveals from it

    def frame(self, step: Step) -> dict[str, Any] | None:
        """The frame of one step, or None when it shows this audience nothing."""
        self.events += step.events
        events = visible_events(step.game, step.events, self.audience)
        records = visible_records(step.records, self.audience)
        if not events and not records:
            return None
        reader = reader_of(self.audience)
        first = self.records_seen
        self.records_seen += len(records)
        frame = {
            **header_json(step.game, self.audience),
            "events": [event_json(e, reader) for e in events],
            "records": [record_summary(r, first + i) for i, r in enumerate(records)],
        }
        players = players_json(step.game, self.audience)
        if players != self.players:
            frame["players"] = self.players = players
        if step.game.is_over and self.audience != GOD:
            seat = self.audience if is_seat(self.audience) else None
            revealed = ending_reveal(step.game, self.events, seat)
            frame["reveal"] = [event_json(e, None) for e in revealed]
        return frame


def frames(steps: Iterable[Step], audience: str) -> list[dict[str, Any]]:
    framer = Framer(audience)
    return [f for f in map(framer.frame, steps) if f is not None]


def me_json(view: SeatView) -> dict[str, Any]:
    """A seat's own standing: its role and the private facts the rules give it."""
    return {
        "seat": view.seat,
        "name": view.name,
        "role": view.role.value,
        "camp": view.camp.value,
        "teammates": list(view.teammates),
        "cure_available": view.cure_available,
        "poison_available": view.poison_available,
        "last_guarded": view.last_guarded,
        **private_record(view),
        "death": death_notice(view),
    }


def private_record(view: SeatView) -> dict[str, Any]:
    """What the seat's powers told it so far, from its own events: the Seer's checks with
    their results, the wolves' victim as the Witch was told it, the Knight's duel."""
    checks = [
        {"night": e.day, "seat": e.target, "result": e.value}
        for e in view.events
        if e.kind is EventKind.SEER_RESULT and e.target and e.value
    ]
    told = [e for e in view.events if e.kind is EventKind.WITCH_INFO]
    dueled = any(e.kind is EventKind.DUEL and e.actor == view.seat for e in view.events)
    return {
        "checks": checks,
        "attacked": {"night": told[-1].day, "seat": told[-1].target} if told else None,
        "duel_used": dueled if view.role is Role.KNIGHT else None,
    }


def all_records(steps: Sequence[Step]) -> list[DecisionRecord]:
    return [r for step in steps for r in step.records]
