"""A rule-based baseline: plays sensibly without a model, as a yardstick for LLM players.

It hears speeches as the LLM seats' memory does (prompts/claims.py reads claims, checks,
accusations and defences in a player's own words). Good seats trust a lone Seer claim and
any other power role claimed by no more seats than the board deals, take a seat claiming
their own role for a wolf, and suspect a seat that accuses one they trust; the Seer reveals
herself once she finds a wolf; wolves kill a claimed Seer, never their pack; the Witch
saves on Night 1 and poisons a named wolf; the Guard keeps the Seer alive. Where no rule
applies it picks a seeded random legal option. It says what it believes, in phrasings
drawn from the request's seed and key.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from autowerewolf.players.base import Answer, DecidesAtOnce, DecisionRequest, plain_record
from autowerewolf.prompts.claims import read_speech, say
from autowerewolf.prompts.estimates import ROLE_ESTIMATES, roles_of, targets_of
from autowerewolf.prompts.probes import PRE_VOTE, SPEECH_VOTES
from autowerewolf.rules.decisions import Action, Option
from autowerewolf.rules.discussion import mentions
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.rng import pick
from autowerewolf.rules.roles import Camp, Role, is_god, on_wolf_side
from autowerewolf.rules.state import Step
from autowerewolf.rules.steps import takes_text
from autowerewolf.rules.views import SeatView


@dataclass
class Beliefs:
    """What a seat concludes from its view."""

    seer_claims: list[str] = field(default_factory=list)
    named_wolves: list[str] = field(default_factory=list)  # by the lone Seer claimant
    named_good: list[str] = field(default_factory=list)
    my_checks: dict[str, Camp] = field(default_factory=dict)
    attacked: str | None = None
    # good role -> the seats that claimed it, in the order they first did
    claimants: dict[str, list[str]] = field(default_factory=dict)
    accused: dict[str, str] = field(default_factory=dict)  # seat -> the seat it last accused


def read_view(view: SeatView) -> Beliefs:
    beliefs = Beliefs()
    names = {p.seat: p.name for p in view.players}
    results: dict[str, list[tuple[str, Camp]]] = {}  # Seer claimant -> the results she gave
    for event in view.events:
        if event.kind is EventKind.SEER_RESULT and event.target and event.value:
            beliefs.my_checks[event.target] = Camp(event.value)
        elif event.kind is EventKind.WITCH_INFO:
            beliefs.attacked = event.target
        elif event.kind is EventKind.SPEECH and event.actor and event.text:
            reading = read_speech(event.text, event.actor, names)
            seer = (Role.SEER.value,) if reading.claims_seer else ()
            for role in dict.fromkeys((*seer, *reading.roles)):
                seats = beliefs.claimants.setdefault(role, [])
                if event.actor not in seats:
                    seats.append(event.actor)
            if reading.claims_seer:
                results.setdefault(event.actor, []).extend(reading.checks)
            if reading.accused:
                beliefs.accused[event.actor] = reading.accused[-1]
    beliefs.seer_claims = sorted(results)
    if len(results) == 1:  # two claimants: one is lying, trust neither
        said = next(iter(results.values()))
        beliefs.named_wolves = [s for s, c in said if c is Camp.WOLF]
        beliefs.named_good = [s for s, c in said if c is Camp.GOOD]
    return beliefs


def credible(view: SeatView, beliefs: Beliefs) -> list[str]:
    """The power-role claimants a seat believes: each role claimed by no more seats than the
    board deals, and never its own role by another (that claim is a lie it can see)."""
    dealt = view.rules.roles
    return [
        seat
        for role, seats in beliefs.claimants.items()
        if is_god(Role(role)) and len(seats) <= dealt.count(Role(role))
        for seat in seats
        if role != view.role.value or seat == view.seat
    ]


def liars(view: SeatView, beliefs: Beliefs) -> list[str]:
    """Seats claiming a good seat's own power role when the board deals it once: wolves."""
    if on_wolf_side(view.role) or not is_god(view.role) or view.rules.roles.count(view.role) > 1:
        return []
    return [s for s in beliefs.claimants.get(view.role.value, []) if s != view.seat]


@dataclass
class Situation:
    """One decision as the heuristic sees it."""

    request: DecisionRequest
    beliefs: Beliefs
    known_wolves: list[str]  # living wolves this seat knows or believes in
    trusted: tuple[str, ...]  # seats this seat believes are good, in seat order
    suspects: tuple[str, ...] = ()  # living seats that accused a trusted one, in seat order

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
    others = [o for o in s.options if o not in (*s.trusted, me) and o != Option.ABSTAIN]
    return s.first([*s.known_wolves, *s.suspects], others)


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


def _whisper(s: Situation, target: str) -> str:
    """The pack's whisper says whom the seat names tonight and why: a Seer claimant, or an
    outsider; nothing when it passes."""
    if target not in s.options or target == Option.NONE:
        return ""
    kind = "whisper_seer" if target in s.beliefs.seer_claims else "whisper_target"
    return say(kind, s.request.seed, s.request.key, seat=target)


