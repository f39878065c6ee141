"""A rule-based baseline: plays sensibly without a model, as a yardstick for LLM players.

Good seats trust a lone Seer claim; the Seer reveals herself once she finds a wolf; wolves
kill a claimed Seer; the Witch saves on Night 1 and poisons a named wolf; the Guard keeps
the Seer alive. Where no rule applies it picks a seeded random legal option.
"""

import re
from dataclasses import dataclass, field

from autowerewolf.players.base import Answer, DecisionRequest, plain_record
from autowerewolf.rules.decisions import Action, Option
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.rng import pick
from autowerewolf.rules.roles import Camp, Role
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


class HeuristicPlayer:
    kind = "heuristic"

    def decide(self, request: DecisionRequest) -> Answer:
        view = request.view
        beliefs = read_view(view)
        option, text = self._choose(request, beliefs)
        action = Action(option=option, text=text)
        return Answer(action=action, record=plain_record(request, self.kind, action))

    def _random(self, request: DecisionRequest, options: list[str]) -> str:
        key = f"{request.decision.key}:{request.seat}:heuristic"
        return pick(request.player_seed, key, options)

    def _choose(self, request: DecisionRequest, beliefs: Beliefs) -> tuple[str, str]:
        view, options = request.view, list(request.options)
        step = request.decision.step.value
        me, role = view.seat, view.role
        alive = [p.seat for p in view.players if p.alive]
        mates = set(view.teammates)
        is_wolf = role is Role.WEREWOLF
        known_wolves = [s for s, c in beliefs.my_checks.items() if c is Camp.WOLF and s in alive]
        if not is_wolf:
            known_wolves += [s for s in beliefs.named_wolves if s in alive and s != me]
        trusted = {*beliefs.named_good, *beliefs.seer_claims} - set(known_wolves)

        def first(candidates: list[str], fallback: list[str] | None = None) -> str:
            legal = [c for c in candidates if c in options]
            if legal:
                return legal[0]
            pool = [o for o in (fallback if fallback is not None else options) if o in options]
            return self._random(request, pool or options)

        non_actions = {Option.EXPLODE.value}
        plain = [o for o in options if o not in non_actions]
        if step == "wolves":
            targets = [o for o in options if o not in mates and o != me and o != Option.NONE]
            return first(beliefs.seer_claims, targets), "Take the claimed seer first."
        if step == "seer":
            unchecked = [o for o in options if o not in beliefs.my_checks]
            return self._random(request, unchecked or options), ""
        if step == "witch_cure":
            return (Option.SAVE.value if view.day == 1 else Option.NONE.value), ""
        if step == "witch_poison":
            return first(known_wolves, [Option.NONE.value]), ""
        if step == "guard":
            return first([*beliefs.seer_claims, me], [Option.NONE.value]), ""
        if step == "hunter_shot":
            return first(known_wolves, [Option.NONE.value]), ""
        if step == "badge":
            good = [s for s in trusted if s != me] if not is_wolf else list(mates)
            return first(good, [Option.TEAR.value]), ""
        if step == "election_signup":
            return (Option.RUN.value if role is Role.SEER else Option.PASS.value), ""
        if step == "election_withdraw":
            return first([Option.STAY.value, Option.NONE.value]), ""
        if step == "election_vote":
            return first(sorted(trusted), [o for o in options if o != Option.ABSTAIN]), ""
        if step == "sheriff_direction":
            return Option.CLOCKWISE.value, ""
        if step == "exile_vote":
            if is_wolf:
                targets = [o for o in options if o not in mates and o != Option.ABSTAIN]
                return first(beliefs.seer_claims, targets), ""
            suspects = [o for o in options if o not in trusted and o != Option.ABSTAIN]
            return first(known_wolves, suspects), ""
        return Option.SPEAK.value if Option.SPEAK.value in plain else plain[0], self._speech(
            view, beliefs, known_wolves
        )

    def _speech(self, view: SeatView, beliefs: Beliefs, known_wolves: list[str]) -> str:
        if view.role is Role.SEER and known_wolves:
            results = ", ".join(
                f"{s} is {'a wolf' if c is Camp.WOLF else 'good'}"
                for s, c in beliefs.my_checks.items()
            )
            return f"I am the seer. {results}. Vote {known_wolves[0]} out."
        if view.role is not Role.WEREWOLF and known_wolves:
            return f"I believe the seer: {known_wolves[0]} is a wolf."
        return "I have no solid information yet; I am watching the votes."
