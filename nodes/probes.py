"""Measurement probes (docs/evaluation.md, "Probes"): questions asked around a step of the
game, recorded with purpose "probe", never applied and never shown to any player.

A probe is asked at one game state, from the seats' views at that state:

* before the step's answers are applied, from the views its decision was asked from:
  `pre_vote` when the day's last discussion speech is pending (the sheriff's summary, or
  the last speech without a sheriff); `role_estimates` when the day's first exile vote (or
  a roll call's first ballot) is pending (the end of the discussion) and when a night has
  just fallen (Night 2 on);
* after they are applied: `speech_votes` after each discussion speech.

A probe's key is the key of the decision it accompanies, then its name
(`d2:discussion:P07:pre_vote`, `d2:exile_vote:r1:role_estimates`). Human seats are never
asked. A seat whose latest `role_estimates` note (an agent's own estimate, kept with its
answer) carries that decision's key estimated from the same view: the note counts as the
probe and the seat is not asked again. A probe answer keeps only its record: notes a
player returns with it are dropped, so that nothing a probe produced reaches the seat's
later requests (whose history leaves probe records out).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from autowerewolf.graph.context import GameContext
from autowerewolf.nodes.ask import players_of
from autowerewolf.players.asker import Moment, adecide_each, bounded
from autowerewolf.players.base import Answer, DecisionRequest
from autowerewolf.players.records import DecisionRecord
from autowerewolf.prompts.estimates import ROLE_ESTIMATES
from autowerewolf.prompts.probes import PRE_VOTE, SPEECH_VOTES
from autowerewolf.rules import day, discussion
from autowerewolf.rules.decisions import Options, PendingDecision
from autowerewolf.rules.events import Event, EventKind
from autowerewolf.rules.keys import probe_key
from autowerewolf.rules.state import GameState, Step


@dataclass(frozen=True)
class Question:
    probe: str
    options: Options  # the seats asked, with their choices (none: a free-form answer)


def questions_before(table: Moment) -> list[Question]:
    game, probes = table.game, table.seating.probes
    questions = []
    if PRE_VOTE in probes and discussion.last_speech_pending(game):
        questions.append(Question(PRE_VOTE, day.first_round_options(game)))
    # The discussion is over: the first exile vote, or a roll call's first ballot, is pending.
    debate_over = (game.step == Step.EXILE_VOTE and game.vote.round == 1) or (
        game.step == Step.EXILE_ROLL_CALL and not game.vote.ballots
    )
    night_fallen = (
        game.day > 1 and bool(table.events) and table.events[-1].kind is EventKind.NIGHT_START
    )
    if ROLE_ESTIMATES in probes and (debate_over or night_fallen):
        questions.append(Question(ROLE_ESTIMATES, {seat: () for seat in game.living}))
    return questions


def questions_after(table: Moment, events: Sequence[Event]) -> list[Question]:
    if SPEECH_VOTES not in table.seating.probes:
        return []
    speakers = [e.actor for e in events if e.kind is EventKind.SPEECH and e.value == "discussion"]
    if not speakers:
        return []
    voters = day.first_round_options(table.game)
    return [Question(SPEECH_VOTES, {v: o for v, o in voters.items() if v != speakers[0]})]


def _estimated_already(records: Sequence[DecisionRecord], seat: str, key: str) -> bool:
    notes = [
        r for r in records if r.seat == seat and r.purpose == "note" and r.step == ROLE_ESTIMATES
    ]
    return bool(notes) and notes[-1].key == key


def probe_requests(
    table: Moment, decision: PendingDecision, question: Question
) -> dict[str, DecisionRequest]:
    """The automatic seats' requests for one probe asked beside `decision`."""
    probe = PendingDecision(
        step=question.probe,
        key=probe_key(decision.key, question.probe),
        options=question.options,
        simultaneous=True,
    )
    return {
        s: table.request(s, probe, "probe")
        for s in question.options
        if table.seating.kind_of(s) != "human"
        and not (
            question.probe == ROLE_ESTIMATES and _estimated_already(table.records, s, decision.key)
        )
    }


def probe_records(answers: Mapping[str, Answer]) -> list[DecisionRecord]:
    """A probe's answers as probe records (in seat order)."""
    return [
        bounded(answers[s]).record.model_copy(update={"purpose": "probe"}) for s in sorted(answers)
    ]


@dataclass(frozen=True)
class Probes:
    """The probes due at one state: the table they are asked from, and their questions."""

    table: Moment
    decision: PendingDecision
    questions: list[Question]

    def requests(self) -> list[dict[str, DecisionRequest]]:
        return [probe_requests(self.table, self.decision, q) for q in self.questions]


def probes_before(
    table: Moment, decision: PendingDecision, records: Sequence[DecisionRecord]
) -> Probes:
    """Probes at the state `decision` was asked at; `records` are the decision's own."""
    if not table.seating.probes:
        return Probes(table, decision, [])
    table = replace(table, records=[*table.records, *records])
    return Probes(table, decision, questions_before(table))


def probes_after(
    table: Moment,
    decision: PendingDecision,
    game: GameState,
    events: Sequence[Event],
    records: Sequence[DecisionRecord],
) -> Probes:
    """Probes at the state that answering `decision` led to (`game`, with new `events`)."""
    if not table.seating.probes:
        return Probes(table, decision, [])
    table = replace(
        table, game=game, events=[*table.events, *events], records=[*table.records, *records]
    )
    return Probes(table, decision, questions_after(table, events))


async def probe(context: GameContext, probes: Probes) -> list[DecisionRecord]:
    """Every automatic seat's answers to the probes, as probe records."""
    records = []
    for requests in probes.requests():
        records += probe_records(await adecide_each(players_of(context, probes.table), requests))
    return records
