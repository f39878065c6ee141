"""`estimator`: before chosen decisions, a private role estimate of every other living seat
(Strategy Adaptation, section 3.2: evidence, then 0-4 per role); the latest estimate enters
the seat's later prompts.

Estimates are made after the day's debate (before the first exile vote of each day, or the
seat's ballot in a roll call) and
before the seat's first night action from Night 2 on. The estimate is a note record (step
`role_estimates`, the decision's key, the estimate in `data` as `estimates_data` gives it),
kept with the decision, so a resumed or forked game reads the same estimates; the
`role_estimates` probe counts such a note made at its own point instead of asking again.
"""

from collections.abc import Sequence

from autowerewolf.players.base import Answer, DecisionRequest
from autowerewolf.players.llm.calls import Calls
from autowerewolf.players.llm.player import LLMPlayer
from autowerewolf.players.records import DecisionRecord
from autowerewolf.prompts.estimates import ROLE_ESTIMATES, estimates_note
from autowerewolf.rules.decisions import Option
from autowerewolf.rules.discussion import EXILE_VOTE_STEPS
from autowerewolf.rules.keys import DecisionKey, parse_key
from autowerewolf.rules.state import Step
from autowerewolf.rules.step_spec import StepKind
from autowerewolf.rules.steps import steps_where

NIGHT_STEPS = steps_where(lambda entry: entry.kind is StepKind.NIGHT and entry.decides)


def latest(history: Sequence[DecisionRecord], step: str) -> DecisionRecord | None:
    """The seat's latest note of `step` that holds data."""
    return next(
        (r for r in reversed(history) if r.purpose == "note" and r.step == step and r.data),
        None,
    )


def estimates_due(request: DecisionRequest) -> bool:
    """Whether this decision is one the seat estimates roles before."""
    if request.purpose != "decision":
        return False
    day, history = request.view.day, request.history
    done = {r.key for r in history if r.step == ROLE_ESTIMATES and r.purpose == "note"}
    first_vote = request.step == Step.EXILE_ROLL_CALL or parse_key(request.key).round == 1
    if request.step in EXILE_VOTE_STEPS and first_vote:
        return request.key not in done
    if request.step in NIGHT_STEPS and day > 1:
        return not any(_is_night(parse_key(key), day) for key in done)
    return False


def _is_night(key: DecisionKey, day: int) -> bool:
    return key.night and key.day == day


class EstimatorAgent(LLMPlayer):
    def estimate_note(self, request: DecisionRequest) -> Calls[DecisionRecord]:
        """A role estimate made for this decision, as a note record."""
        answer = yield from self.estimate(request)
        return answer.record.model_copy(
            update={
                "purpose": "note",
                "step": ROLE_ESTIMATES,
                "options": (),
                "option": Option.NONE.value,
            }
        )

    def notes_for(
        self, request: DecisionRequest
    ) -> Calls[tuple[list[str], list[DecisionRecord], list[DecisionRecord]]]:
        """The prompt notes, the new note records, and the seat's history with them."""
        history = list(request.history)
        new: list[DecisionRecord] = []
        if estimates_due(request):
            new.append((yield from self.estimate_note(request)))
            history.append(new[-1])
        found = latest(history, ROLE_ESTIMATES)
        text = [estimates_note(found.data, found.day)] if found and found.data else []
        return text, new, history

    def play(self, request: DecisionRequest) -> Calls[Answer]:
        if request.step == ROLE_ESTIMATES:
            return (yield from self.estimate(request))
        text, new, _ = yield from self.notes_for(request)
        answer = yield from self.answer(request, text)
        return Answer(answer.action, answer.record, (*new, *answer.notes))
