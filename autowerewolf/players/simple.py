"""Players that need no model: seeded random and scripted."""

from collections.abc import Mapping
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from autowerewolf.players.base import Answer, DecisionRequest, plain_record
from autowerewolf.rules.decisions import Action, IllegalAction
from autowerewolf.rules.random_play import random_action


class RandomPlayer:
    """A seeded random legal choice: the same answer every time the same decision is asked."""

    kind = "random"

    def decide(self, request: DecisionRequest) -> Answer:
        action = random_action(request.player_seed, request.decision, request.seat)
        return Answer(action=action, record=plain_record(request, self.kind, action))


class ScriptedAnswer(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    option: str
    text: str = ""


# An answer for every seat asked ("P05" or {option, text}), or answers by seat. Tried in this
# order: pydantic's default "smart" union would read {option: ..., text: ...} as answers by seat.
ScriptEntry = Annotated[
    str | ScriptedAnswer | dict[str, str | ScriptedAnswer], Field(union_mode="left_to_right")
]


def scripted_action(
    decisions: Mapping[str, ScriptEntry], request: DecisionRequest
) -> Action | None:
    """The script's answer for this seat and decision, or None where the script is silent."""
    entry = decisions.get(request.decision.key)
    if isinstance(entry, dict):
        entry = entry.get(request.seat)
    if entry is None:
        return None
    answer = ScriptedAnswer(option=entry) if isinstance(entry, str) else entry
    if answer.option not in request.options:
        raise IllegalAction(
            f"script answer {answer.option!r} for {request.seat} at {request.decision.key} "
            f"is not legal (legal: {', '.join(request.options)})"
        )
    text = answer.text or (f"{request.seat} speaks." if answer.option == "speak" else "")
    return Action(option=answer.option, text=text)


class ScriptedPlayer:
    """Answers from a script's decisions; where the script is silent, plays seeded random."""

    kind = "scripted"

    def __init__(self, decisions: Mapping[str, ScriptEntry]) -> None:
        self.decisions = decisions

    def decide(self, request: DecisionRequest) -> Answer:
        action = scripted_action(self.decisions, request)
        if action is None:
            action = random_action(request.player_seed, request.decision, request.seat)
            return Answer(action=action, record=plain_record(request, "random", action))
        return Answer(action=action, record=plain_record(request, self.kind, action))
