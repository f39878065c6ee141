"""The LLM player: one prompt per question from the seat's own view, a structured answer,
one re-prompt on an invalid answer, then a seeded random legal fallback (or, for a role
estimate, no estimate), logged and recorded with what the model said.

The player keeps nothing between questions: every prompt is a pure function of the seat's
view (its memory, `memory.remember`) and of what an agent design adds from the seat's own
records, so a resumed or forked game prompts exactly as an uninterrupted one."""

import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel

from autowerewolf.players.base import Answer, DecisionRequest, plain_record
from autowerewolf.players.llm.calls import (
    RAW_KEEP_CHARS,
    Calls,
    Exchange,
    InvalidAnswer,
    arun_calls,
    run_calls,
)
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
        return run_calls(self.play(request), self.chat)

    async def adecide(self, request: DecisionRequest) -> Answer:
        return await arun_calls(self.play(request), self.chat)

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
