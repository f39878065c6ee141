"""One question's model calls: an LLM design's questions are generators that yield each
call (schema, messages) and are sent its outcome, so `decide` (`run_calls`) and `adecide`
(`arun_calls`) share every line but the call; `Exchange` sums one question's calls."""

import warnings
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from pydantic import BaseModel

from autowerewolf.backends.answer_format import ANSWER_NOTES, ANSWER_TIMEOUTS
from autowerewolf.backends.call_error import ModelCallError
from autowerewolf.backends.gate import ModelUnavailable
from autowerewolf.backends.redact import redact_secrets
from autowerewolf.backends.usage import usage_from_message

# LangChain's structured-output chain declares its parsed answer as None and pydantic warns
# on every answer while serializing it; the answer itself is checked by the player (player.py).
warnings.filterwarnings(
    "ignore", message="Pydantic serializer warnings", category=UserWarning, module="pydantic"
)
T = TypeVar("T")
# What is kept of an unparseable answer, for audits.
RAW_KEEP_CHARS = 2000
# What is kept of a reasoning model's separate reasoning content (private to the seat).
THINKING_KEEP_CHARS = 8000


class InvalidAnswer(ValueError):
    pass


@dataclass
class CallOutcome:
    parsed: BaseModel | None
    raw: str
    error: str | None
    tokens_in: int
    tokens_out: int
    cached_tokens: int
    thinking: str = ""
    # The backend's notes on the answer (a text cut to its bound, the format stepped down).
    notes: tuple[str, ...] = ()
    timeouts: int = 0  # attempts that timed out before this answer came


def thinking_of(message: BaseMessage) -> str:
    """A reasoning model's separate reasoning content, if the server returned any."""
    found = message.additional_kwargs.get("reasoning_content")
    if isinstance(found, str):
        return found
    if isinstance(message.content, list):
        return "".join(
            str(block.get("thinking") or block.get("reasoning") or "")
            for block in message.content
            if isinstance(block, dict) and block.get("type") in ("thinking", "reasoning")
        )
    return ""


def _failed(err: Exception) -> CallOutcome:
    """A failed call becomes a recorded retry; an unusable server ends the game (gate.py)."""
    if isinstance(err, ModelUnavailable):
        raise err
    # Stored, logged and re-prompted: a server may have echoed the key into it.
    error = redact_secrets(f"{type(err).__name__}: {err}")
    if isinstance(err, ModelCallError) and err.answer is not None:
        # The server answered, but not to the schema: keep its answer and what it cost.
        return _outcome({"raw": err.answer, "parsed": None, "parsing_error": error})
    notes = err.notes if isinstance(err, ModelCallError) else ()
    return CallOutcome(None, "", error, 0, 0, 0, notes=notes)


def _outcome(result: Any) -> CallOutcome:
    assert isinstance(result, dict)
    raw_message = result.get("raw")
    raw = raw_message.content if isinstance(raw_message, AIMessage) else ""
    usage = usage_from_message(raw_message) if isinstance(raw_message, BaseMessage) else None
    error = result.get("parsing_error")
    parsed = result.get("parsed")
    return CallOutcome(
        parsed=parsed if isinstance(parsed, BaseModel) else None,
        raw=raw if isinstance(raw, str) else str(raw),
        error=f"{error}" if error else None,
        tokens_in=(usage["prompt_tokens"] if usage else None) or 0,
        tokens_out=(usage["completion_tokens"] if usage else None) or 0,
        cached_tokens=(usage["cached_tokens"] if usage else None) or 0,
        thinking=thinking_of(raw_message) if isinstance(raw_message, BaseMessage) else "",
        notes=tuple(raw_message.additional_kwargs.get(ANSWER_NOTES) or ())
        if isinstance(raw_message, BaseMessage)
        else (),
        timeouts=int(raw_message.additional_kwargs.get(ANSWER_TIMEOUTS) or 0)
        if isinstance(raw_message, BaseMessage)
        else 0,
    )


def _call(chat: BaseChatModel, schema: type[BaseModel], messages: list[BaseMessage]) -> CallOutcome:
    structured = chat.with_structured_output(schema, method="json_schema", include_raw=True)
    try:
        result = structured.invoke(messages)
    except Exception as err:  # a model call may fail in any way: it becomes a recorded retry
        return _failed(err)
    return _outcome(result)


async def _acall(
    chat: BaseChatModel, schema: type[BaseModel], messages: list[BaseMessage]
) -> CallOutcome:
    structured = chat.with_structured_output(schema, method="json_schema", include_raw=True)
    try:
        result = await structured.ainvoke(messages)
    except Exception as err:
        return _failed(err)
    return _outcome(result)


# A question's model calls as a generator: it yields (schema, messages) for each call and
# is sent the call's outcome, so `decide` and `adecide` share every line but the call.
Calls = Generator[tuple[type[BaseModel], list[BaseMessage]], CallOutcome, T]


def run_calls(calls: Calls[T], chat: BaseChatModel) -> T:
    try:
        request = next(calls)
        while True:
            request = calls.send(_call(chat, *request))
    except StopIteration as done:
        return cast(T, done.value)


async def arun_calls(calls: Calls[T], chat: BaseChatModel) -> T:
    try:
        request = next(calls)
        while True:
            request = calls.send(await _acall(chat, *request))
    except StopIteration as done:
        return cast(T, done.value)


@dataclass
class Exchange:
    """One question's calls: the parsed answer (None if both attempts failed) and its cost."""

    parsed: BaseModel | None = None
    value: Any = None
    raws: list[str] = field(default_factory=list)
    thinking: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    retries: int = 0
    timeouts: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cached_tokens: int = 0
    prompt_chars: int = 0
    latency_s: float = 0.0

    def then(self, second: "Exchange", note: str) -> "Exchange":
        """This question asked again (`second`): its answer if it gave one, both costs."""
        answered = second.value is not None
        return Exchange(
            parsed=second.parsed if answered else self.parsed,
            value=second.value if answered else self.value,
            raws=[*self.raws, *second.raws],
            thinking=[*self.thinking, *second.thinking],
            errors=[*self.errors, note, *second.errors],
            retries=self.retries + second.retries,  # re-prompts after invalid answers
            timeouts=self.timeouts + second.timeouts,
            tokens_in=self.tokens_in + second.tokens_in,
            tokens_out=self.tokens_out + second.tokens_out,
            cached_tokens=self.cached_tokens + second.cached_tokens,
            prompt_chars=self.prompt_chars + second.prompt_chars,
            latency_s=self.latency_s + second.latency_s,
        )

    def record_fields(self) -> dict[str, Any]:
        return {
            "raw": "\n---\n".join(r[:RAW_KEEP_CHARS] for r in self.raws if r) or None,
            "thinking": "\n---\n".join(t[:THINKING_KEEP_CHARS] for t in self.thinking if t) or None,
            "retries": self.retries,
            "timeouts": self.timeouts,
            "error": "; ".join(self.errors) or None,
            "tokens_in": self.tokens_in,
            "tokens_out": self.tokens_out,
            "cached_tokens": self.cached_tokens,
            "prompt_chars": self.prompt_chars,
            "latency_s": round(self.latency_s, 3),
        }
