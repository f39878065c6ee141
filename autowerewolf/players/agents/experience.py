"""`experience` (WereWolf-Plus, section 3.1): before each exile vote, the seat's situation
is compared with the situations stored in the experience pool for its role, and the most
rewarded of the most similar ones are shown with what was done there and how it ended.

The retrieval is a note record (step `experience`, the vote's key; `data`: the situation,
the experiences retrieved with their scores, and the lookup's latency), kept with the vote:
the analysis sees exactly what the seat was shown. After the game, the notes and the
ballots become the pool's new rows (`pool.harvest`), unless the pool is frozen.
"""

import time
from collections import Counter

from langchain_core.language_models import BaseChatModel

from autowerewolf.players.agents.pool import ExperiencePool, retrieval_data
from autowerewolf.players.base import Answer, DecisionRequest, plain_record
from autowerewolf.players.llm.calls import Calls
from autowerewolf.players.llm.player import LLMPlayer
from autowerewolf.players.records import DecisionRecord
from autowerewolf.prompts import experience as words
from autowerewolf.prompts.answers import Bounds
from autowerewolf.prompts.recall import remember
from autowerewolf.rules.decisions import Action, Option
from autowerewolf.rules.discussion import EXILE_VOTE_STEPS
from autowerewolf.rules.views import SeatView


def situation(view: SeatView) -> str:
    """The seat's situation now, from its own view (no seat ids)."""
    ledger = remember(view).ledger
    deaths = Counter(f.value for f in ledger.facts if f.kind == "death")
    me = next(p for p in view.players if p.seat == view.seat)
    return words.situation(
        role=view.role.value,
        day=view.day,
        alive=sum(p.alive for p in view.players),
        seats=len(view.players),
        deaths=deaths,
        claims=[f.value for f in ledger.claims.values()],
        checks=Counter(ledger.checks().values()),
        sheriff=me.sheriff,
    )


class ExperienceAgent(LLMPlayer):
    def __init__(
        self,
        chat: BaseChatModel,
        model_name: str,
        bounds: Bounds,
        agent: str,
        pool: ExperiencePool | None,
    ) -> None:
        super().__init__(chat, model_name, bounds, agent)
        self.pool = pool

    def retrieval(self, request: DecisionRequest) -> DecisionRecord:
        """Look the pool up for this vote, as a note record."""
        now = situation(request.view)
        started = time.perf_counter()
        found = self.pool.retrieve(request.view.role.value, now) if self.pool else []
        latency = time.perf_counter() - started
        record = plain_record(
            request,
            self.kind,
            Action(option=Option.NONE.value),
            agent=self.agent,
            data=retrieval_data(now, found),
            latency_s=round(latency, 4),
        )
        return record.model_copy(update={"purpose": "note", "step": words.EXPERIENCE})

    def play(self, request: DecisionRequest) -> Calls[Answer]:
        if request.step not in EXILE_VOTE_STEPS or request.purpose != "decision":
            return (yield from super().play(request))
        note = self.retrieval(request)
        assert note.data is not None
        shown = [(e["situation"], e["action"], e["outcome"]) for e in note.data["retrieved"]]
        answer = yield from self.answer(request, [words.retrieved_note(shown)])
        return Answer(answer.action, answer.record, (note, *answer.notes))
