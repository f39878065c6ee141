"""The LLM player: one prompt per question from the seat's own view, a structured answer,
one re-prompt on an invalid answer, then a seeded random legal fallback (or, for a role
estimate, no estimate), logged and recorded with what the model said."""

import logging
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel

from autowerewolf.backends.gate import ModelUnavailable
from autowerewolf.backends.redact import redact_secrets
from autowerewolf.backends.usage import usage_from_message
from autowerewolf.players.base import Answer, DecisionRequest, plain_record
from autowerewolf.players.llm.memory import SeatMemory
from autowerewolf.players.simple import random_answer
from autowerewolf.prompts import estimates
from autowerewolf.prompts.answers import answer_schema
from autowerewolf.prompts.player import (
    NO_ANSWER,
    decision_instruction,
    decision_message,
    decision_tail,
    ledger_text,
    memory_text,
    option_labels,
    reprompt,
    system_prompt,
)
from autowerewolf.rules.decisions import Action, Option
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.steps import STEPS, takes_text
from autowerewolf.rules.views import SeatView

log = logging.getLogger(__name__)
T = TypeVar("T")
# What is kept of an unparseable answer, for audits.
RAW_KEEP_CHARS = 2000


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


def _failed(err: Exception) -> CallOutcome:
    """A failed call becomes a recorded retry; an unusable server ends the game (gate.py)."""
    if isinstance(err, ModelUnavailable):
        raise err
    # Stored, logged and re-prompted: a server may have echoed the key into it.
    return CallOutcome(None, "", redact_secrets(f"{type(err).__name__}: {err}"), 0, 0, 0)


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


def _run(calls: Calls[T], chat: BaseChatModel) -> T:
    try:
        request = next(calls)
        while True:
            request = calls.send(_call(chat, *request))
    except StopIteration as done:
        return cast(T, done.value)


async def _arun(calls: Calls[T], chat: BaseChatModel) -> T:
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
    errors: list[str] = field(default_factory=list)
    retries: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cached_tokens: int = 0
    prompt_chars: int = 0
    latency_s: float = 0.0

    def record_fields(self) -> dict[str, Any]:
        return {
            "raw": "\n---\n".join(r[:RAW_KEEP_CHARS] for r in self.raws if r) or None,
            "retries": self.retries,
            "error": "; ".join(self.errors) or None,
            "tokens_in": self.tokens_in,
            "tokens_out": self.tokens_out,
            "cached_tokens": self.cached_tokens,
            "prompt_chars": self.prompt_chars,
            "latency_s": round(self.latency_s, 3),
        }


def _choice(parsed: BaseModel, options: tuple[str, ...]) -> Action:
    choice = getattr(parsed, "choice", None)
    if not isinstance(choice, str) or choice not in options:
        raise InvalidAnswer(f"choice {choice!r} is not one of: {', '.join(options)}")
    text = getattr(parsed, "speech", None) or getattr(parsed, "message", None) or ""
    return Action(option=choice, text=text.strip())


