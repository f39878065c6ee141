"""Objective blunder metrics of a finished game, per seat, from its events alone.

A blunder is a decision that is wrong whatever the player believed, judged with facts the
player had (its own role and teammates, its own night results, public reveals) or with the
final role map where the mistake needs no guessing (a Witch's poison on a good player).
Each metric is a pair (blunders, opportunities): the opportunities are the decisions that
could have been that blunder. The definitions are written in docs/blunders.md too.

Metrics (the seat credited is the one who decided):

- ``wolf_self_kill``: a wolf's night proposal names itself or a teammate.
  Opportunities: every wolf proposal (an empty knife included).
- ``wolf_pack_kills_wolf``: the pack's final target is a wolf. Credited to every wolf that
  proposed that night. Left out of the overall rate: it is no single seat's decision, and
  the proposals behind it are already counted by ``wolf_self_kill``.
- ``wolf_needless_explosion``: a wolf self-explodes without cause (see `_justified`).
  Opportunities: the wolf's answers where exploding was legal and the events show it:
  its sign-up answer, its speeches in campaign, election PK, discussion and exile PK, and
  the explosion itself. (Withdrawal calls also allow it, but a seat that stays leaves no
  event, so they are not counted.)
- ``witch_poisons_good``: a poison on a non-wolf. Opportunities: poisons cast.
- ``witch_poisons_revealed_good``: a poison on a good player whose role was public.
- ``seer_recheck``: the Seer checks a seat she already checked, or a seat whose role was
  public. Opportunities: checks.
- ``hunter_shoots_good`` / ``hunter_shoots_revealed_good``: a shot at a non-wolf / at a
  publicly revealed good player. Opportunities: shots fired (a declined shot is none).
- ``good_ballot_on_revealed_good``: a good-camp exile ballot on a publicly revealed good
  player. Opportunities: good-camp exile ballots, abstentions included.
- ``seer_ballot_on_checked_good``: the Seer's exile ballot on a seat her own check showed
  good. Opportunities: the Seer's exile ballots, abstentions included.
- ``wolf_votes_teammate_out``: a wolf's exile ballot on a teammate. Opportunities: wolf
  exile ballots, abstentions included.
- ``overall``: distinct blunder decisions / distinct opportunity decisions over the metrics
  above but ``wolf_pack_kills_wolf``; a decision flagged by two metrics (a poison on a
  revealed good player) counts once.

A role is public from the event that reveals it: a Hunter's shot, an Idiot's flip, a
self-explosion, and under ``reveal_role_on_death`` every announced death and exile.
"""

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from autowerewolf.evaluation.roles import roles_of
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.roles import Role

WOLF_SELF_KILL = "wolf_self_kill"
WOLF_PACK_KILLS_WOLF = "wolf_pack_kills_wolf"
WOLF_NEEDLESS_EXPLOSION = "wolf_needless_explosion"
WITCH_POISONS_GOOD = "witch_poisons_good"
WITCH_POISONS_REVEALED_GOOD = "witch_poisons_revealed_good"
SEER_RECHECK = "seer_recheck"
HUNTER_SHOOTS_GOOD = "hunter_shoots_good"
HUNTER_SHOOTS_REVEALED_GOOD = "hunter_shoots_revealed_good"
GOOD_BALLOT_ON_REVEALED_GOOD = "good_ballot_on_revealed_good"
SEER_BALLOT_ON_CHECKED_GOOD = "seer_ballot_on_checked_good"
WOLF_VOTES_TEAMMATE_OUT = "wolf_votes_teammate_out"
OVERALL = "overall"

METRICS: tuple[str, ...] = (
    WOLF_SELF_KILL,
    WOLF_PACK_KILLS_WOLF,
    WOLF_NEEDLESS_EXPLOSION,
    WITCH_POISONS_GOOD,
    WITCH_POISONS_REVEALED_GOOD,
    SEER_RECHECK,
    HUNTER_SHOOTS_GOOD,
    HUNTER_SHOOTS_REVEALED_GOOD,
    GOOD_BALLOT_ON_REVEALED_GOOD,
    SEER_BALLOT_ON_CHECKED_GOOD,
    WOLF_VOTES_TEAMMATE_OUT,
    OVERALL,
)
NOT_IN_OVERALL = frozenset({WOLF_PACK_KILLS_WOLF})
# Speeches given in a step where a wolf could have exploded instead (RULES §6).
EXPLOSIVE_SPEECHES = frozenset({"campaign", "election_pk", "discussion", "exile_pk"})
GODS = frozenset({Role.SEER, Role.WITCH, Role.HUNTER, Role.GUARD, Role.IDIOT})


