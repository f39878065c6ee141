"""Players that need no model: seeded random and scripted."""

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from autowerewolf.players.base import Answer, DecidesAtOnce, DecisionRequest, plain_record
from autowerewolf.prompts.estimates import ROLE_ESTIMATES, roles_of, targets_of
from autowerewolf.rules.decisions import Action, IllegalAction, Option
from autowerewolf.rules.random_play import random_action
from autowerewolf.rules.rng import pick

RATINGS = (0, 1, 2, 3, 4)


def random_answer(request: DecisionRequest) -> Action:
    return random_action(request.seed, request.key, request.options, request.seat)


def random_estimates(request: DecisionRequest) -> dict[str, Any]:
    """A role estimate (prompts/estimates.py's shape) of seeded random 0-4 ratings."""
    seed, key = request.seed, request.key
    targets, roles = targets_of(request.view), roles_of(request.view)
    return {
        "estimates": {
            t: {r: pick(seed, f"{key}:{t}:{r}", RATINGS) for r in roles} for t in targets
        },
        "evidence": dict.fromkeys(targets, "seeded random"),
    }


class RandomPlayer(DecidesAtOnce):
    """A seeded random legal choice: the same answer every time the same decision is asked."""

    kind = "random"

    def decide(self, request: DecisionRequest) -> Answer:
        if request.step == ROLE_ESTIMATES:
            action = Action(option=Option.NONE.value)
            data = random_estimates(request)
            return Answer(action, plain_record(request, self.kind, action, data=data))
        action = random_answer(request)
        return Answer(action=action, record=plain_record(request, self.kind, action))


def _bid_as_text(value: object) -> object:
    """A bid written as a YAML number (`P07: 4`) is the option "4"."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


# An option as a script writes it: a word, a seat, or a bid (docs/scripts.md).
OptionText = Annotated[str, BeforeValidator(_bid_as_text)]


class ScriptedAnswer(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    option: OptionText
    text: str = ""


# An answer for every seat asked ("P05" or {option, text}), or answers by seat. Tried in this
# order: pydantic's default "smart" union would read {option: ..., text: ...} as answers by seat.
ScriptEntry = Annotated[
    OptionText | ScriptedAnswer | Mapping[str, OptionText | ScriptedAnswer],
    Field(union_mode="left_to_right"),
]


def scripted_answer(
    decisions: Mapping[str, ScriptEntry], key: str, seat: str
) -> ScriptedAnswer | None:
    """The script's answer for this seat and decision, or None where the script is silent."""
    entry = decisions.get(key)
    if isinstance(entry, Mapping):
        entry = entry.get(seat)
    if entry is None:
        return None
    return ScriptedAnswer(option=entry) if isinstance(entry, str) else entry


def scripted_action(
    decisions: Mapping[str, ScriptEntry], key: str, seat: str, options: tuple[str, ...]
) -> Action | None:
    """The script's answer as a legal action, or None where the script is silent."""
    answer = scripted_answer(decisions, key, seat)
    if answer is None:
        return None
    if answer.option not in options:
        raise IllegalAction(
            f"script answer {answer.option!r} for {seat} at {key} "
            f"is not legal (legal: {', '.join(options)})"
        )
    text = answer.text or (f"{seat} speaks." if answer.option == Option.SPEAK else "")
    return Action(option=answer.option, text=text)


class ScriptedPlayer(DecidesAtOnce):
    """Answers from a script's decisions; where the script is silent, plays seeded random."""

    kind = "scripted"

    def __init__(self, decisions: Mapping[str, ScriptEntry]) -> None:
        self.decisions = decisions

    def decide(self, request: DecisionRequest) -> Answer:
        if request.purpose == "probe":  # scripts answer the game's decisions only
            return RandomPlayer().decide(request)
        try:
            action = scripted_action(self.decisions, request.key, request.seat, request.options)
        except IllegalAction as err:
            # Checked before the game starts where the game is predictable; otherwise (a
            # script beside LLM or human seats) the game goes on, and the record says why.
            action = random_answer(request)
            record = plain_record(
                request, self.kind, action, valid=False, fallback=True, error=str(err)
            )
            return Answer(action=action, record=record)
        if action is None:
            action = random_answer(request)
            return Answer(action=action, record=plain_record(request, "random", action))
        return Answer(action=action, record=plain_record(request, self.kind, action))
