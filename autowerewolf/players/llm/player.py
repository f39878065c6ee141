"""The LLM player: one prompt per question from the seat's own view, a structured answer,
one re-prompt on an invalid answer, then a seeded random legal fallback (or, for a role
estimate, no estimate), logged and recorded with what the model said.

The player keeps nothing between questions: every prompt is a pure function of the seat's
view (its memory, `memory.remember`) and of what an agent design adds from the seat's own
records, so a resumed or forked game prompts exactly as an uninterrupted one."""

import logging
import time
from collections.abc import Callable, Sequence
from typing import Any, get_args

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
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.simple import random_answer
from autowerewolf.prompts import estimates, speech_acts
from autowerewolf.prompts.answers import COMPACT, Bounds, answer_schema
from autowerewolf.prompts.question import NO_ANSWER, reprompt
from autowerewolf.prompts.recall import Memory
from autowerewolf.prompts.seat_prompt import (
    decision_question,
    prompt_messages,
    question_grounds,
)
from autowerewolf.prompts.second_look import second_look
from autowerewolf.prompts.table_rules import system_prompt
from autowerewolf.rules.decisions import Action, Option
from autowerewolf.rules.step_spec import TextKind
from autowerewolf.rules.views import SeatView

log = logging.getLogger(__name__)


def _choice(parsed: BaseModel, options: tuple[str, ...], seat: str) -> Action:
    choice = getattr(parsed, "choice", None)
    if not isinstance(choice, str) or choice not in options:
        raise InvalidAnswer(f"choice {choice!r} is not one of: {', '.join(options)}")
    acts = _acts(parsed)
    if acts and choice == Option.SPEAK:
        return Action(option=choice, text=speech_acts.render(acts, seat))
    ground = getattr(parsed, "because", None)
    if isinstance(ground, str):  # a structured speaker's whisper (prompts/answers.py)
        return Action(option=choice, text=speech_acts.render_whisper(choice, ground))
    text = getattr(parsed, "speech", None) or getattr(parsed, "message", None) or ""
    return Action(option=choice, text=text.strip())


def _offered(schema: type[BaseModel], options: tuple[str, ...]) -> tuple[str, ...]:
    """The choices `schema` allows (a second look may allow fewer than the view's
    `options`); `options` if it has no choice field."""
    choice = schema.model_fields.get("choice")
    return get_args(choice.annotation) if choice is not None else options


def _acts(parsed: BaseModel | None) -> list[dict[str, str]]:
    """A structured speech's acts, as the records keep them (prompts/speech_acts.py)."""
    acts = getattr(parsed, "acts", None) or []
    return speech_acts.spoken([a.model_dump() if isinstance(a, BaseModel) else a for a in acts])


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
        self._system: tuple[tuple[object, ...], str] | None = None

    def system_prompt(self, view: SeatView) -> str:
        """The seat's system prompt, built once for the seat's fixed facts: it is the same
        text on every call (prompts.table_rules.system_prompt), and building it anew for
        each of a question's two uses was a tenth of a simulated game's CPU."""
        key = (view.seat, view.name, view.role, view.teammates, view.rules)
        if self._system is None or self._system[0] != key:
            self._system = (key, system_prompt(view))
        return self._system[1]

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
        system = self.system_prompt(view)
        # The answer line asks for reasoning exactly when the schema has it (answer_schema).
        acts, reasoning = self.bounds.speech_acts, "reasoning" in schema.model_fields
        prompt = prompt_messages(
            view, instruction, notes, choices, memory, text, system, acts, reasoning
        )
        messages: list[BaseMessage] = [SystemMessage(prompt.system), HumanMessage(prompt.user)]
        exchange = Exchange(prompt_chars=len(prompt.system) + len(prompt.user))
        started = time.perf_counter()
        for attempt in range(2):
            outcome = yield schema, messages
            exchange.tokens_in += outcome.tokens_in
            exchange.timeouts += outcome.timeouts
            exchange.tokens_out += outcome.tokens_out
            exchange.cached_tokens += outcome.cached_tokens
            exchange.raws.append(outcome.raw)
            exchange.thinking.append(outcome.thinking)
            exchange.errors.extend(outcome.notes)
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
                        HumanMessage(reprompt(str(err), _offered(schema, view.options))),
                    ]
        exchange.latency_s = time.perf_counter() - started
        return exchange, prompt.tail

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
        asked = decision_question(view, request.step)
        memory, known, key, instruction, choices = (
            asked.memory, asked.known, asked.key, asked.instruction, asked.choices
        )  # fmt: skip
        notes = (*notes, *asked.notes)
        text = asked.text
        structured = self.bounds.speech_acts and text is not None
        grounds = question_grounds(view, asked) if structured else ()
        offered = (
            speech_acts.phrases(
                view.seat,
                view.role,
                [p.seat for p in view.players if p.alive],
                list(dict.fromkeys(r.value for r in view.rules.roles)),
                known.checks,
                sorted(known.saved),
                grounds,
            )
            if text == "speech" and self.bounds.speech_acts
            else ()
        )
        bounds = self.bounds.for_decision(key)
        schema = answer_schema(text, view.options, bounds, offered, grounds)
        exchange, prompt = yield from self.ask(
            view,
            instruction,
            schema,
            lambda p: _choice(p, view.options, view.seat),
            notes,
            choices,
            memory,
            text,
        )
        first = exchange.value if isinstance(exchange.value, Action) else None
        said = _acts(exchange.parsed)
        shown = f"{self.system_prompt(view)}\n{prompt}"  # what the model read: copies are checked
        # A structured answer's text is the renderer's words around the model's choices (an
        # act, a ground): only its acts are judged, as the words are not the model's.
        free = first.text if first and not structured else ""
        look = second_look(view, known, key, first.option, free, said, shown) if first else None
        second = self.reconsiders and self.bounds.second_look and request.purpose == "decision"
        if first and look and second:
            # Small models often pick a teammate or themselves by copying a seat they read,
            # or answer as an assistant that refuses: such an answer is asked once more.
            again, prompt = yield from self.ask(
                view,
                instruction,
                answer_schema(text, look.options, bounds, offered, grounds),
                lambda p: _choice(p, look.options, view.seat),
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
        acts = _acts(exchange.parsed) if not fallback else []
        ground = getattr(exchange.parsed, "because", None) if not fallback else None
        data = {"acts": acts} if acts else {"because": ground} if ground else None
        record = self.record(
            request,
            action,
            exchange,
            prompt,
            reasoning=getattr(exchange.parsed, "reasoning", None),
            valid=not fallback,
            data=data,
            harness=bounds.harness(),
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
            request,
            action,
            exchange,
            prompt,
            data=exchange.value,
            valid=exchange.value is not None,
            harness=self.bounds.harness(),
        )
        return Answer(action=action, record=record)