class Tally(NamedTuple):
    # A tuple, so tests and callers compare it with (count, opportunities); the field
    # shadows tuple.count, which no caller uses.
    count: int  # type: ignore[assignment]
    opportunities: int

    def __add__(self, other: object) -> "Tally":
        # Summing tallies adds fields; the tuple default would concatenate them.
        if not isinstance(other, Tally):
            return NotImplemented
        return Tally(self.count + other.count, self.opportunities + other.opportunities)

    @property
    def rate(self) -> float | None:
        return self.count / self.opportunities if self.opportunities else None


class Judgement(NamedTuple):
    """One decision judged under one metric; `index` is the deciding event's position."""

    metric: str
    seat: str
    index: int  # type: ignore[assignment]  # shadows tuple.index, which no caller uses
    blunder: bool


SeatBlunders = dict[str, dict[str, Tally]]


def _reveals(e: Event) -> set[str]:
    """Seats whose role this event makes public."""
    if e.kind is EventKind.HUNTER_SHOT and e.audience is Audience.PUBLIC and e.actor:
        return {e.actor}
    if e.kind in (EventKind.IDIOT_FLIP, EventKind.SELF_EXPLOSION) and e.actor:
        return {e.actor}
    if e.kind is EventKind.DEATHS_ANNOUNCED and e.text:  # reveal_role_on_death
        return set(e.targets)
    if e.kind is EventKind.EXILE and e.target and e.text:  # reveal_role_on_death
        return {e.target}
    return set()


def revealed_before(events: Sequence[Event]) -> list[frozenset[str]]:
    """Entry i: the seats whose role was public before event i; one more entry at the end
    for after the last event."""
    seen: set[str] = set()
    out: list[frozenset[str]] = []
    for e in events:
        out.append(frozenset(seen))
        seen |= _reveals(e)
    out.append(frozenset(seen))
    return out


def _wolf_nights(events: Sequence[Event], wolves: set[str]) -> list[Judgement]:
    out: list[Judgement] = []
    proposers: dict[int, list[str]] = {}
    for i, e in enumerate(events):
        if e.kind is EventKind.WOLF_PROPOSAL and e.actor:
            out.append(Judgement(WOLF_SELF_KILL, e.actor, i, e.target in wolves))
            proposers.setdefault(e.day, []).append(e.actor)
        elif e.kind is EventKind.WOLF_TARGET:
            for wolf in proposers.get(e.day, []):
                out.append(Judgement(WOLF_PACK_KILLS_WOLF, wolf, i, e.target in wolves))
    return out


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
    living_wolves = {s for s, r in roles.items() if r is Role.WEREWOLF and s not in dead}
    if living_wolves <= {wolf}:
        return False
    if candidates is not None and wolf in candidates:
        return True
    if exile_pk & living_wolves:
        return True
    return _one_kill_from_win(roles, dead)


def _explosions(events: Sequence[Event], roles: Mapping[str, Role]) -> list[Judgement]:
    wolves = {s for s, r in roles.items() if r is Role.WEREWOLF}
    out: list[Judgement] = []
    dead: set[str] = set()
    candidates: set[str] | None = None  # None: no election running
    exile_pk: set[str] = set()  # today's exile PK candidates, while the PK lasts
    for i, e in enumerate(events):
        kind = e.kind
        if kind is EventKind.DEATH and e.target:
            dead.add(e.target)
        elif kind is EventKind.SIGNUP and e.actor:
            candidates = candidates if candidates is not None else set()
            if e.value == "run":
                candidates.add(e.actor)
            if e.actor in wolves:
                out.append(Judgement(WOLF_NEEDLESS_EXPLOSION, e.actor, i, False))
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
        elif kind is EventKind.SPEECH and e.actor in wolves and e.value in EXPLOSIVE_SPEECHES:
            out.append(Judgement(WOLF_NEEDLESS_EXPLOSION, e.actor, i, False))
        elif kind is EventKind.SELF_EXPLOSION and e.actor:
            ok = _justified(e.actor, roles, dead, candidates, exile_pk)
            out.append(Judgement(WOLF_NEEDLESS_EXPLOSION, e.actor, i, not ok))
    return out


