"""The environment's observation and action format, built from one seat's view alone.

The training environment (`autowerewolf.env`) and agents across a process boundary
(`cmd:`/`http:` agents, players/external.py) share it: an observation holds the seat's
view as text (the very messages an LLM seat of the plain design is sent, rendered by
prompts/seat_prompt.py from `prompts/`) and structured: the legal options, an action mask
over a fixed action list, the day, the step, and a vector of features. Nothing here reads
the game state: only the `SeatView` the rules give the seat (RULES §9).

Actions are the board's fixed list `action_names(seats)`: `wait` (legal only for a seat
that is not asked, in the environment's every-seat modes), the seat ids, the options'
tokens (none, abstain, save, run, ...) and the bids 0-4. A step that takes a text (a
speech, a wolf message) takes it beside the option, at most `MAX_TEXT_CHARS` characters.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from autowerewolf.prompts.environment import waiting_line
from autowerewolf.prompts.memory import memory_text
from autowerewolf.prompts.recall import FactsLedger, remember
from autowerewolf.prompts.seat_prompt import question_prompt
from autowerewolf.prompts.table_rules import system_prompt
from autowerewolf.rules.decisions import MAX_TEXT_CHARS, Option
from autowerewolf.rules.discussion import BID_OPTIONS
from autowerewolf.rules.events import Event, EventKind
from autowerewolf.rules.roles import Role
from autowerewolf.rules.steps import STEPS, TextKind, takes_text
from autowerewolf.rules.views import SeatView

PROTOCOL = "autowerewolf.agent/1"
WAIT = "wait"
TOKENS: tuple[str, ...] = (*(o.value for o in Option), *BID_OPTIONS)
# The steps that ask a seat something, in the step table's order.
DECISION_STEPS: tuple[str, ...] = tuple(name for name, spec in STEPS.items() if spec.decides)
ROLES: tuple[Role, ...] = tuple(Role)
# Days beyond this read as this day in the features.
FEATURE_DAYS = 30
GLOBAL_FEATURES: tuple[str, ...] = (
    "day",
    *(f"step={s}" for s in DECISION_STEPS),
    *(f"role={r.value}" for r in ROLES),
    "cure_available",
    "poison_available",
    "alive_share",
)
# Per seat, in seat order: public facts, then what this seat alone knows of it.
SEAT_FEATURES: tuple[str, ...] = (
    "alive",
    "sheriff",
    "me",
    "teammate",  # a fellow wolf (wolves only)
    "revealed_wolf",
    "revealed_good",
    "checked_wolf",  # my own Seer checks
    "checked_good",
    "attacked",  # the wolves' latest victim, as the Witch was told
    "guarded_last",  # the Guard's own latest protection
    "can_vote",
    "claims_role",  # claimed a role in a speech (its latest claim)
    "voted_me",  # in the latest exile vote
    "voted_by_me",
    "votes_received",  # share of the latest exile vote's ballots
)


def action_names(seats: Sequence[str]) -> tuple[str, ...]:
    """The fixed action list of a board with these seats."""
    return (WAIT, *seats, *TOKENS)


def feature_names(seats: Sequence[str]) -> tuple[str, ...]:
    return (*GLOBAL_FEATURES, *(f"{s}.{f}" for s in seats for f in SEAT_FEATURES))


class Actions:
    """A board's action list and the index of each name."""

    def __init__(self, seats: Sequence[str]) -> None:
        self.names = action_names(seats)
        self.index = {name: i for i, name in enumerate(self.names)}

    def mask(self, options: Sequence[str]) -> list[int]:
        """1 for each legal option, 0 elsewhere; `wait` alone for a seat not asked."""
        mask = [0] * len(self.names)
        for option in options or (WAIT,):
            mask[self.index[option]] = 1
        return mask


class SeatKnowledge:
    """What a seat noted from the events it saw, fed event by event: the prompt's own
    facts ledger, and the wolves' latest victim as the Witch was told."""

    def __init__(self, seat: str) -> None:
        self.seat = seat
        self.ledger = FactsLedger()
        self.attacked: str | None = None
        self.seen = 0  # events of the game read so far (by the incremental observer)

    def observe(self, events: Iterable[Event]) -> "SeatKnowledge":
        for event in events:
            self.ledger.observe(event)
            if event.kind is EventKind.WITCH_INFO and event.seat == self.seat:
                self.attacked = event.target
        return self


