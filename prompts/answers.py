"""Answer schemas per decision: the legal options are an enum, free text is length-bounded,
so a grammar-constrained server can only produce a legal, parseable answer. The model reads
the field descriptions, so they live here with the other prompts."""

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from autowerewolf.prompts.grounds import NO_GROUND
from autowerewolf.prompts.speech_acts import ACTS_REASONING_CHARS, ground_field, speech_field
from autowerewolf.rules.step_spec import TextKind
from autowerewolf.rules.steps import steps_where


@dataclass(frozen=True)
class Bounds:
    """The longest private reasoning, speech and wolf message a model may write (characters),
    and whether its speeches are structured acts (prompts/speech_acts.py) instead of free
    text. The rules cap any text at rules.decisions.MAX_TEXT_CHARS."""

    reasoning: int  # 0: no private reasoning, the choice straight away
    speech: int
    message: int
    speech_acts: bool = False
    # The decisions (prompt keys) that start with private reasoning; None: every one.
    reasoning_on: frozenset[str] | None = None
    # Ask once more when a legal answer works against the seat's own side (second_look.py).
    second_look: bool = True

    def harness(self) -> dict[str, int | str | bool]:
        """The factors of these bounds that shape a seat's question, for its records:
        what a study ablates (docs/evaluation.md, Scaffold baselines)."""
        return {
            "reasoning": self.reasoning,
            "speech": "acts" if self.speech_acts else "free",
            "second_look": self.second_look,
        }

    def for_decision(self, key: str) -> "Bounds":
        """The bounds of one decision: no private reasoning where `reasoning_on` leaves
        it out."""
        if self.reasoning_on is None or key in self.reasoning_on:
            return self
        return replace(self, reasoning=0)


# A 12-player game on 2 CPU cores is dominated by generated tokens: short answers.
COMPACT = Bounds(reasoning=120, speech=280, message=120)
# No private reasoning: on the embedded model it is about 35 of the 53 tokens a vote
# generates, and generation is half a game's time (docs/benchmarks.md).
TERSE = Bounds(reasoning=0, speech=280, message=120)
# The rare choices that cannot be taken back and that no vote corrects: a kill, a check, a
# potion, a guard, a shot, the badge.
POWER_DECISIONS = steps_where(lambda entry: entry.power)
# Private reasoning only before those; every other answer (votes, the election, speeches,
# whose acts carry their own grounds) chooses straight away. The embedded model's reasoning
# before a vote was rarely reasoning ("The werewolves should always defend their own
# village"), and `terse` kept the blunder goals without any (docs/benchmarks.md).
FOCUSED = replace(COMPACT, reasoning_on=POWER_DECISIONS)
# Room for a strong API model to think and argue.
FULL = Bounds(reasoning=1500, speech=1200, message=400)
BUDGETS = {"compact": COMPACT, "focused": FOCUSED, "terse": TERSE, "full": FULL}
# Schemas are classes keyed by the legal options (and a structured speaker's phrases and
# grounds, new at most speeches), which vary from game to game: an unbounded
# cache grew by ~0.26 MB per finished game in a long batch (docs/scale.md). A class costs
# about 18 KB and 0.2 ms to build, so a bounded cache keeps both small.
SCHEMA_CACHE_SIZE = 256


class AnswerBase(BaseModel):
    model_config = ConfigDict(extra="forbid")


def reasoning_field(chars: int, description: str) -> dict[str, object]:
    """An answer's private reasoning, to put first in its fields (so the model thinks before
    it chooses); no field at all if `chars` is 0 (the `terse` budget)."""
    if not chars:
        return {}
    return {"reasoning": (str, Field(max_length=chars, description=description))}


def answer_schema(
    text: TextKind | None,
    options: tuple[str, ...],
    bounds: Bounds = COMPACT,
    offered: tuple[str, ...] = (),
    grounds: tuple[str, ...] = (NO_GROUND,),
) -> type[AnswerBase]:
    """The schema of one decision: private reasoning first (so the model thinks before it
    chooses; none if `bounds.reasoning` is 0), `choice` among `options`, plus the step's
    free text (a speech or a wolf message) if it takes one; with `bounds.speech_acts`, a
    speech is an act among the `offered` phrases (speech_acts.phrases) instead, and a wolf
    message a ground, each ground among the `grounds` (prompts/grounds.py)."""
    if not (text == "speech" and bounds.speech_acts):
        # Unused, so not part of the cache key: every vote with the same options shares
        # one class whoever is alive (a miss costs ~1 ms of CPU, a tenth of a call's).
        offered = ()
    if not (text in ("speech", "message") and bounds.speech_acts):
        grounds = ()
    return _answer_schema(text, options, bounds, offered, grounds)


@lru_cache(maxsize=SCHEMA_CACHE_SIZE)
def _answer_schema(
    text: TextKind | None,
    options: tuple[str, ...],
    bounds: Bounds,
    offered: tuple[str, ...],
    grounds: tuple[str, ...],
) -> type[AnswerBase]:
    acts = text == "speech" and bounds.speech_acts and bool(offered)
    # A structured speech's acts carry their own grounds (speech_acts.py).
    reasoning = min(bounds.reasoning, ACTS_REASONING_CHARS) if acts else bounds.reasoning
    fields: dict[str, object] = {
        **reasoning_field(reasoning, "Private thoughts; nobody else ever sees them."),
        "choice": (Literal[options], Field(description="One of the legal choices.")),
    }
    if acts:
        fields["acts"] = speech_field(offered, grounds)
    elif text == "speech":
        fields["speech"] = (
            str,
            Field(
                max_length=bounds.speech,
                description="What you say to the table, in character ('' if you explode).",
            ),
        )
    if text == "message" and bounds.speech_acts:
        # A structured speaker's whisper is its choice and a ground, like an act's: free,
        # the embedded model's messages recited the day's speeches or trailed off
        # mid-sentence, and its 60-character reasons said "I am P05, seat P01, the Werewolf".
        fields["because"] = ground_field(grounds, "The fact your choice rests on.")
    elif text == "message":
        fields["message"] = (
            str,
            Field(max_length=bounds.message, description="Short message to your fellow wolves."),
        )
    name = f"{(text or 'choice').title()}Answer"
    return create_model(name, __base__=AnswerBase, **fields)  # type: ignore[call-overload,no-any-return]
