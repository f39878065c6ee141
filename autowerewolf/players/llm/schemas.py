"""Answer schemas per decision: the legal options are an enum, free text is length-bounded,
so a grammar-constrained server can only produce a legal, parseable answer."""

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

REASONING_CHARS = 120
SPEECH_CHARS = 280
MESSAGE_CHARS = 120
SPEAKING_STEPS = frozenset(
    {"election_speech", "election_pk_speech", "discussion", "exile_pk_speech", "last_words"}
)


class AnswerBase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reasoning: str = Field(
        max_length=REASONING_CHARS, description="Private thoughts; nobody else ever sees them."
    )


@cache
def answer_schema(step: str, options: tuple[str, ...]) -> type[AnswerBase]:
    """The schema of one decision: `choice` among `options`, plus a speech or wolf message."""
    fields: dict[str, object] = {
        "choice": (Literal[options], Field(description="One of the legal choices.")),  # type: ignore[valid-type]
    }
    if step in SPEAKING_STEPS:
        fields["speech"] = (
            str,
            Field(
                max_length=SPEECH_CHARS,
                description="What you say to the table ('' if you explode).",
            ),
        )
    if step == "wolves":
        fields["message"] = (
            str,
            Field(max_length=MESSAGE_CHARS, description="Short message to your fellow wolves."),
        )
    name = "".join(part.title() for part in step.split("_")) + "Answer"
    return create_model(name, __base__=AnswerBase, **fields)  # type: ignore[call-overload,no-any-return]
