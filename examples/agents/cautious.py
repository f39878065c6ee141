"""An example plug-in agent design: a seat that asks the model like `plain` but never votes
to exile anyone it has not heard accused by at least two other players (it abstains).

Play it with

    autowerewolf play --agent P03=python:examples.agents.cautious:CautiousVoter

(from the repository root, so `examples` is importable), or install a package whose
`pyproject.toml` declares it under the `autowerewolf.agents` entry point group:

    [project.entry-points."autowerewolf.agents"]
    cautious = "my_package.cautious:CautiousVoter"

and play `--agent cautious`. A plug-in class is built with one `AgentContext` (the seat's
chat model, model name, answer bounds and design name) and implements the player interface
of autowerewolf/players/base.py: `kind` and `decide(request) -> Answer`. It sees only its
seat's view and its own earlier records; anything it must remember goes in its records'
`data` or in notes it returns with its answer.
"""

from collections import Counter

from autowerewolf.players.agents.registry import AgentContext
from autowerewolf.players.base import Answer, DecisionRequest, plain_record
from autowerewolf.players.llm.player import LLMPlayer
from autowerewolf.rules.decisions import Action, Option
from autowerewolf.rules.events import EventKind

MIN_ACCUSERS = 2


class CautiousVoter:
    kind = "llm"

    def __init__(self, context: AgentContext) -> None:
        self.llm = LLMPlayer(context.chat, context.model_name, context.bounds, context.agent)

    def decide(self, request: DecisionRequest) -> Answer:
        answer = self.llm.decide(request)
        if request.step != "exile_vote" or answer.action.option == Option.ABSTAIN:
            return answer
        target = answer.action.option
        accusers = Counter(
            e.actor
            for e in request.view.events
            if e.kind is EventKind.SPEECH and e.day == request.view.day and target in (e.text or "")
        )
        accusers.pop(request.seat, None)
        if len(accusers) >= MIN_ACCUSERS or Option.ABSTAIN not in request.options:
            return answer
        action = Action(option=Option.ABSTAIN.value)
        note = plain_record(
            request,
            self.kind,
            action,
            data={"model_choice": target, "accusers": sorted(a for a in accusers if a)},
        ).model_copy(update={"purpose": "note", "step": "cautious_vote"})
        record = answer.record.model_copy(update={"option": action.option})
        return Answer(action, record, (*answer.notes, note))
