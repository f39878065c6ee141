"""Needless self-explosions (docs/blunders.md): a wolf's explosion is needless unless the
events show a cause (`_justified`). Opportunities are the wolf's answers where exploding
was legal and the events show them: its sign-up answer, its speeches in campaign, election
PK, discussion and exile PK, and the explosion itself. Withdrawal calls also allow it, but
a seat that stays leaves no event, so they are not counted."""

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from autowerewolf.evaluation.chance import SPEECH_STEPS, OptionsIndex
from autowerewolf.players.records import DecisionRecord
from autowerewolf.rules.decisions import Option
from autowerewolf.rules.events import Event, EventKind
from autowerewolf.rules.roles import Role, on_wolf_side

GODS = frozenset({Role.SEER, Role.WITCH, Role.HUNTER, Role.GUARD, Role.IDIOT})


def _one_kill_from_win(roles: Mapping[str, Role], dead: set[str]) -> bool:
    """One more night kill can win for the wolves (side elimination, RULES §8)."""
    living = [r for s, r in roles.items() if s not in dead]
    villagers = sum(r is Role.VILLAGER for r in living)
    gods = sum(r in GODS for r in living)
    return villagers == 1 or gods == 1


def _justified(
    wolf: str,
    roles: Mapping[str, Role],
    dead: set[str],
    candidates: set[str] | None,
    exile_pk: set[str],
) -> bool:
    """Whether an explosion had a cause the events can show.

    Never, when the exploder is the last living wolf: the good camp wins at once.
    Otherwise yes when (a) the wolf is a sheriff candidate in a running election (the
    badge-swallow: a wolf who ran for sheriff explodes so the badge is lost), (b) the wolf
    or a teammate stands in today's exile PK (the explosion cancels the revote), or (c) one
    more night kill would win the game, so skipping the day's vote is a tempo play.
    A discussion explosion under spoken accusations counts as needless: speeches are text
    the metric does not read.
    """
    living_wolves = {s for s, r in roles.items() if on_wolf_side(r) and s not in dead}
    if living_wolves <= {wolf}:
        return False
    if candidates is not None and wolf in candidates:
        return True
    if exile_pk & living_wolves:
        return True
    return _one_kill_from_win(roles, dead)


class Opportunity(NamedTuple):
    """A wolf's answer where it could have exploded (blunders.py judges it)."""

    seat: str
    index: int  # type: ignore[assignment]  # the event's position; shadows tuple.index
    blunder: bool  # it exploded, needlessly
    options: tuple[str, ...] | None  # the answer's legal options (None: not recorded)
    bad: frozenset[str]  # {"explode"} where exploding there would have been needless


def explosions(
    events: Sequence[Event], roles: Mapping[str, Role], options: OptionsIndex | None
) -> list[Opportunity]:
    """Every explosion opportunity of the game's wolves, judged."""
    wolves = {s for s, r in roles.items() if on_wolf_side(r)}
    out: list[Opportunity] = []
    dead: set[str] = set()
    candidates: set[str] | None = None  # None: no election running
    exile_pk: set[str] = set()  # today's exile PK candidates, while the PK lasts

    def judged(wolf: str, i: int, record: DecisionRecord | None, exploded: bool) -> Opportunity:
        needless = not _justified(wolf, roles, dead, candidates, exile_pk)
        bad = frozenset({Option.EXPLODE.value}) if needless else frozenset()
        legal = record.options if record is not None else None
        return Opportunity(wolf, i, exploded and needless, legal, bad)

    def answer(seat: str, step: str, day: int) -> DecisionRecord | None:
        return options.next(seat, step, day) if options else None

    for i, e in enumerate(events):
        kind = e.kind
        if kind is EventKind.DEATH and e.target:
            dead.add(e.target)
        elif kind is EventKind.SIGNUP and e.actor:
            record = answer(e.actor, "election_signup", e.day)
            if e.actor in wolves:
                out.append(judged(e.actor, i, record, exploded=False))
            candidates = candidates if candidates is not None else set()
            if e.value == "run":
                candidates.add(e.actor)
        elif kind is EventKind.WITHDRAW and candidates is not None and e.actor:
            candidates.discard(e.actor)
        elif kind is EventKind.VOTE_RESULT and e.value == "election" and len(e.targets) > 1:
            candidates = set(e.targets)  # the election PK
        elif kind is EventKind.SHERIFF and e.value in ("elected", "lost"):
            candidates = None  # "postponed" keeps the election and its candidates
        elif kind is EventKind.VOTE_RESULT and e.value == "exile":
            exile_pk = set(e.targets) if e.round == 1 and len(e.targets) > 1 else set()
        elif kind is EventKind.NIGHT_START:
            exile_pk = set()
        elif kind is EventKind.SPEECH and e.actor and e.value in SPEECH_STEPS:
            record = answer(e.actor, SPEECH_STEPS[e.value], e.day)
            if e.actor in wolves:
                out.append(judged(e.actor, i, record, exploded=False))
        elif kind is EventKind.SELF_EXPLOSION and e.actor:
            record = options.explosion(e.actor, e.day) if options else None
            out.append(judged(e.actor, i, record, exploded=True))
    return out
