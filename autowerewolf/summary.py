"""A finished (or running) game as a compact, machine-readable result."""

from collections.abc import Sequence

from pydantic import BaseModel

from autowerewolf.players.records import DecisionRecord
from autowerewolf.rules.events import Event, EventKind
from autowerewolf.rules.state import GameState


class Death(BaseModel):
    seat: str
    role: str
    day: int
    phase: str
    cause: str


class SheriffChange(BaseModel):
    day: int
    change: str  # elected, passed, torn, lost, postponed
    seat: str | None
    by: str | None


class Ballot(BaseModel):
    day: int
    vote: str  # election or exile
    round: int
    voter: str
    target: str | None
    weight: float


class SeatTotals(BaseModel):
    decisions: int = 0
    fallbacks: int = 0
    retries: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cached_tokens: int = 0
    latency_s: float = 0.0
    # Measurement probes, counted apart: they are not part of how the seat played.
    probes: int = 0
    probe_tokens_in: int = 0
    probe_tokens_out: int = 0
    probe_latency_s: float = 0.0


class GameSummary(BaseModel):
    game_id: str
    board: str
    seed: int
    finished: bool
    winner: str | None
    win_reason: str | None
    days: int
    steps: int
    events: int
    roles: dict[str, str]
    deaths: list[Death]
    sheriff_history: list[SheriffChange]
    ballots: list[Ballot]
    seat_totals: dict[str, SeatTotals]


def seat_totals(records: Sequence[DecisionRecord]) -> dict[str, SeatTotals]:
    totals: dict[str, SeatTotals] = {}
    for r in records:
        t = totals.setdefault(r.seat, SeatTotals())
        if r.purpose == "probe":
            t.probes += 1
            t.probe_tokens_in += r.tokens_in or 0
            t.probe_tokens_out += r.tokens_out or 0
            t.probe_latency_s += r.latency_s
            continue
        t.decisions += 1
        t.fallbacks += int(r.fallback)
        t.retries += r.retries
        t.tokens_in += r.tokens_in or 0
        t.tokens_out += r.tokens_out or 0
        t.cached_tokens += r.cached_tokens or 0
        t.latency_s += r.latency_s
    return dict(sorted(totals.items()))


def summarize(
    game_id: str, game: GameState, events: Sequence[Event], records: Sequence[DecisionRecord]
) -> GameSummary:
    roles = {s.id: s.role.value for s in game.seats}
    return GameSummary(
        game_id=game_id,
        board=game.config.board,
        seed=game.config.seed,
        finished=game.is_over,
        winner=game.winner.value if game.winner else None,
        win_reason=game.win_reason,
        days=game.day,
        steps=game.ply,
        events=len(events),
        roles=roles,
        deaths=[
            Death(seat=e.target, role=roles[e.target], day=e.day, phase=e.phase, cause=e.value)
            for e in events
            if e.kind is EventKind.DEATH and e.target and e.value
        ],
        sheriff_history=[
            SheriffChange(day=e.day, change=e.value or "", seat=e.target, by=e.actor)
            for e in events
            if e.kind is EventKind.SHERIFF
        ],
        ballots=[
            Ballot(
                day=e.day,
                vote=e.value or "",
                round=e.round or 1,
                voter=e.actor,
                target=e.target,
                weight=e.weight or 1.0,
            )
            for e in events
            if e.kind is EventKind.BALLOT and e.actor
        ],
        seat_totals=seat_totals(records),
    )
