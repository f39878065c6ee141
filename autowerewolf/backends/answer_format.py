"""How a structured answer is asked of an OpenAI-compatible server, and the step down when the
server refuses it.

A server is first asked for the strict schema (backends/strict_schema.py) as a strict
`json_schema` response format. A server that answers 400 to the schema itself (OpenAI's
"Invalid schema for response_format ...", vLLM's "The provided JSON schema contains
features not supported by xgrammar.") is asked the same schema without `strict`, and one
that refuses that too is asked for JSON mode (`{"type": "json_object"}`) with the schema
written into the prompt. Each model steps down once for the whole process, so a batch's
games do not each pay the refused call; the call that stepped down notes it in its seat's
record (`STEPPED_DOWN`), and the report's validity table counts those notes.
"""

import json
import re
import threading
from enum import StrEnum

from pydantic import BaseModel

from autowerewolf.backends.redact import redact_secrets
from autowerewolf.backends.strict_schema import strict_schema

# How a record's note says the model's answer format stepped down (its start).
STEPPED_DOWN = "answer format stepped down"
# The message key under which the backend leaves its notes on an answer (cuts, step-downs).
ANSWER_NOTES = "answer_notes"
# How many attempts of a call timed out before it was answered (backends/gate.py).
ANSWER_TIMEOUTS = "answer_timeouts"
# A 400 about the response format, in the words OpenAI, vLLM (xgrammar, guidance, outlines)
# and llama.cpp use for it; a 400 about anything else (a context overflow) is no refusal.
_ABOUT_THE_FORMAT = re.compile(
    r"schema|response_format|json_object|grammar|guided|structured output", re.IGNORECASE
)
_NOTE_KEEP_CHARS = 200


class AnswerFormat(StrEnum):
    STRICT = "strict json_schema"
    LOOSE = "non-strict json_schema"
    JSON_MODE = "JSON mode"


LADDER = tuple(AnswerFormat)


def response_format(answer: type[BaseModel], form: AnswerFormat) -> dict[str, object]:
    """The `response_format` that asks for `answer` in `form`."""
    if form is AnswerFormat.JSON_MODE:
        return {"type": "json_object"}
    return {
        "type": "json_schema",
        "json_schema": {
            "name": answer.__name__,
            "schema": strict_schema(answer),
            "strict": form is AnswerFormat.STRICT,
        },
    }


def schema_instruction(answer: type[BaseModel]) -> str:
    """JSON mode's words for the schema the server no longer enforces."""
    schema = json.dumps(strict_schema(answer), ensure_ascii=False, separators=(",", ":"))
    return f"Answer with one JSON object and nothing else, fitting this JSON Schema: {schema}"


def refusal_of_format(err: Exception) -> str | None:
    """The server's words when `err` is its 400 to the response format (the schema) it was
    sent; None for any other error. (openai is imported here: the reports read STEPPED_DOWN
    without paying for the client.)"""
    import openai

    if not isinstance(err, openai.BadRequestError):
        return None
    if err.param == "response_format" or _ABOUT_THE_FORMAT.search(err.message):
        return err.message
    return None


class FormatLadder:
    """The answer format each model is asked in, shared by every game of the process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._forms: dict[str, AnswerFormat] = {}

    def current(self, server_model: str) -> AnswerFormat:
        """`server_model`: the model as this process knows it (its server and its name)."""
        with self._lock:
            return self._forms.get(server_model, AnswerFormat.STRICT)

    def after_refusal(
        self, server_model: str, refused: AnswerFormat
    ) -> tuple[AnswerFormat, bool] | None:
        """The format to ask again in after `refused` was refused, and whether this call
        stepped down (calls refused in a format another call already left only ask again);
        None when there is none below."""
        with self._lock:
            now = self._forms.get(server_model, AnswerFormat.STRICT)
            if now is not refused:
                return now, False
            lower = LADDER.index(refused) + 1
            if lower == len(LADDER):
                return None
            self._forms[server_model] = LADDER[lower]
            return LADDER[lower], True


def step_down_note(model: str, refused: AnswerFormat, now: AnswerFormat, refusal: str) -> str:
    """The record's note of a step down: the model's name (not its server's address) and the
    server's words, shortened and redacted (a server may echo the key)."""
    said = redact_secrets(" ".join(refusal.split())[:_NOTE_KEEP_CHARS])
    return f"{STEPPED_DOWN} from {refused} to {now} for {model}: {said}"


FORMATS = FormatLadder()
