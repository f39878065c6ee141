"""A rule-based baseline: plays sensibly without a model, as a yardstick for LLM players.

Good seats trust a lone Seer claim; the Seer reveals herself once she finds a wolf; wolves
kill a claimed Seer; the Witch saves on Night 1 and poisons a named wolf; the Guard keeps
the Seer alive. Where no rule applies it picks a seeded random legal option.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from autowerewolf.players.base import Answer, DecidesAtOnce, DecisionRequest, plain_record
from autowerewolf.prompts.estimates import ROLE_ESTIMATES, roles_of, targets_of
from autowerewolf.prompts.probes import PRE_VOTE, SPEECH_VOTES
from autowerewolf.rules.decisions import Action, Option
from autowerewolf.rules.discussion import mentions
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.rng import pick
from autowerewolf.rules.roles import Camp, Role, on_wolf_side
from autowerewolf.rules.state import Step
from autowerewolf.rules.steps import takes_text
from autowerewolf.rules.views import SeatView

SEER_CLAIM = re.compile(r"\bI am the seer\b", re.I)
RESULT = re.compile(r"\b(P\d\d) is (?:a )?(wolf|good)\b", re.I)


@dataclass
class Beliefs:
    """What a seat concludes from its view."""

    seer_claims: list[str] = field(default_factory=list)
    named_wolves: list[str] = field(default_factory=list)  # by the lone Seer claimant
    named_good: list[str] = field(default_factory=list)
    my_checks: dict[str, Camp] = field(default_factory=dict)
    attacked: str | None = None


def read_view(view: SeatView) -> Beliefs:
    beliefs = Beliefs()
    claims: dict[str, list[tuple[str, str]]] = {}
    for event in view.events:
        if event.kind is EventKind.SEER_RESULT and event.target and event.value:
            beliefs.my_checks[event.target] = Camp(event.value)
        elif event.kind is EventKind.WITCH_INFO:
            beliefs.attacked = event.target
        elif event.kind is EventKind.SPEECH and event.actor and SEER_CLAIM.search(event.text or ""):
            results = [(s.upper(), v.lower()) for s, v in RESULT.findall(event.text or "")]
            claims.setdefault(event.actor, []).extend(results)
    beliefs.seer_claims = sorted(claims)
    if len(claims) == 1:  # two claimants: one is lying, trust neither
        results = next(iter(claims.values()))
        beliefs.named_wolves = [s for s, v in results if v == "wolf"]
        beliefs.named_good = [s for s, v in results if v == "good"]
    return beliefs


@dataclass
class Situation:
    """One decision as the heuristic sees it."""

    request: DecisionRequest
    beliefs: Beliefs
    known_wolves: list[str]  # living wolves this seat knows or believes in
    trusted: tuple[str, ...]  # seats this seat believes are good, in seat order

    @property
    def view(self) -> SeatView:
        return self.request.view

    @property
    def options(self) -> list[str]:
        return list(self.request.options)

    @property
    def mates(self) -> tuple[str, ...]:
        return self.view.teammates

    @property
    def is_wolf(self) -> bool:
        return on_wolf_side(self.view.role)

    def random(self, pool: list[str]) -> str:
        key = f"{self.request.key}:heuristic"
        return pick(self.request.seed, key, pool or self.options)

    def first(self, candidates: list[str], fallback: list[str] | None = None) -> str:
        """The first legal candidate, else a seeded random pick among the legal fallbacks."""
        legal = [c for c in candidates if c in self.options]
        if legal:
            return legal[0]
        pool = [
            o for o in (fallback if fallback is not None else self.options) if o in self.options
        ]
        return self.random(pool)


def _reason(situation: Situation) -> str:
    """What the rule went on, for the god view's drill-down (a record's private reasoning)."""
    wolves = ", ".join(situation.known_wolves) or "none"
    trusted = ", ".join(sorted(situation.trusted)) or "none"
    return f"rule for {situation.request.step}: wolves it knows of {wolves}; trusts {trusted}"


def _outsiders(s: Situation, seats: list[str]) -> list[str]:
    """`seats` less the seat itself and, for a wolf, its pack: a wolf never kills or votes
    out a packmate, even one who claimed the Seer to bluff."""
    return [o for o in seats if o != s.view.seat and o not in s.mates]


def _harm_outsider(s: Situation, passing: Option) -> str:
    """A wolf's kill or vote: the claimed Seer, else a seeded outsider; when every target
    left is a packmate (a revote between two of them), pass, else name itself, where the
    table allows it."""
    targets = _outsiders(s, [o for o in s.options if o != passing])
    spare = [o for o in (passing.value, s.view.seat) if o in s.options][:1]
    return s.first(_outsiders(s, s.beliefs.seer_claims), targets or spare)


def _wolves(s: Situation) -> str:
    return _harm_outsider(s, Option.NONE)


def _seer(s: Situation) -> str:
    unchecked = [o for o in s.options if o not in s.beliefs.my_checks]
    return s.random(unchecked)


def _witch_cure(s: Situation) -> str:
    return Option.SAVE.value if s.view.day == 1 else Option.NONE.value


def _badge(s: Situation) -> str:
    # Seat order, never a set's: the same seed and secret pass the badge alike in every
    # process (a set of strings iterates by PYTHONHASHSEED).
    good = list(s.mates) if s.is_wolf else [t for t in s.trusted if t != s.view.seat]
    return s.first(good, [Option.TEAR.value])


def _exile_vote(s: Situation) -> str:
    me = s.view.seat  # a table may allow voting for oneself (`exile_self_vote`): never do
    if s.is_wolf:
        return _harm_outsider(s, Option.ABSTAIN)
    suspects = [o for o in s.options if o not in (*s.trusted, me) and o != Option.ABSTAIN]
    return s.first(s.known_wolves, suspects)


def _bid(s: Situation) -> str:
    """4 when named in the day's last speech, 3 (Seer) or 2 with a wolf to name, 1 to speak
    once, else 0."""
    view, me = s.view, s.view.seat
    today = [
        e
        for e in view.events
        if e.kind is EventKind.SPEECH and e.value == "discussion" and e.day == view.day
    ]
    names = {p.seat: p.name for p in view.players}
    if today and today[-1].actor != me and me in mentions(today[-1].text or "", names):
        return "4"
    spoken = any(e.actor == me for e in today)
    if s.known_wolves and not spoken:
        return "3" if view.role is Role.SEER else "2"
    return "0" if spoken else "1"


def estimates(s: Situation) -> dict[str, Any]:
    """A role estimate (prompts/estimates.py's shape) from the seat's beliefs: revealed
    roles and fellow wolves are certain, a wolf it knows of is a wolf, a seat it trusts is
    not; nothing known: every role possible."""
    roles = roles_of(s.view)
    revealed = {p.seat: p.revealed_role.value for p in s.view.players if p.revealed_role}
    checked_good = {t for t, c in s.beliefs.my_checks.items() if c is Camp.GOOD}
    rows: dict[str, dict[str, int]] = {}
    evidence: dict[str, str] = {}
    for seat in targets_of(s.view):
        certain = revealed.get(seat)
        if certain is not None:
            rows[seat] = {r: 4 if r == certain else 0 for r in roles}
            evidence[seat] = f"known {certain}"
            continue
        if seat in s.mates or seat in s.known_wolves:  # a wolf, of whichever wolf role
            rows[seat] = {r: 4 if on_wolf_side(r) else 0 for r in roles}
            evidence[seat] = f"known {' or '.join(r for r in roles if on_wolf_side(r))}"
            continue
        good = s.is_wolf or seat in s.trusted or seat in checked_good
        rows[seat] = {r: 0 if good and on_wolf_side(r) else 2 for r in roles}
        if Role.SEER.value in rows[seat] and s.beliefs.seer_claims == [seat]:
            rows[seat][Role.SEER.value] = 3
        evidence[seat] = "believed good" if good else "no information"
    return {"estimates": rows, "evidence": evidence}


def _speak(s: Situation) -> str:
    # A Knight duels the wolf a lone Seer claimant named (docs/rules.md §11).
    if Option.DUEL in s.options and s.known_wolves:
        return Option.DUEL.value
    # The lone Seer claimant named the White Wolf King or a fellow wolf: the pack is losing,
    # so he explodes and takes her with him (docs/rules.md §12).
    pack = {s.view.seat, *s.mates}
    exposed = s.beliefs.seer_claims and pack & set(s.beliefs.named_wolves)
    if s.view.role is Role.WHITE_WOLF_KING and Option.EXPLODE in s.options and exposed:
        return Option.EXPLODE.value
    plain = [o for o in s.options if o not in (Option.EXPLODE, Option.DUEL)]
    return Option.SPEAK.value if Option.SPEAK.value in plain else plain[0]


class UnknownStep(LookupError):
    """A step this player has no rule for: a new step needs one here, never a silent pick."""


# One rule per decision; the speaking steps speak.
RULES: dict[str, Callable[[Situation], str]] = {
    Step.WOLVES: _wolves,
    Step.SEER: _seer,
    Step.WITCH_CURE: _witch_cure,
    Step.WITCH_POISON: lambda s: s.first(s.known_wolves, [Option.NONE.value]),
    Step.GUARD: lambda s: s.first([*s.beliefs.seer_claims, s.view.seat], [Option.NONE.value]),
    Step.HUNTER_SHOT: lambda s: s.first(s.known_wolves, [Option.NONE.value]),
    Step.BADGE: _badge,
    Step.ELECTION_SIGNUP: lambda s: (
        Option.RUN.value if s.view.role is Role.SEER else Option.PASS.value
    ),
    Step.ELECTION_WITHDRAW: lambda s: s.first([Option.STAY.value, Option.NONE.value]),
    Step.ELECTION_VOTE: lambda s: s.first(
        list(s.trusted), [o for o in s.options if o != Option.ABSTAIN]
    ),
    Step.SHERIFF_DIRECTION: lambda s: Option.CLOCKWISE.value,
    Step.EXILE_VOTE: _exile_vote,
    Step.EXILE_ROLL_CALL: _exile_vote,
    Step.DISCUSSION_BID: _bid,
    Step.DUEL: lambda s: s.first(s.known_wolves),
    Step.WOLF_KING_TAKE: lambda s: s.first(
        _outsiders(s, s.beliefs.seer_claims), [Option.NONE.value]
    ),
    PRE_VOTE: _exile_vote,  # a synthetic vote is the vote the seat would cast now
    SPEECH_VOTES: _exile_vote,
}
_TEXTS: dict[str, str] = {Step.WOLVES: "Take the claimed seer first."}


def speech(view: SeatView, beliefs: Beliefs, known_wolves: list[str]) -> str:
    if view.role is Role.SEER and known_wolves:
        results = ", ".join(
            f"{s} is {'a wolf' if c is Camp.WOLF else 'good'}" for s, c in beliefs.my_checks.items()
        )
        return f"I am the seer. {results}. Vote {known_wolves[0]} out."
    if not on_wolf_side(view.role) and known_wolves:
        return f"I believe the seer: {known_wolves[0]} is a wolf."
    return "I have no solid information yet; I am watching the votes."


class HeuristicPlayer(DecidesAtOnce):
    kind = "heuristic"

    def decide(self, request: DecisionRequest) -> Answer:
        view = request.view
        beliefs = read_view(view)
        alive = {p.seat for p in view.players if p.alive}
        known = [s for s, c in beliefs.my_checks.items() if c is Camp.WOLF and s in alive]
        if not on_wolf_side(view.role):
            known += [s for s in beliefs.named_wolves if s in alive and s != view.seat]
        believed = {*beliefs.named_good, *beliefs.seer_claims} - set(known)
        trusted = tuple(p.seat for p in view.players if p.seat in believed)
        situation = Situation(request, beliefs, known, trusted)
        if request.step == ROLE_ESTIMATES:
            action = Action(option=Option.NONE.value)
            data = estimates(situation)
            return Answer(action, plain_record(request, self.kind, action, data=data))
        rule = RULES.get(request.step)
        if rule is not None:
            action = Action(option=rule(situation), text=_TEXTS.get(request.step, ""))
        elif takes_text(request.step) == "speech":
            action = Action(option=_speak(situation), text=speech(view, beliefs, known))
        else:
            raise UnknownStep(f"the heuristic player has no rule for step {request.step!r}")
        record = plain_record(request, self.kind, action, reasoning=_reason(situation))
        return Answer(action=action, record=record)
