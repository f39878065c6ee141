"""One finished game as a compact result row: everything the report needs, nothing more.

A row is plain JSON (see `GameRow`) so that a report over thousands of games can stream
rows from SQLite instead of restoring each game's checkpoint. Facts come only from the
game's events (roles from DEAL, deaths from DEATH, ...) and its DecisionRecords.
"""

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import TypedDict

from autowerewolf.evaluation.config import Price
from autowerewolf.evaluation.debate import DebateRow, debate_row
from autowerewolf.evaluation.designs import design_columns
from autowerewolf.evaluation.roles import roles_of
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import Seating
from autowerewolf.rules.events import Event, EventKind
from autowerewolf.rules.roles import Role

# 3: probe calls counted apart and the debate measurements of games played with probes;
# model, agent design, blunders and Est per seat; notes are not counted as decisions.
ROW_VERSION = 3


class SeatRow(TypedDict):
    contestant: str
    kind: str
    role: str
    camp: str
    alive: bool
    decisions: int
    fallbacks: int
    invalid: int
    tokens_in: int
    tokens_out: int
    latency_s: float
    cost_usd: float
    unpriced: bool  # tokens were spent by a model missing from the price table
    exile_ballots: int  # cast while in the good camp, all rounds (IRP denominator)
    wolf_ballots: int  # ... of which aimed at a wolf (IRP numerator)
    vss_ballots: int  # good-camp ballots in the round that exiled a wolf
    vss_hits: int  # ... of which aimed at that wolf
    kpi_num: int  # role KPI numerator and denominator (see role_kpi)
    kpi_den: int
    probe_calls: int  # measurement probes answered: not part of how the seat played
    probe_tokens_in: int
    probe_tokens_out: int
    probe_cost_usd: float
    model: str | None  # the model and agent design that answered (LLM seats)
    agent: str | None
    blunders: dict[str, list[int]]  # metric -> [blunders, opportunities] (blunders.py)
    est: list[float]  # Strategy Adaptation's Est of this seat: [sum over rounds, rounds]


class GameRow(TypedDict):
    v: int
    game_id: str
    board: str
    seed: int | None
    winner: str | None  # good, wolf, or None for a draw
    days: int
    exiles: int  # days whose vote removed someone (an Idiot's flip counts)
    wolf_exiles: int
    seats: dict[str, SeatRow]
    debate: DebateRow | None  # what the game's probes measured (None: played without)


def _label(
    seat: str, seating: Seating, models: Mapping[str, str | None], agents: Mapping[str, str]
) -> str:
    """The contestant of a seat; games played outside a tournament get their player kind
    (with the model and the agent design that answered, if any)."""
    if seat in seating.contestants:
        return seating.contestants[seat]
    kind = seating.kind_of(seat)
    model = models.get(seat)
    label = f"llm:{model}" if kind == "llm" and model else kind
    return f"{label}/{agents[seat]}" if seat in agents else label


def _cost(record: DecisionRecord, prices: Mapping[str, Price]) -> tuple[float, bool]:
    tokens = (record.tokens_in or 0) + (record.tokens_out or 0)
    price = prices.get(record.model or "")
    if price is None:
        return 0.0, tokens > 0
    cached = record.cached_tokens or 0
    fresh = (record.tokens_in or 0) - cached
    cached_price = price.input if price.cached is None else price.cached
    usd = fresh * price.input + cached * cached_price + (record.tokens_out or 0) * price.output
    return usd / 1e6, False


def _ballots(
    events: Sequence[Event], roles: Mapping[str, Role]
) -> tuple[dict[str, list[int]], int, int]:
    """Per seat [good ballots, at wolves, VSS ballots, VSS hits]; exiles; wolf exiles."""
    rounds: dict[tuple[int, int], list[Event]] = defaultdict(list)
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    exiles = wolf_exiles = 0
    for e in events:
        if e.kind is EventKind.BALLOT and e.value == "exile" and e.actor:
            rounds[(e.day, e.round or 1)].append(e)
            if roles[e.actor] is not Role.WEREWOLF:
                counts[e.actor][0] += 1
                counts[e.actor][1] += int(e.target is not None and roles[e.target] is Role.WEREWOLF)
        elif e.kind is EventKind.IDIOT_FLIP:
            exiles += 1
        elif e.kind is EventKind.EXILE and e.value == "exiled" and e.target:
            exiles += 1
            if roles[e.target] is Role.WEREWOLF:
                wolf_exiles += 1
                deciding = max(r for d, r in rounds if d == e.day)
                for ballot in rounds[(e.day, deciding)]:
                    assert ballot.actor is not None
                    if roles[ballot.actor] is not Role.WEREWOLF:
                        counts[ballot.actor][2] += 1
                        counts[ballot.actor][3] += int(ballot.target == e.target)
    return counts, exiles, wolf_exiles


