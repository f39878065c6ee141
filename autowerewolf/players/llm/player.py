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
from autowerewolf.players.llm.schemas import answer_schema
from autowerewolf.prompts import decision_instruction, system_prompt
from autowerewolf.rules.config import GameConfig
from autowerewolf.rules.decisions import Action
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.random_play import random_action
from autowerewolf.rules.views import SeatView

log = logging.getLogger(__name__)


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
    except Exception as err:
        return CallOutcome(None, "", f"{type(err).__name__}: {err}", 0, 0, 0)
    raw_message = result.get("raw")
    raw = raw_message.content if isinstance(raw_message, AIMessage) else ""
    usage = usage_from_message(raw_message) if isinstance(raw_message, BaseMessage) else {}
    error = result.get("parsing_error")
    return CallOutcome(
        parsed=result.get("parsed"),
        raw=raw if isinstance(raw, str) else str(raw),
        error=f"{error}" if error else None,
        tokens_in=usage.get("prompt_tokens") or 0,
        tokens_out=usage.get("completion_tokens") or 0,
        cached_tokens=usage.get("cached_tokens") or 0,
    )


def _action(parsed: BaseModel | None, options: tuple[str, ...]) -> Action:
    if parsed is None:
        raise InvalidAnswer("the answer was not valid JSON for the schema")
    choice = getattr(parsed, "choice", None)
    if choice not in options:
        raise InvalidAnswer(f"choice {choice!r} is not one of: {', '.join(options)}")
    text = getattr(parsed, "speech", None) or getattr(parsed, "message", None) or ""
    return Action(option=choice, text=text.strip())


def option_labels(view: SeatView) -> dict[str, str]:
    """Names for seat options, marking the player itself and, for a wolf, its teammates."""
    labels = {}
    for player in view.players:
        note = player.name
        if player.seat == view.seat:
            note += ", you"
        elif player.seat in view.teammates:
            note += ", fellow wolf"
        labels[player.seat] = note
    return labels


class LLMPlayer:
    kind = "llm"

    def __init__(self, chat: BaseChatModel, model_name: str, config: GameConfig) -> None:
        self.chat = chat
        self.model_name = model_name
        self.config = config
        self.memory = SeatMemory()
        self._system: str | None = None

    def _system_prompt(self, request: DecisionRequest) -> str:
        if self._system is None:
            view = request.view
            self._system = system_prompt(
                self.config, view.seat, view.name, view.role, view.teammates
            )
        return self._system

    def decide(self, request: DecisionRequest) -> Answer:
        view = request.view
        new_lines = self.memory.update(view)
        step = request.decision.step.value
        attacked = next(
            (e.target for e in reversed(view.events) if e.kind is EventKind.WITCH_INFO), None
        )
        ledger = self.memory.ledger.render()
        tail = (
            (f"Facts you noted:\n{ledger}\n\n" if ledger else "")
            + f"Now, {view.seat}: "
            + decision_instruction(step, view.day, view.options, attacked, option_labels(view))
        )
        user = f"Game so far:\n{self.memory.transcript()}\n\n{tail}"
        messages: list[BaseMessage] = [
            SystemMessage(self._system_prompt(request)),
            HumanMessage(user),
        ]
        schema = answer_schema(step, view.options)
        started = time.perf_counter()
        tokens_in = tokens_out = cached = retries = 0
        errors: list[str] = []
        action: Action | None = None
        parsed: BaseModel | None = None
        raw = ""
        for attempt in range(2):
            outcome = _call(self.chat, schema, messages)
            tokens_in += outcome.tokens_in
            tokens_out += outcome.tokens_out
            cached += outcome.cached_tokens
            raw, parsed = outcome.raw, outcome.parsed
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
                        AIMessage(raw or "(no answer)"),
                        HumanMessage(
                            f"That answer was invalid: {err}. Answer again as JSON with "
                            f"'choice' one of: {', '.join(view.options)}."
                        ),
                    ]
        fallback = action is None
        if action is None:
            action = random_action(request.player_seed, request.decision, view.seat)
            log.warning(
                "%s %s: fallback to %s after %s",
                view.seat,
                request.decision.key,
                action.option,
                errors,
            )
        record = plain_record(
            request,
            self.kind,
            action,
            model=self.model_name,
            reasoning=getattr(parsed, "reasoning", None) if not fallback else None,
            prompt="\n".join(new_lines) + "\n\n" + tail,
            prompt_chars=sum(len(m.content) for m in messages[:2] if isinstance(m.content, str)),
            raw=raw,
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
