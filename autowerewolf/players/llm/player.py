"""The LLM player: one prompt per decision from the seat's own view, a structured answer,
one re-prompt on an invalid answer, then a seeded random legal fallback."""

import logging
import time
from dataclasses import dataclass

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel

from autowerewolf.backends.usage import usage_from_message
from autowerewolf.players.base import Answer, DecisionRequest, plain_record
from autowerewolf.players.llm.memory import SeatMemory
from autowerewolf.players.simple import random_answer
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
from autowerewolf.rules.decisions import Action
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.steps import spec, takes_text

log = logging.getLogger(__name__)
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


def _call(chat: BaseChatModel, schema: type[BaseModel], messages: list[BaseMessage]) -> CallOutcome:
    structured = chat.with_structured_output(schema, method="json_schema", include_raw=True)
    try:
        result = structured.invoke(messages)
    except Exception as err:  # a model call may fail in any way: it becomes a recorded retry
        return CallOutcome(None, "", f"{type(err).__name__}: {err}", 0, 0, 0)
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
        tokens_in=(usage or {}).get("prompt_tokens") or 0,
        tokens_out=(usage or {}).get("completion_tokens") or 0,
        cached_tokens=(usage or {}).get("cached_tokens") or 0,
    )


def _action(parsed: BaseModel | None, options: tuple[str, ...]) -> Action:
    if parsed is None:
        raise InvalidAnswer("the answer was not valid JSON for the schema")
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

    def decide(self, request: DecisionRequest) -> Answer:
        view = request.view
        if self.memory is None or self._system is None:
            self.memory = SeatMemory(reader=view.seat)
            self._system = system_prompt(view)
        new_lines = self.memory.update(view)
        attacked = next(
            (e.target for e in reversed(view.events) if e.kind is EventKind.WITCH_INFO), None
        )
        ledger = self.memory.ledger
        noted = ledger_text(
            [(f.kind, f.seat, f.value, f.day) for f in ledger.facts],
            [(s, f.value, f.day) for s, f in ledger.claims.items()],
            ledger.votes,
        )
        prompt_key = spec(request.step).prompt or request.step
        instruction = decision_instruction(
            prompt_key, view.day, view.options, attacked, option_labels(view)
        )
        tail = decision_tail(noted, instruction)
        memory = memory_text(self.memory.digest, (line for _, line in self.memory.recent))
        messages: list[BaseMessage] = [
            SystemMessage(self._system),
            HumanMessage(decision_message(memory, tail)),
        ]
        schema = answer_schema(takes_text(request.step), view.options)
        started = time.perf_counter()
        tokens_in = tokens_out = cached = retries = 0
        errors: list[str] = []
        raws: list[str] = []
        action: Action | None = None
        parsed: BaseModel | None = None
        for attempt in range(2):
            outcome = _call(self.chat, schema, messages)
            tokens_in += outcome.tokens_in
            tokens_out += outcome.tokens_out
            cached += outcome.cached_tokens
            raws.append(outcome.raw)
            parsed = outcome.parsed
            try:
                if outcome.error and parsed is None:
                    raise InvalidAnswer(outcome.error.splitlines()[0][:300])
                action = _action(parsed, view.options)
                break
            except InvalidAnswer as err:
                errors.append(str(err))
                if attempt == 0:
                    retries = 1
                    # Appended at the end, so the cached prompt prefix is reused.
                    messages += [
                        AIMessage(outcome.raw[:RAW_KEEP_CHARS] or NO_ANSWER),
                        HumanMessage(reprompt(str(err), view.options)),
                    ]
        fallback = action is None
        if action is None:
            action = random_answer(request)
            log.warning(
                "%s %s: fallback to %s after %s", view.seat, request.key, action.option, errors
            )
        record = plain_record(
            request,
            self.kind,
            action,
            model=self.model_name,
            reasoning=getattr(parsed, "reasoning", None) if not fallback else None,
            prompt="\n".join(new_lines) + "\n\n" + tail,
            prompt_chars=sum(len(m.content) for m in messages[:2] if isinstance(m.content, str)),
            raw="\n---\n".join(r[:RAW_KEEP_CHARS] for r in raws if r) or None,
            valid=not fallback,
            retries=retries,
            fallback=fallback,
            error="; ".join(errors) or None,
            tokens_in=tokens_in,
            tokens_out=tokens_out,
            cached_tokens=cached,
            latency_s=round(time.perf_counter() - started, 3),
        )
        return Answer(action=action, record=record)