# The words a rule's answer carries beside its option (its step takes text).
_TEXTS: dict[str, Callable[[Situation, str], str]] = {Step.WOLVES: _whisper}


def _seer_lines(s: Situation) -> list[str]:
    """The Seer comes out with every check and the wolf to vote out."""
    seed, key = s.request.seed, s.request.key
    results = [
        say("seer_wolf" if camp is Camp.WOLF else "seer_good", seed, f"{key}:{seat}", seat=seat)
        for seat, camp in s.beliefs.my_checks.items()
    ]
    wolf = s.known_wolves[0]
    return [say("seer_claim", seed, key), *results, say("seer_vote", seed, key, seat=wolf)]


def _village_lines(s: Situation) -> list[str]:
    """A good seat says whom it takes for a wolf and why, whom it trusts, whom it suspects."""
    seed, key, beliefs = s.request.seed, s.request.key, s.beliefs
    lines = []
    if s.known_wolves:
        wolf = s.known_wolves[0]
        if wolf in beliefs.named_wolves:
            claimant = beliefs.seer_claims[0]
            lines.append(say("believe_seer", seed, key, claimant=claimant, seat=wolf))
        else:
            lines.append(say("liar", seed, key, seat=wolf))
    for seat in [t for t in s.trusted if t != s.view.seat][:2]:
        lines.append(say("trust", seed, f"{key}:{seat}", seat=seat))
    for seat in [x for x in s.suspects if x not in s.known_wolves][:1]:
        target = beliefs.accused[seat]
        lines.append(say("suspect", seed, key, seat=seat, target=target))
    return lines


def _wolf_lines(s: Situation) -> list[str]:
    """A plausible village line that never names the pack: back a packmate's Seer claim,
    call a Seer claim naming itself a bluff, else lean on a seeded outsider whom the table
    has no reason to trust (leaning on a believed seat would expose it)."""
    seed, key, beliefs, me = s.request.seed, s.request.key, s.beliefs, s.view.seat
    claims = beliefs.seer_claims
    if len(claims) == 1 and claims[0] in (me, *s.mates):
        outsiders = _outsiders(s, beliefs.named_wolves)
        if outsiders:
            return [say("believe_seer", seed, key, claimant=claims[0], seat=outsiders[0])]
        return [say("trust", seed, key, seat=claims[0])] if claims[0] != me else []
    if len(claims) == 1 and me in beliefs.named_wolves:
        return [say("doubt_claim", seed, key, seat=claims[0])]
    alive = [p.seat for p in s.view.players if p.alive and p.seat not in (*claims, *s.trusted)]
    outsiders = _outsiders(s, alive)
    if not outsiders:
        return []
    return [say("wolf_lean", seed, key, seat=pick(seed, f"{key}:lean", outsiders))]


def speech(s: Situation) -> str:
    """What the seat believes, said true to its side: a seat accused answers first."""
    me, seed, key = s.view.seat, s.request.seed, s.request.key
    alive = {p.seat for p in s.view.players if p.alive}
    accusers = [a for a, t in s.beliefs.accused.items() if t == me and a in alive and a != me]
    lines = [say("defend", seed, key, seat=min(accusers))] if accusers else []
    if s.is_wolf:
        lines += _wolf_lines(s)
    elif s.view.role is Role.SEER and s.known_wolves:
        lines += _seer_lines(s)
    else:
        lines += _village_lines(s)
    last = s.request.step == Step.LAST_WORDS
    return " ".join(lines) or say("no_read_last" if last else "no_read", seed, key)


class HeuristicPlayer(DecidesAtOnce):
    kind = "heuristic"

    def decide(self, request: DecisionRequest) -> Answer:
        view = request.view
        beliefs = read_view(view)
        alive = {p.seat for p in view.players if p.alive}
        known = [s for s, c in beliefs.my_checks.items() if c is Camp.WOLF and s in alive]
        if not on_wolf_side(view.role):
            named = [*beliefs.named_wolves, *liars(view, beliefs)]
            known += [s for s in dict.fromkeys(named) if s in alive and s != view.seat]
        believed = {*beliefs.named_good, *credible(view, beliefs)} - set(known)
        trusted = tuple(p.seat for p in view.players if p.seat in believed)
        accusers = {a for a, target in beliefs.accused.items() if target in trusted}
        suspects = tuple(
            p.seat
            for p in view.players
            if p.seat in accusers and p.alive and p.seat not in (*trusted, view.seat)
        )
        situation = Situation(request, beliefs, known, trusted, suspects)
        if request.step == ROLE_ESTIMATES:
            action = Action(option=Option.NONE.value)
            data = estimates(situation)
            return Answer(action, plain_record(request, self.kind, action, data=data))
        rule = RULES.get(request.step)
        if rule is not None:
            option = rule(situation)
            words = _TEXTS.get(request.step)
            action = Action(option=option, text=words(situation, option) if words else "")
        elif takes_text(request.step) == "speech":
            action = Action(option=_speak(situation), text=speech(situation))
        else:
            raise UnknownStep(f"the heuristic player has no rule for step {request.step!r}")
        record = plain_record(request, self.kind, action, reasoning=_reason(situation))
        return Answer(action=action, record=record)
