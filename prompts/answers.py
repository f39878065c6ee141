"""Answer schemas per decision: the legal options are an enum, free text is length-bounded,
so a grammar-constrained server can only produce a legal, parseable answer. The model reads
the field descriptions, so they live here with the other prompts."""

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from autowerewolf.rules.steps import TextKind

REASONING_CHARS = 120
SPEECH_CHARS = 280
MESSAGE_CHARS = 120


class AnswerBase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reasoning: str = Field(
        max_length=REASONING_CHARS, description="Private thoughts; nobody else ever sees them."
    )


@cache
def answer_schema(text: TextKind | None, options: tuple[str, ...]) -> type[AnswerBase]:
    """The schema of one decision: `choice` among `options`, plus the step's free text (a
    speech or a wolf message) if it takes one."""
    fields: dict[str, object] = {
        "choice": (Literal[options], Field(description="One of the legal choices.")),
    }
    if text == "speech":
        fields["speech"] = (
            str,
            Field(
                max_length=SPEECH_CHARS,
                description="What you say to the table ('' if you explode).",
            ),
        )
    if text == "message":
        fields["message"] = (
            str,
            Field(max_length=MESSAGE_CHARS, description="Short message to your fellow wolves."),
        )
    name = f"{(text or 'choice').title()}Answer"
    return create_model(name, __base__=AnswerBase, **fields)  # type: ignore[call-overload,no-any-return]
