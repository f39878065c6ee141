"""What an entry of the step table (steps.py) says of a step: its kind, who decides and
among which options, how its answers are resolved, where the game may go next, the text
and the effect on a chosen seat its answers carry, and who takes it."""

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from autowerewolf.rules.decisions import Answers, Options
from autowerewolf.rules.events import Event
from autowerewolf.rules.outcome import Resolved
from autowerewolf.rules.roles import Camp, Role, camp_of
from autowerewolf.rules.state import GameState

# Applies the answers and says what happened; the flow (flow.py) decides where to go.
Resolver = Callable[[GameState, Answers, list[Event]], Resolved]
OptionsBuilder = Callable[[GameState], Options]
TextKind = Literal["speech", "message"]
# What choosing a seat does to that seat: harms it (a kill, an exile vote, a poison, a shot),
# helps it (a guard, the badge, an election vote) or checks it (the Seer's look).
Effect = Literal["harm", "help", "check"]


class StepKind(StrEnum):
    NIGHT = "night"  # a night decision: keys n<night>:<step>...
    DAY = "day"  # a daytime decision: keys d<day>:<step>...
    CHAIN = "chain"  # a decision inside a death chain (by day)
    AUTOMATIC = "automatic"  # resolves itself: no one is asked
    END = "end"  # the game is over


@dataclass(frozen=True)
class StepSpec:
    kind: StepKind
    next: tuple[str, ...]  # every step this one may lead to
    resolve: Resolver | None  # applies the answers (none for automatic steps); None at the end
    then: str | None = None  # the step the flow enters once this one is done
    options: OptionsBuilder | None = None  # who decides, among which options; None: no one
    round_of: Callable[[GameState], int] | None = None  # set: everyone asked at once, by round
    # set: a seat may take this step more than once a day; its key then names the turn
    turn_of: Callable[[GameState], int | None] | None = None
    # asks the seats queued in `state.speakers` one at a time; its key names the seat
    in_turn: bool = False
    # the option words its answers may hold besides seats, and whether they may name seats:
    # what a script may answer (docs/scripts.md)
    words: tuple[str, ...] = ()
    names_seats: bool = False
    text: TextKind | None = None  # free text the answer carries
    prompt: str | None = None  # key of the decision's wording in prompts/decisions.yaml
    rule: str = ""  # the rulebook section
    # Everyone learns who answered and what (RULES §9): speeches, sign-ups, votes, the
    # badge. Otherwise the answer is the answering seat's (night actions, bids, and the
    # Hunter's shot, whose refusal stays secret).
    public: bool = False
    effect: Effect | None = None  # what a chosen seat undergoes; None: no seat is chosen
    # A choice that cannot be taken back and that no vote corrects: a kill, a check, a potion,
    # a guard, a shot, the badge.
    power: bool = False
    role: Role | None = None  # the role that takes this step; None: any seat it asks

    @property
    def simultaneous(self) -> bool:
        return self.round_of is not None

    @property
    def decides(self) -> bool:
        return self.options is not None

    @property
    def on_evidence(self) -> bool:
        """A good role's harm with no vote to correct it: it rests on the seat's evidence
        alone (the Witch's poison, the Hunter's shot)."""
        good = self.role is not None and camp_of(self.role) is Camp.GOOD
        return self.effect == "harm" and self.power and good


def automatic(resolve: Callable[[GameState, list[Event]], Resolved]) -> Resolver:
    def resolve_step(state: GameState, _answers: Answers, events: list[Event]) -> Resolved:
        return resolve(state, events)

    resolve_step.__name__ = resolve.__name__
    return resolve_step
