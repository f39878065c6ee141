"""The LLM player: one prompt per question from the seat's own view, a structured answer,
one re-prompt on an invalid answer, then a seeded random legal fallback (or, for a role
estimate, no estimate), logged and recorded with what the model said.

The player keeps nothing between questions: every prompt is a pure function of the seat's
view (its memory, `memory.remember`) and of what an agent design adds from the seat's own
records, so a resumed or forked game prompts exactly as an uninterrupted one."""

import logging
import time
import warnings
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel

from autowerewolf.backends.gate import ModelUnavailable
from autowerewolf.backends.redact import redact_secrets
from autowerewolf.backends.usage import usage_from_message
from autowerewolf.players.base import Answer, DecisionRequest, plain_record
from autowerewolf.players.llm.memory import Memory, remember
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.simple import random_answer
from autowerewolf.prompts import estimates
from autowerewolf.prompts.answers import COMPACT, Bounds, answer_schema
from autowerewolf.prompts.player import (
    NO_ANSWER,
    Known,
    attacked_seat,
    choices_text,
    decision_instruction,
    decision_message,
    decision_tail,
    explosion_note,
    identity_line,
    ledger_text,
    memory_text,
    prompt_key,
    reprompt,
    system_prompt,
)
from autowerewolf.prompts.second_look import second_look
from autowerewolf.rules.decisions import Action, Option
from autowerewolf.rules.steps import TextKind, takes_text
from autowerewolf.rules.views import SeatView

log = logging.getLogger(__name__)
# LangChain's structured-output chain declares its parsed answer as None and pydantic warns
# on every answer while serializing it; the answer itself is checked here (_choice).
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
        thinking=thinking_of(raw_message) if isinstance(raw_message, BaseMessage) else "",
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
    thinking: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    retries: int = 0
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
    """The `plain` agent design, and the model caller every LLM agent design builds on."""

    kind = "llm"
    # Ask once more when a legal answer works against the seat's own side (docs/agents.md).
    reconsiders = True

    def __init__(
        self, chat: BaseChatModel, model_name: str, bounds: Bounds = COMPACT, agent: str = "plain"
    ) -> None:
        self.chat = chat
        self.model_name = model_name
        self.bounds = bounds
        self.agent = agent

    def ask(
        self,
        view: SeatView,
        instruction: str,
        schema: type[BaseModel],
        read: Callable[[BaseModel], Any],
        notes: Sequence[str] = (),
        choices: str = "",
        memory: Memory | None = None,
        text: TextKind | None = None,
    ) -> Calls[tuple[Exchange, str]]:
        """Ask one question: returns the exchange (with `read(parsed)` as its value, or None
        after two invalid answers) and the prompt's question part (its tail), for the record.
        `notes` are the agent design's additions (estimates, strategy, experiences)."""
        memory = memory or remember(view)
        ledger = memory.ledger
        noted = ledger_text(
            view.seat,
            [(f.kind, f.seat, f.value, f.day) for f in ledger.facts],
            [(s, f.value, f.day) for s, f in ledger.claims.items()],
            ledger.votes,
            memory.verbatim_day,
        )
        tail = decision_tail(identity_line(view), noted, notes, instruction, choices, text)
        system = system_prompt(view)
        messages: list[BaseMessage] = [
            SystemMessage(system),
            HumanMessage(decision_message(memory_text(memory.digest, memory.recent), tail)),
        ]
        exchange = Exchange(prompt_chars=len(system) + len(str(messages[1].content)))
        started = time.perf_counter()
        for attempt in range(2):
            outcome = yield schema, messages
            exchange.tokens_in += outcome.tokens_in
            exchange.tokens_out += outcome.tokens_out
            exchange.cached_tokens += outcome.cached_tokens
            exchange.raws.append(outcome.raw)
            exchange.thinking.append(outcome.thinking)
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
        return exchange, tail

    def decide(self, request: DecisionRequest) -> Answer:
        return _run(self.play(request), self.chat)

    async def adecide(self, request: DecisionRequest) -> Answer:
        return await _arun(self.play(request), self.chat)

    def play(self, request: DecisionRequest) -> Calls[Answer]:
        """How the design answers a request, as model calls (`decide` makes them one by one,
        `adecide` awaits them): the plain design asks the question as it is."""
        if request.step == estimates.ROLE_ESTIMATES:
            return (yield from self.estimate(request))
        return (yield from self.answer(request))

    def answer(self, request: DecisionRequest, notes: Sequence[str] = ()) -> Calls[Answer]:
        """A game decision (or a choice probe), with the agent design's `notes` in the prompt."""
        view = request.view
        memory = remember(view)
        attacked = attacked_seat(view)
        attacked = "you" if attacked == view.seat else attacked
        key = prompt_key(request.step)
        instruction = decision_instruction(key, view.day, attacked)
        known = Known(
            checks=memory.ledger.checks(),
            claims={s: f.value for s, f in memory.ledger.claims.items()},
            saved=memory.ledger.saved(),
        )
        choices = choices_text(view, key, known)
        explosion = explosion_note(view)
        notes = (*notes, explosion) if explosion else notes
        text = takes_text(request.step)
        schema = answer_schema(text, view.options, self.bounds)
        exchange, prompt = yield from self.ask(
            view,
            instruction,
            schema,
            lambda p: _choice(p, view.options),
            notes,
            choices,
            memory,
            text,
        )
        first = exchange.value if isinstance(exchange.value, Action) else None
        look = second_look(view, known, key, first.option, first.text) if first else None
        if first and look and self.reconsiders and request.purpose == "decision":
            # Small models often pick a teammate or themselves by copying a seat they read,
            # or answer as an assistant that refuses: such an answer is asked once more.
            again, prompt = yield from self.ask(
                view,
                instruction,
                schema,
                lambda p: _choice(p, view.options),
                (*notes, look.note),
                choices,
                memory,
                text,
            )
            exchange = exchange.then(again, f"reconsidered {first.option} ({look.reason})")
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
        record = self.record(
            request,
            action,
            exchange,
            prompt,
            reasoning=getattr(exchange.parsed, "reasoning", None),
            valid=not fallback,
        )
        return Answer(action=action, record=record)

    def record(
        self,
        request: DecisionRequest,
        action: Action,
        exchange: Exchange,
        prompt: str,
        *,
        valid: bool,
        **fields: Any,
    ) -> DecisionRecord:
        """The record of one question this design asked: what it asked, what came back and
        what it cost; an invalid answer is a fallback."""
        return plain_record(
            request,
            self.kind,
            action,
            agent=self.agent,
            model=self.model_name,
            prompt=prompt,
            valid=valid,
            fallback=not valid,
            **fields,
            **exchange.record_fields(),
        )

    def estimate(self, request: DecisionRequest) -> Calls[Answer]:
        """The role-estimate question; after two invalid answers there is no estimate."""
        view = request.view
        targets, roles = estimates.targets_of(view), estimates.roles_of(view)
        instruction = estimates.instruction(view.day, targets, roles)
        schema = estimates.estimates_schema(targets, roles)
        exchange, prompt = yield from self.ask(
            view, instruction, schema, lambda p: estimates.estimates_data(p, roles)
        )
        action = Action(option=Option.NONE.value)
        record = self.record(
            request, action, exchange, prompt, data=exchange.value, valid=exchange.value is not None
        )
        return Answer(action=action, record=record)
