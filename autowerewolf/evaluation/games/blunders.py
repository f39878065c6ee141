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
- ``wolf_needless_explosion``: a wolf self-explodes without cause (explosions.py).
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

Chance levels: given the game's DecisionRecords, each judged decision also carries its
legal options and the options that would have been the blunder, so a uniformly random
player's rate on the same opportunities is their share (evaluation/chance.py). Poisons and
shots are judged once cast, so their chance is over the seats that could be targeted;
ballots count an abstention as an option; an explosion opportunity's blunder option is
`explode` when exploding there would have been needless.
"""

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from autowerewolf.evaluation.chance import OptionsIndex, share, targets
from autowerewolf.evaluation.games.explosions import explosions
from autowerewolf.evaluation.games.roles import roles_of
from autowerewolf.players.records import DecisionRecord
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.roles import Role, on_wolf_side

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
    """One decision judged under one metric; `index` is the deciding event's position.
    `options` are the choices a random player would have drawn from (None: unknown, the
    game's records were not given) and `bad` those that would have been the blunder."""

    metric: str
    seat: str
    index: int  # type: ignore[assignment]  # shadows tuple.index, which no caller uses
    blunder: bool
    options: tuple[str, ...] | None = None
    bad: frozenset[str] = frozenset()

    @property
    def chance(self) -> float | None:
        return share(self.options, self.bad)


SeatBlunders = dict[str, dict[str, Tally]]
# seat -> metric -> [sum of the chance levels, judged decisions with known options]
SeatChances = dict[str, dict[str, list[float]]]


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


class _Game(NamedTuple):
    """What every judge reads: the events, the final role map, the seats public before each
    event (`revealed_before`) and the decisions' options (None without the game's records)."""

    events: Sequence[Event]
    roles: Mapping[str, Role]
    revealed: Sequence[frozenset[str]]
    options: OptionsIndex | None

    @property
    def wolves(self) -> frozenset[str]:
        return frozenset(s for s, r in self.roles.items() if on_wolf_side(r))


def _wolf_nights(game: _Game) -> list[Judgement]:
    events, options, wolves = game.events, game.options, game.wolves
    out: list[Judgement] = []
    proposers: dict[int, list[str]] = {}
    for i, e in enumerate(events):
        if e.kind is EventKind.WOLF_PROPOSAL and e.actor:
            legal = options.options(e.actor, "wolves", e.day) if options else None
            out.append(Judgement(WOLF_SELF_KILL, e.actor, i, e.target in wolves, legal, wolves))
            proposers.setdefault(e.day, []).append(e.actor)
        elif e.kind is EventKind.WOLF_TARGET:
            on_wolf = e.target in wolves
            for wolf in proposers.get(e.day, []):
                # Chance: the pack's target drawn as one random proposal would be.
                legal = options.options(wolf, "wolves", e.day) if options else None
                out.append(Judgement(WOLF_PACK_KILLS_WOLF, wolf, i, on_wolf, legal, wolves))
    return out


def _good_roles(game: _Game) -> list[Judgement]:
    """Witch, Seer and Hunter decisions."""
    events, roles, revealed, options = game
    out: list[Judgement] = []
    checked: set[str] = set()
    goods = frozenset(roles) - game.wolves
    for i, e in enumerate(events):
        if e.kind is EventKind.SEER_RESULT and e.seat and e.target:
            again = e.target in checked or e.target in revealed[i]
            legal = options.options(e.seat, "seer", e.day) if options else None
            known = frozenset(checked | revealed[i])
            out.append(Judgement(SEER_RECHECK, e.seat, i, again, legal, known))
            checked.add(e.target)
            continue
        poison = e.kind is EventKind.WITCH_POISON
        shot = e.kind is EventKind.HUNTER_SHOT
        if not (poison or shot) or not e.actor or not e.target:
            continue  # a declined shot has no target: not a shot
        good = not on_wolf_side(roles[e.target])
        public_good = good and e.target in revealed[i]
        on_good, on_public_good = (
            (WITCH_POISONS_GOOD, WITCH_POISONS_REVEALED_GOOD)
            if poison
            else (HUNTER_SHOOTS_GOOD, HUNTER_SHOOTS_REVEALED_GOOD)
        )
        step = "witch_poison" if poison else "hunter_shot"
        found = options.options(e.actor, step, e.day) if options else None
        # Judged once cast: the chance is over the seats that could be targeted.
        legal = targets(found) if found is not None else None
        out.append(Judgement(on_good, e.actor, i, good, legal, goods))
        out.append(Judgement(on_public_good, e.actor, i, public_good, legal, goods & revealed[i]))
    return out


def _ballots(game: _Game) -> list[Judgement]:
    events, roles, revealed, options = game
    out: list[Judgement] = []
    checked_good: set[str] = set()  # the Seer's own results
    wolves = game.wolves
    for i, e in enumerate(events):
        if e.kind is EventKind.SEER_RESULT and e.target and e.value == "good":
            checked_good.add(e.target)
        if e.kind is not EventKind.BALLOT or e.value != "exile" or not e.actor:
            continue
        voter, target = e.actor, e.target
        legal = options.ballot(voter, e.day, e.round) if options else None
        on_wolf = target is not None and on_wolf_side(roles[target])
        if on_wolf_side(roles[voter]):
            out.append(Judgement(WOLF_VOTES_TEAMMATE_OUT, voter, i, on_wolf, legal, wolves))
            continue
        on_public_good = target is not None and not on_wolf and target in revealed[i]
        public_good = revealed[i] - wolves
        out.append(
            Judgement(GOOD_BALLOT_ON_REVEALED_GOOD, voter, i, on_public_good, legal, public_good)
        )
        if roles[voter] is Role.SEER:
            out.append(
                Judgement(
                    SEER_BALLOT_ON_CHECKED_GOOD,
                    voter,
                    i,
                    target in checked_good,
                    legal,
                    frozenset(checked_good),
                )
            )
    return out


def judgements(
    events: Sequence[Event],
    records: Sequence[DecisionRecord] = (),
    *,
    explosions_allowed: bool = True,
) -> list[Judgement]:
    """Every judged decision of the game, in no particular order; with the game's decision
    `records`, each carries its legal options (for chance levels).

    `explosions_allowed=False` (the `allow_wolf_self_explode` variant off) drops the
    explosion metric: the events do not carry the variants, and wolf speeches are no
    opportunities when exploding was illegal.
    """
    options = OptionsIndex(records) if records else None
    game = _Game(events, roles_of(events), revealed_before(events), options)
    found = _wolf_nights(game)
    if explosions_allowed:
        found += [
            Judgement(WOLF_NEEDLESS_EXPLOSION, *x) for x in explosions(events, game.roles, options)
        ]
    return found + _good_roles(game) + _ballots(game)


def chances(found: Iterable[Judgement]) -> SeatChances:
    """Per seat and metric (overall included): the summed chance levels of its judged
    decisions whose options are known, and how many there were. Overall: per decision, the
    share of its options that would have been a blunder under any metric it is judged by."""
    out: SeatChances = {}
    decisions: dict[tuple[str, int], tuple[tuple[str, ...], set[str]]] = {}
    for j in found:
        if j.options is None or not j.options:
            continue
        cell = out.setdefault(j.seat, {}).setdefault(j.metric, [0.0, 0.0])
        cell[0] += share(j.options, j.bad) or 0.0
        cell[1] += 1
        if j.metric not in NOT_IN_OVERALL:
            decisions.setdefault((j.seat, j.index), (j.options, set()))[1].update(j.bad)
    for (seat, _), (legal, bad) in decisions.items():
        cell = out.setdefault(seat, {}).setdefault(OVERALL, [0.0, 0.0])
        cell[0] += share(legal, bad) or 0.0
        cell[1] += 1
    return out


def blunders(events: Sequence[Event], *, explosions_allowed: bool = True) -> SeatBlunders:
    """Per seat, per metric: Tally(blunders, opportunities). Every seat has every metric."""
    return tally(judgements(events, explosions_allowed=explosions_allowed), events)


def tally(found: Iterable[Judgement], events: Sequence[Event]) -> SeatBlunders:
    """Judged decisions as Tally(blunders, opportunities) per seat and metric."""
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
