"""The player interface: given what a seat may see and its legal options, answer."""

from dataclasses import dataclass
from typing import Protocol

from autowerewolf.players.records import DecisionRecord
from autowerewolf.rules.decisions import Action, PendingDecision
from autowerewolf.rules.views import SeatView


@dataclass(frozen=True)
class DecisionRequest:
    """Everything a player gets for one decision. Built only from the seat's own view."""

    view: SeatView
    decision: PendingDecision
    player_seed: int

    @property
    def seat(self) -> str:
        return self.view.seat

    @property
    def options(self) -> tuple[str, ...]:
        return self.view.options


@dataclass(frozen=True)
class Answer:
    action: Action
    record: DecisionRecord


class Player(Protocol):
    kind: str

    def decide(self, request: DecisionRequest) -> Answer: ...


def plain_record(
    request: DecisionRequest, kind: str, action: Action, **extra: object
) -> DecisionRecord:
    return DecisionRecord(
        seat=request.seat,
        player=kind,
        day=request.view.day,
        step=request.decision.step.value,
        key=request.decision.key,
        options=request.options,
        option=action.option,
        text=action.text,
        **extra,
    )
