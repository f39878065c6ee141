"""`adaptive`: `estimator` plus Strategy Adaptation's Support/Attack choice (section 3.3) at
three moments a day: after the night, after the debate, after the exile vote. The latest
strategy shapes the seat's speeches and votes. `support` and `attack` are the paper's
fixed-strategy baselines: the same estimates, one strategy throughout, no choice asked.

A choice is asked when the seat next speaks or votes after a moment it has no strategy
for (so no call is spent on a moment the seat does not act in), and is kept as a note
record (step `strategy`, key `d<day>:<moment>`, `data` = {"strategy", "moment"}).
"""

from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel

from autowerewolf.players.agents.estimator import EstimatorAgent, latest
from autowerewolf.players.base import Answer, DecisionRequest
from autowerewolf.players.llm.calls import Calls
from autowerewolf.players.records import DecisionRecord
from autowerewolf.prompts import strategy as words
from autowerewolf.prompts.answers import Bounds
from autowerewolf.prompts.estimates import ROLE_ESTIMATES
from autowerewolf.rules.decisions import Action, Option
from autowerewolf.rules.discussion import EXILE_VOTE_STEPS
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.keys import DecisionKey, parse_key
from autowerewolf.rules.steps import takes_text
from autowerewolf.rules.views import SeatView

VOTE_STEPS = frozenset({*EXILE_VOTE_STEPS, "election_vote"})


def moment(view: SeatView, step: str) -> str | None:
    """The latest of the day's three moments the seat has reached, as a key of the decision
    keys' grammar (rules/keys.py): `d<day>:<moment>`."""
    day = view.day
    today = [e for e in view.events if e.day == day]
    if any(e.kind is EventKind.EXILE for e in today):
        name = "vote"
    elif step in EXILE_VOTE_STEPS:
        name = "debate"
    elif any(e.kind is EventKind.DAY_START for e in today):
        name = "night"
    else:
        return None
    return str(DecisionKey(night=False, day=day, step=name))


def shaped(step: str) -> bool:
    """Whether the strategy shapes this decision: speeches and votes."""
    return step in VOTE_STEPS or takes_text(step) == "speech"


class AdaptiveAgent(EstimatorAgent):
    fixed: str | None = None  # a fixed-strategy baseline's strategy

    def choose(
        self, request: DecisionRequest, at: str, notes: Sequence[str]
    ) -> Calls[DecisionRecord]:
        """Ask for the strategy at moment `at` (`d<day>:<moment>`), as a note record."""
        view = request.view
        at_moment = parse_key(at).step
        instruction = words.instruction(view.camp.value, view.day, at_moment)
        schema = words.strategy_schema(self.bounds.reasoning)
        exchange, prompt = yield from self.ask(
            view, instruction, schema, lambda p: {"strategy": p.model_dump()["strategy"]}, notes
        )
        # Two unusable answers: keep the previous strategy (support to begin with).
        data = exchange.value or {"strategy": self.current(request.history) or "support"}
        record = self.record(
            request,
            Action(option=Option.NONE.value),
            exchange,
            prompt,
            data={**data, "moment": at_moment},
            reasoning=getattr(exchange.parsed, "reasoning", None),
            valid=exchange.value is not None,
        )
        update = {"purpose": "note", "step": words.STRATEGY, "key": at, "options": ()}
        return record.model_copy(update=update)

    def current(self, history: Sequence[DecisionRecord]) -> str | None:
        found = latest(history, words.STRATEGY)
        return str(found.data["strategy"]) if found and found.data else None

    def play(self, request: DecisionRequest) -> Calls[Answer]:
        if request.step == ROLE_ESTIMATES:
            return (yield from self.estimate(request))
        notes, new, history = yield from self.notes_for(request)
        if shaped(request.step) and request.purpose == "decision":
            strategy = self.fixed
            at = moment(request.view, request.step)
            if strategy is None and at is not None:
                if not any(r.step == words.STRATEGY and r.key == at for r in history):
                    new.append((yield from self.choose(request, at, notes)))
                    history.append(new[-1])
                strategy = self.current(history)
            if strategy is not None:
                notes = [*notes, words.strategy_text(request.view.camp.value, strategy)]
        answer = yield from self.answer(request, notes)
        return Answer(answer.action, answer.record, (*new, *answer.notes))


class FixedStrategyAgent(AdaptiveAgent):
    def __init__(
        self, chat: BaseChatModel, model_name: str, bounds: Bounds, agent: str, strategy: str
    ) -> None:
        super().__init__(chat, model_name, bounds, agent)
        self.fixed = strategy