def _good_roles(
    events: Sequence[Event], roles: Mapping[str, Role], revealed: Sequence[frozenset[str]]
) -> list[Judgement]:
    """Witch, Seer and Hunter decisions."""
    out: list[Judgement] = []
    checked: set[str] = set()
    for i, e in enumerate(events):
        if e.kind is EventKind.SEER_RESULT and e.seat and e.target:
            again = e.target in checked or e.target in revealed[i]
            out.append(Judgement(SEER_RECHECK, e.seat, i, again))
            checked.add(e.target)
            continue
        poison = e.kind is EventKind.WITCH_POISON
        shot = e.kind is EventKind.HUNTER_SHOT
        if not (poison or shot) or not e.actor or not e.target:
            continue  # a declined shot has no target: not a shot
        good = roles[e.target] is not Role.WEREWOLF
        public_good = good and e.target in revealed[i]
        on_good, on_public_good = (
            (WITCH_POISONS_GOOD, WITCH_POISONS_REVEALED_GOOD)
            if poison
            else (HUNTER_SHOOTS_GOOD, HUNTER_SHOOTS_REVEALED_GOOD)
        )
        out.append(Judgement(on_good, e.actor, i, good))
        out.append(Judgement(on_public_good, e.actor, i, public_good))
    return out


def _ballots(
    events: Sequence[Event], roles: Mapping[str, Role], revealed: Sequence[frozenset[str]]
) -> list[Judgement]:
    out: list[Judgement] = []
    checked_good: set[str] = set()  # the Seer's own results
    for i, e in enumerate(events):
        if e.kind is EventKind.SEER_RESULT and e.target and e.value == "good":
            checked_good.add(e.target)
        if e.kind is not EventKind.BALLOT or e.value != "exile" or not e.actor:
            continue
        voter, target = e.actor, e.target
        on_wolf = target is not None and roles[target] is Role.WEREWOLF
        if roles[voter] is Role.WEREWOLF:
            out.append(Judgement(WOLF_VOTES_TEAMMATE_OUT, voter, i, on_wolf))
            continue
        on_public_good = target is not None and not on_wolf and target in revealed[i]
        out.append(Judgement(GOOD_BALLOT_ON_REVEALED_GOOD, voter, i, on_public_good))
        if roles[voter] is Role.SEER:
            out.append(Judgement(SEER_BALLOT_ON_CHECKED_GOOD, voter, i, target in checked_good))
    return out


def judgements(events: Sequence[Event], *, explosions_allowed: bool = True) -> list[Judgement]:
    """Every judged decision of the game, in no particular order.

    `explosions_allowed=False` (the `allow_wolf_self_explode` variant off) drops the
    explosion metric: the events do not carry the variants, and wolf speeches are no
    opportunities when exploding was illegal.
    """
    roles = roles_of(events)
    wolves = {s for s, r in roles.items() if r is Role.WEREWOLF}
    revealed = revealed_before(events)
    found = _wolf_nights(events, wolves)
    if explosions_allowed:
        found += _explosions(events, roles)
    found += _good_roles(events, roles, revealed)
    found += _ballots(events, roles, revealed)
    return found


def blunders(events: Sequence[Event], *, explosions_allowed: bool = True) -> SeatBlunders:
    """Per seat, per metric: Tally(blunders, opportunities). Every seat has every metric."""
    found = judgements(events, explosions_allowed=explosions_allowed)
    seats = sorted(roles_of(events))
    counts = {s: dict.fromkeys(METRICS, Tally(0, 0)) for s in seats}
    decisions: dict[str, dict[int, bool]] = {s: {} for s in seats}
    for j in found:
        counts[j.seat][j.metric] += Tally(int(j.blunder), 1)
        if j.metric not in NOT_IN_OVERALL:
            decisions[j.seat][j.index] = decisions[j.seat].get(j.index, False) or j.blunder
    for seat, judged in decisions.items():
        counts[seat][OVERALL] = Tally(sum(judged.values()), len(judged))
    return counts


def total(per_seat: SeatBlunders, seats: Iterable[str] | None = None) -> dict[str, Tally]:
    """Sum of the chosen seats' tallies (all seats by default), per metric."""
    chosen = per_seat.keys() if seats is None else seats
    out = dict.fromkeys(METRICS, Tally(0, 0))
    for seat in chosen:
        for metric, tally in per_seat[seat].items():
            out[metric] += tally
    return out


def group_by(per_seat: SeatBlunders, key: Mapping[str, str]) -> dict[str, dict[str, Tally]]:
    """Tallies summed per group, e.g. key = seat -> "model/agent" label of one game."""
    out: dict[str, dict[str, Tally]] = {}
    for seat, metrics in per_seat.items():
        group = out.setdefault(key[seat], dict.fromkeys(METRICS, Tally(0, 0)))
        for metric, tally in metrics.items():
            group[metric] += tally
    return out


def merge(tables: Iterable[Mapping[str, Mapping[str, Tally]]]) -> dict[str, dict[str, Tally]]:
    """Add up tables keyed alike (several games' `group_by` results, say)."""
    out: dict[str, dict[str, Tally]] = {}
    for table in tables:
        for name, metrics in table.items():
            row = out.setdefault(name, dict.fromkeys(METRICS, Tally(0, 0)))
            for metric, tally in metrics.items():
                row[metric] += tally
    return out
