"""The strict schema of an answer class and the bounds enforced after parsing
(backends/strict_schema.py), on the answer classes the prompts build and on small classes
with the shapes they do not use (optional fields, recursion); what counts as a refusal of
the format (backends/answer_format.py)."""

import json
from dataclasses import replace
from typing import Optional

import httpx
import llguidance
import openai
import pytest
from openai.lib._pydantic import to_strict_json_schema
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from autowerewolf.backends.answer_format import AnswerFormat, refusal_of_format, step_down_note
from autowerewolf.backends.grammar import UnsupportedSchema
from autowerewolf.backends.strict_schema import bounded_answer, strict_schema
from autowerewolf.prompts.answers import COMPACT, answer_schema
from autowerewolf.prompts.estimates import estimates_schema
from tests.backends.strict_subset import strict_subset_problems

ACTS = replace(COMPACT, speech_acts=True)
SPEECH_ACTS = answer_schema("speech", ("speak",), ACTS, ("accuse P02", "pass"), ("none",))
CLASSES = [
    answer_schema(None, ("P01", "P02")),
    answer_schema(None, ("P01",)),  # one option: pydantic writes a `const`
    answer_schema("speech", ("speak",)),
    answer_schema("message", ("P03", "P04")),
    SPEECH_ACTS,
    estimates_schema(("P02", "P03"), ("werewolf", "villager", "seer")),
]


class Note(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(max_length=5)
    mood: Optional[str] = None  # noqa: UP045 (pydantic's two spellings write one schema)
    rank: int = Field(default=1, ge=1, le=3)


class Tree(BaseModel):
    children: list["Tree"]


@pytest.mark.parametrize("answer", CLASSES, ids=lambda c: c.__name__)
def test_answer_classes_are_sent_strict_and_compile(answer: type[BaseModel]) -> None:
    schema = strict_schema(answer)
    assert strict_subset_problems(schema) == []
    grammar = llguidance.grammar_from("json_schema", json.dumps(schema))
    assert llguidance.LLMatcher.validate_grammar(grammar) == ""


def test_the_sdk_sent_bounds_that_the_strict_schema_leaves_out() -> None:
    """What the OpenAI client sent for the class before: a schema outside the subset."""
    assert strict_subset_problems(to_strict_json_schema(SPEECH_ACTS))
    assert "maxLength" not in json.dumps(strict_schema(SPEECH_ACTS))


def test_a_one_value_literal_and_a_small_range_become_enums() -> None:
    vote = strict_schema(answer_schema(None, ("P01",)))
    assert vote["properties"]["choice"]["enum"] == ["P01"]
    rows = strict_schema(estimates_schema(("P02",), ("seer",)))
    assert rows["properties"]["P02"]["properties"]["seer"]["enum"] == [0, 1, 2, 3, 4]


def test_optional_fields_are_required_and_nullable_and_null_keeps_the_default() -> None:
    schema = strict_schema(Note)
    assert schema["required"] == ["text", "mood", "rank"]
    assert {"type": "null"} in schema["properties"]["rank"]["anyOf"]
    assert strict_subset_problems(schema) == []
    note, cuts = bounded_answer(Note, {"text": "hi", "mood": None, "rank": None})
    assert isinstance(note, Note)
    assert (note.mood, note.rank, cuts) == (None, 1, ())


def test_texts_lists_and_ratings_past_their_bounds_are_cut_and_noted() -> None:
    note, cuts = bounded_answer(Note, {"text": "far too long", "mood": "calm", "rank": 9})
    assert isinstance(note, Note)
    assert (note.text, note.rank) == ("far t", 3)
    assert cuts == ("text cut from 12 to 5 characters", "rank cut from 9 to 3")
    acts = {"choice": "speak", "acts": [{"because": "none", "say": "pass"}] * 3}
    speech, cuts = bounded_answer(SPEECH_ACTS, {"reasoning": "r" * 61, **acts})
    assert len(speech.acts) == 1  # type: ignore[attr-defined]
    assert cuts == ("reasoning cut from 61 to 60 characters", "acts cut from 3 to 1 items")


def test_what_no_cut_mends_fails_validation() -> None:
    with pytest.raises(ValidationError):
        bounded_answer(SPEECH_ACTS, {"reasoning": "", "choice": "speak", "acts": []})
    with pytest.raises(ValidationError):
        bounded_answer(Note, {"text": "hi", "mood": None, "rank": 1, "extra": 1})


def test_a_recursive_class_is_refused() -> None:
    with pytest.raises(UnsupportedSchema):
        strict_schema(Tree)


def test_only_a_400_about_the_format_is_a_refusal_and_its_note_is_redacted() -> None:
    def bad_request(body: dict[str, object]) -> openai.BadRequestError:
        response = httpx.Response(400, json=body, request=httpx.Request("POST", "http://x/"))
        return openai.BadRequestError(f"Error code: 400 - {body}", response=response, body=body)

    refusal = bad_request({"message": "Invalid schema for response_format 'X'", "param": None})
    overflow = bad_request({"message": "This model's maximum context length is 8192 tokens"})
    said = refusal_of_format(refusal)
    assert said is not None and refusal_of_format(overflow) is None
    assert refusal_of_format(ValueError("schema")) is None
    note = step_down_note("m", AnswerFormat.STRICT, AnswerFormat.LOOSE, "bad Bearer sk-123456")
    assert note.endswith("for m: bad Bearer [REDACTED]")