def role_kpi(
    events: Sequence[Event], roles: Mapping[str, Role], alive: Mapping[str, bool]
) -> dict[str, tuple[int, int]]:
    """(numerator, denominator) of each seat's role KPI (after WereWolf-Plus, §3.2):

    Seer: distinct wolves checked / wolves. Witch: saves of good players + poisons of
    wolves / potions used. Guard: nights guarding the wolves' target / nights guarded.
    Hunter: shots at wolves / shots. Werewolf: alive at the end / 1.
    """
    wolves = {s for s, r in roles.items() if r is Role.WEREWOLF}
    kpi: dict[str, tuple[int, int]] = {s: (int(alive[s]), 1) for s in wolves}
    found: set[str] = set()
    witch = [0, 0]
    guard = [0, 0]
    hunter = [0, 0]
    wolf_target: dict[int, str | None] = {}
    guarded: list[tuple[int, str | None]] = []
    for e in events:
        if e.kind is EventKind.SEER_RESULT and e.target in wolves:
            found.add(e.target)
        elif e.kind is EventKind.WITCH_CURE:
            witch[0] += int(e.target is not None and e.target not in wolves)
            witch[1] += 1
        elif e.kind is EventKind.WITCH_POISON:
            witch[0] += int(e.target in wolves)
            witch[1] += 1
        elif e.kind is EventKind.WOLF_TARGET:
            wolf_target[e.day] = e.target
        elif e.kind is EventKind.GUARD:
            guarded.append((e.day, e.target))
        elif e.kind is EventKind.HUNTER_SHOT and e.target:
            hunter[0] += int(e.target in wolves)
            hunter[1] += 1
    for day, target in guarded:
        guard[0] += int(target is not None and target == wolf_target.get(day))
        guard[1] += 1
    totals = {
        Role.SEER: (len(found), len(wolves)),
        Role.WITCH: (witch[0], witch[1]),
        Role.GUARD: (guard[0], guard[1]),
        Role.HUNTER: (hunter[0], hunter[1]),
    }
    for seat, role in roles.items():
        if role in totals:
            kpi[seat] = totals[role]
    return kpi


def game_row(
    game_id: str,
    events: Sequence[Event],
    records: Sequence[DecisionRecord],
    seating: Seating,
    prices: Mapping[str, Price] | None = None,
    seed: int | None = None,
) -> GameRow:
    roles = roles_of(events)
    dead = {e.target for e in events if e.kind is EventKind.DEATH}
    alive = {s: s not in dead for s in roles}
    over = [e for e in events if e.kind is EventKind.GAME_OVER]
    if not over:
        raise ValueError(f"game {game_id!r} is not finished")
    board = next((e.value for e in events if e.kind is EventKind.GAME_START), None) or "custom"
    ballots, exiles, wolf_exiles = _ballots(events, roles)
    kpi = role_kpi(events, roles, alive)
    models = {r.seat: r.model for r in records if r.model}
    agents = {r.seat: r.agent for r in records if r.agent}
    judged, est = design_columns(events, records, roles)
    seats: dict[str, SeatRow] = {}
    for seat, role in sorted(roles.items()):
        counts = ballots.get(seat, [0, 0, 0, 0])
        seats[seat] = SeatRow(
            contestant=_label(seat, seating, models, agents),
            kind=seating.kind_of(seat),
            role=role.value,
            camp="wolf" if role is Role.WEREWOLF else "good",
            alive=alive[seat],
            decisions=0,
            fallbacks=0,
            invalid=0,
            tokens_in=0,
            tokens_out=0,
            latency_s=0.0,
            cost_usd=0.0,
            unpriced=False,
            exile_ballots=counts[0],
            wolf_ballots=counts[1],
            vss_ballots=counts[2],
            vss_hits=counts[3],
            kpi_num=kpi.get(seat, (0, 0))[0],
            kpi_den=kpi.get(seat, (0, 0))[1],
            probe_calls=0,
            probe_tokens_in=0,
            probe_tokens_out=0,
            probe_cost_usd=0.0,
            model=models.get(seat),
            agent=agents.get(seat),
            blunders=judged.get(seat, {}),
            est=est.get(seat, [0.0, 0.0]),
        )
    for r in records:
        row = seats[r.seat]
        usd, unpriced = _cost(r, prices or {})
        row["unpriced"] = row["unpriced"] or unpriced
        if r.purpose == "probe":
            row["probe_calls"] += 1
            row["probe_tokens_in"] += r.tokens_in or 0
            row["probe_tokens_out"] += r.tokens_out or 0
            row["probe_cost_usd"] += usd
            continue
        # Notes (an agent's estimates, strategies...) cost tokens but are no decisions.
        decision = r.purpose == "decision"
        row["decisions"] += int(decision)
        row["fallbacks"] += int(decision and r.fallback)
        row["invalid"] += int(decision and not r.valid)
        row["tokens_in"] += r.tokens_in or 0
        row["tokens_out"] += r.tokens_out or 0
        row["latency_s"] += r.latency_s
        row["cost_usd"] += usd
    winner = over[-1].value
    return GameRow(
        v=ROW_VERSION,
        game_id=game_id,
        board=board,
        seed=seed,
        winner=winner if winner in ("good", "wolf") else None,
        days=max(e.day for e in events),
        exiles=exiles,
        wolf_exiles=wolf_exiles,
        seats=seats,
        debate=debate_row(events, records, roles),
    )