def features(view: SeatView, known: SeatKnowledge | None = None) -> list[float]:
    """The structured observation: GLOBAL_FEATURES then SEAT_FEATURES per seat, each in
    [0, 1], from the view alone. `known` is the view's events already read (an observer
    that follows a game reads each event once); by default they are read from the view."""
    if known is None:
        known = SeatKnowledge(view.seat).observe(view.events)
    ledger = known.ledger
    step = view.step
    out: list[float] = [min(view.day, FEATURE_DAYS) / FEATURE_DAYS]
    out += [1.0 if step == s else 0.0 for s in DECISION_STEPS]
    out += [1.0 if view.role is r else 0.0 for r in ROLES]
    out += [1.0 if view.cure_available else 0.0, 1.0 if view.poison_available else 0.0]
    n = len(view.players)
    out.append(sum(p.alive for p in view.players) / n)
    checks = ledger.checks()
    ballots = ledger.votes[max(ledger.votes)] if ledger.votes else []
    received: dict[str, int] = {}
    for _, target in ballots:
        if target is not None:
            received[target] = received.get(target, 0) + 1
    voted_me = {voter for voter, target in ballots if target == view.seat}
    mine = {target for voter, target in ballots if voter == view.seat}
    teammates = set(view.teammates)
    attacked = known.attacked
    for p in view.players:
        revealed = p.revealed_role
        out += [
            float(p.alive),
            float(p.sheriff),
            float(p.seat == view.seat),
            float(p.seat in teammates),
            float(revealed is Role.WEREWOLF),
            float(revealed is not None and revealed is not Role.WEREWOLF),
            float(checks.get(p.seat) == "wolf"),
            float(checks.get(p.seat) == "good"),
            float(attacked == p.seat),
            float(view.last_guarded == p.seat),
            float(p.can_vote),
            float(p.seat in ledger.claims),
            float(p.seat in voted_me),
            float(p.seat in mine),
            received.get(p.seat, 0) / n,
        ]
    return out


@dataclass(frozen=True)
class Prompted:
    """A seat's view as the messages an LLM seat reads."""

    system: str
    user: str

    @property
    def text(self) -> str:
        return f"{self.system}\n\n{self.user}"

    def messages(self) -> list[dict[str, str]]:
        return [{"role": "system", "content": self.system}, {"role": "user", "content": self.user}]


def prompted(view: SeatView) -> Prompted:
    """The plain design's messages for the seat's question; for a seat not asked, its
    instructions and the game so far, and that it waits."""
    if view.step is None:
        memory = remember(view)
        user = f"Game so far:\n{memory_text(memory.digest, memory.recent)}\n\n{waiting_line()}"
        return Prompted(system_prompt(view), user)
    prompt = question_prompt(view, view.step)
    return Prompted(prompt.system, prompt.user)


def text_kind(view: SeatView) -> TextKind | None:
    return takes_text(view.step) if view.step is not None else None


def request_json(view: SeatView, actions: Actions, seed: int, request_id: int) -> dict[str, Any]:
    """The one request an agent across a process boundary receives for a decision: the
    environment's observation of its seat, the seat's own seed (never the game's), and
    the answer's bounds (docs/agent-protocol.md)."""
    shown = prompted(view)
    return {
        "protocol": PROTOCOL,
        "id": request_id,
        "seat": view.seat,
        "day": view.day,
        "step": view.step,
        "key": view.decision_key,
        "options": list(view.options),
        "actions": list(actions.names),
        "action_mask": actions.mask(view.options),
        "features": features(view),
        "feature_names": list(feature_names([p.seat for p in view.players])),
        "text": shown.text,
        "messages": shown.messages(),
        "takes_text": text_kind(view),
        "max_text_chars": MAX_TEXT_CHARS,
        "seed": seed,
    }
