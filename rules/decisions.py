"""What a decision looks like: who must choose, among which legal options."""

from collections.abc import Mapping
from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class Option(StrEnum):
    """Option tokens besides seat ids ("P01"...)."""

    NONE = "none"  # no kill / no guard / no poison / no cure / no shot / nothing
    ABSTAIN = "abstain"
    SAVE = "save"
    RUN = "run"
    PASS = "pass"
    STAY = "stay"
    WITHDRAW = "withdraw"
    SPEAK = "speak"
    EXPLODE = "explode"
    DUEL = "duel"
    TEAR = "tear"
    CLOCKWISE = "clockwise"
    COUNTERCLOCKWISE = "counterclockwise"


class PendingDecision(BaseModel):
    """The decision the game waits for.

    `options` maps each seat that must answer to its legal options. A simultaneous
    decision is answered by all those seats at once (no one sees the others' answers);
    otherwise exactly one seat answers.
    """

    model_config = ConfigDict(frozen=True)

    step: str
    key: str  # stable id of this decision, the root of its random draws
    options: dict[str, tuple[str, ...]]
    simultaneous: bool

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(self.options)


# The longest speech or wolf message the rules accept from any player (RULES §6; docs/rules.md).
MAX_TEXT_CHARS = 2000


class Action(BaseModel):
    """One seat's answer: a legal option, plus text for speeches and wolf proposals."""

    model_config = ConfigDict(frozen=True)

    option: str
    text: str = ""


class IllegalAction(ValueError):
    """An answer that the pending decision does not allow; the message says why."""


# Each seat that must answer, with its legal options.
Options = dict[str, tuple[str, ...]]
# The answers to one decision, by seat.
Answers = Mapping[str, Action]
