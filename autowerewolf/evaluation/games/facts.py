"""One finished game as a compact result row: everything the report needs, nothing more.

A row is plain JSON (see `GameRow`) so that a report over thousands of games can stream
rows from SQLite instead of restoring each game's checkpoint. Facts come only from the
game's events (roles from DEAL, deaths from DEATH, ...) and its DecisionRecords.
"""

from collections.abc import Mapping, Sequence
from typing import NotRequired, TypedDict

from autowerewolf.backends.answer_format import STEPPED_DOWN
from autowerewolf.evaluation.chance import OptionsIndex
from autowerewolf.evaluation.debate.probes import DebateRow, debate_row
from autowerewolf.evaluation.games.design_rows import design_columns
from autowerewolf.evaluation.games.play_facts import ballots, role_kpi
from autowerewolf.evaluation.games.roles import roles_of
from autowerewolf.evaluation.games.speeches import speech_tallies
from autowerewolf.evaluation.tournament.config import Price
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import Seating
from autowerewolf.rules.events import Event, EventKind
from autowerewolf.rules.roles import camp_of

# 3: probe calls counted apart and the debate measurements of games played with probes;
# model, agent design, blunders and Est per seat; notes are not counted as decisions.
# 4: chance levels beside IRP, VSS, role KPIs, blunders, Est and the debate metrics;
# decisions per step (illegal answers, fallbacks, second looks).
# 5: speeches and wolf messages out of character (speeches.py).
# 6: decisions per step count those with a timed-out attempt too.
ROW_VERSION = 6
SECOND_LOOK = "reconsidered "  # how an LLM design's record notes a second look (docs/agents.md)


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
    irp_chance: float | None  # ... a random ballot's expected hits (None: options unknown)
    vss_ballots: int  # good-camp ballots in the round that exiled a wolf
    vss_hits: int  # ... of which aimed at that wolf
    vss_chance: float | None
    kpi_num: int  # role KPI numerator and denominator (see play_facts.role_kpi)
    kpi_den: int
    kpi_chance: float | None  # a random player's expected numerator (None: an outcome)
    probe_calls: int  # measurement probes answered: not part of how the seat played
    probe_tokens_in: int
    probe_tokens_out: int
    probe_cost_usd: float
    model: str | None  # the model and agent design that answered (LLM seats)
    agent: str | None
    # metric -> [blunders, opportunities, summed chance, opportunities with known options]
    blunders: dict[str, list[float]]
    # Strategy Adaptation's Est of this seat: [sum over rounds, rounds, summed chance]
    est: list[float]
    # step -> [decisions, illegal first answers, fallbacks, second looks]
    steps: dict[str, list[int]]
    # an LLM seat's decisions with text: [out of character (speeches.py), all of them]
    out_of_character: list[int]
    # calls whose model's answer format stepped down (backends/answer_format.py); rows
    # written before it was counted have none
    step_downs: NotRequired[int]


class GameRow(TypedDict):
    v: int
    game_id: str
    board: str
    seed: int | None
    winner: str | None  # good, wolf, or None for a draw
    days: int
    exiles: int  # days whose vote removed someone (an Idiot's flip counts)
    wolf_exiles: int
    exile_chance: float | None  # summed over exiles: wolves among the day's candidates
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


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


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
    options = OptionsIndex(records)
    voted = ballots(events, roles, options)
    kpi = role_kpi(events, roles, alive, options)
    models = {r.seat: r.model for r in records if r.model}
    agents = {r.seat: r.agent for r in records if r.agent}
    judged, est = design_columns(events, records, roles)
    speeches = speech_tallies(events, records, roles)
    seats: dict[str, SeatRow] = {}
    for seat, role in sorted(roles.items()):
        counts = voted.seats[seat]
        known = not counts.unknown
        seats[seat] = SeatRow(
            contestant=_label(seat, seating, models, agents),
            kind=seating.kind_of(seat),
            role=role.value,
            camp=camp_of(role).value,
            alive=alive[seat],
            decisions=0,
            fallbacks=0,
            invalid=0,
            tokens_in=0,
            tokens_out=0,
            latency_s=0.0,
            cost_usd=0.0,
            unpriced=False,
            exile_ballots=counts.cast,
            wolf_ballots=counts.at_wolves,
            irp_chance=round(counts.irp_chance, 6) if known else None,
            vss_ballots=counts.deciding,
            vss_hits=counts.at_exiled,
            vss_chance=round(counts.vss_chance, 6) if known else None,
            kpi_num=kpi[seat].num if seat in kpi else 0,
            kpi_den=kpi[seat].den if seat in kpi else 0,
            kpi_chance=_rounded(kpi[seat].chance) if seat in kpi else None,
            probe_calls=0,
            probe_tokens_in=0,
            probe_tokens_out=0,
            probe_cost_usd=0.0,
            model=models.get(seat),
            agent=agents.get(seat),
            blunders=judged.get(seat, {}),
            est=est.get(seat, [0.0, 0.0, 0.0]),
            steps={},
            out_of_character=speeches.get(seat, [0, 0]),
            step_downs=0,
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
        if decision:
            step = row["steps"].setdefault(r.step, [0, 0, 0, 0, 0])
            step[0] += 1
            step[1] += int(r.retries > 0 or not r.valid or r.fallback)  # first answer not legal
            step[2] += int(r.fallback)
            step[3] += int(SECOND_LOOK in (r.error or ""))
            step[4] += int(r.timeouts > 0)
        row["step_downs"] = row.get("step_downs", 0) + (r.error or "").count(STEPPED_DOWN)
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
        exiles=voted.exiles,
        wolf_exiles=voted.wolf_exiles,
        exile_chance=None
        if any(b.unknown for b in voted.seats.values())
        else round(voted.exile_chance, 6),
        seats=seats,
        debate=debate_row(events, records, roles),
    )