class LLMPlayer:
    kind = "llm"

    def __init__(self, chat: BaseChatModel, model_name: str) -> None:
        self.chat = chat
        self.model_name = model_name
        self.memory: SeatMemory | None = None
        self._system: str | None = None

    def _remember(self, view: SeatView) -> tuple[SeatMemory, list[str], str]:
        """The seat's memory brought up to date: (memory, its new lines, noted facts)."""
        if self.memory is None or self._system is None:
            self.memory = SeatMemory(reader=view.seat)
            self._system = system_prompt(view)
        new_lines = self.memory.update(view)
        ledger = self.memory.ledger
        noted = ledger_text(
            [(f.kind, f.seat, f.value, f.day) for f in ledger.facts],
            [(s, f.value, f.day) for s, f in ledger.claims.items()],
            ledger.votes,
        )
        return self.memory, new_lines, noted

    def ask(
        self,
        view: SeatView,
        instruction: str,
        schema: type[BaseModel],
        read: Callable[[BaseModel], Any],
    ) -> Calls[tuple[Exchange, str]]:
        """Ask one question: returns the exchange (with `read(parsed)` as its value, or None
        after two invalid answers) and the prompt's new part, for the record."""
        memory, new_lines, noted = self._remember(view)
        assert self._system is not None
        tail = decision_tail(noted, instruction)
        transcript = memory_text(memory.digest, (line for _, line in memory.recent))
        messages: list[BaseMessage] = [
            SystemMessage(self._system),
            HumanMessage(decision_message(transcript, tail)),
        ]
        exchange = Exchange(prompt_chars=len(self._system) + len(str(messages[1].content)))
        started = time.perf_counter()
        for attempt in range(2):
            outcome = yield schema, messages
            exchange.tokens_in += outcome.tokens_in
            exchange.tokens_out += outcome.tokens_out
            exchange.cached_tokens += outcome.cached_tokens
            exchange.raws.append(outcome.raw)
            try:
                if outcome.parsed is None:
                    problem = outcome.error or "the answer was not valid JSON for the schema"
                    raise InvalidAnswer(problem.splitlines()[0][:300])
                exchange.value = read(outcome.parsed)
                exchange.parsed = outcome.parsed
                break
            except InvalidAnswer as err:
                exchange.errors.append(str(err))
                if attempt == 0:
                    exchange.retries = 1
                    # Appended at the end, so the cached prompt prefix is reused.
                    messages += [
                        AIMessage(outcome.raw[:RAW_KEEP_CHARS] or NO_ANSWER),
                        HumanMessage(reprompt(str(err), view.options)),
                    ]
        exchange.latency_s = time.perf_counter() - started
        return exchange, "\n".join(new_lines) + "\n\n" + tail

    def decide(self, request: DecisionRequest) -> Answer:
        return _run(self._answer(request), self.chat)

    async def adecide(self, request: DecisionRequest) -> Answer:
        return await _arun(self._answer(request), self.chat)

    def _answer(self, request: DecisionRequest) -> Calls[Answer]:
        if request.step == estimates.ROLE_ESTIMATES:
            return (yield from self.estimate(request))
        view = request.view
        attacked = next(
            (e.target for e in reversed(view.events) if e.kind is EventKind.WITCH_INFO), None
        )
        step = STEPS.get(request.step)
        prompt_key = step.prompt if step is not None and step.prompt else request.step
        instruction = decision_instruction(
            prompt_key, view.day, view.options, attacked, option_labels(view)
        )
        schema = answer_schema(takes_text(request.step), view.options)
        exchange, prompt = yield from self.ask(
            view, instruction, schema, lambda p: _choice(p, view.options)
        )
        action = exchange.value if isinstance(exchange.value, Action) else None
        fallback = action is None
        if action is None:
            action = random_answer(request)
            log.warning(
                "%s %s: fallback to %s after %s",
                view.seat,
                request.key,
                action.option,
                exchange.errors,
            )
        record = plain_record(
            request,
            self.kind,
            action,
            model=self.model_name,
            reasoning=getattr(exchange.parsed, "reasoning", None),
            prompt=prompt,
            valid=not fallback,
            fallback=fallback,
            **exchange.record_fields(),
        )
        return Answer(action=action, record=record)

    def estimate(self, request: DecisionRequest) -> Calls[Answer]:
        """The role-estimate question; after two invalid answers there is no estimate."""
        view = request.view
        targets = tuple(p.seat for p in view.players if p.alive and p.seat != view.seat)
        roles = tuple(dict.fromkeys(r.value for r in view.rules.roles))
        instruction = estimates.instruction(view.day, targets, roles)
        schema = estimates.estimates_schema(targets, roles)
        exchange, prompt = yield from self.ask(
            view, instruction, schema, lambda p: estimates.estimates_data(p, roles)
        )
        action = Action(option=Option.NONE.value)
        record = plain_record(
            request,
            self.kind,
            action,
            model=self.model_name,
            data=exchange.value,
            prompt=prompt,
            valid=exchange.value is not None,
            fallback=exchange.value is None,
            **exchange.record_fields(),
        )
        return Answer(action=action, record=record)
