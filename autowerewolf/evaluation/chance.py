"""Chance levels: what a uniformly random player would score on the same opportunities.

A metric's chance level is computed decision by decision from the legal options the seat
had (its DecisionRecord's `options`), never as a constant: a Day-1 ballot among eleven
seats and a Day-4 ballot among five give different odds of hitting a wolf. The helpers
here find the options of the decision behind an event, and the share of them that would
count for a metric; each metric module adds these shares beside its own counts, so a
report divides both by the same opportunities.

Events carry no decision key, so an event is matched to the record of its seat, step and
day; where a seat answers one step several times a day (discussion turns), the records
are taken in order, as the events are.
"""

import hashlib
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence

import numpy as np

from autowerewolf.players.records import DecisionRecord
from autowerewolf.rules.decisions import Option
from autowerewolf.rules.events import Event, EventKind

# The speech steps at which a wolf may explode instead (events name them by their value).
SPEECH_STEPS = {
    "campaign": "election_speech",
    "election_pk": "election_pk_speech",
    "discussion": "discussion",
    "exile_pk": "exile_pk_speech",
}
OPTION_WORDS = frozenset(o.value for o in Option)
RATING_LEVELS = 5  # a role estimate rates each role 0-4 (prompts/estimates.py)
ENTROPY_DRAWS = 2000  # Monte Carlo draws per speech: about 0.01 bit of standard error


def share(options: Collection[str] | None, hits: Collection[str]) -> float | None:
    """The probability that a uniform draw from `options` lands in `hits` (None: no
    options known)."""
    if not options:
        return None
    return sum(o in hits for o in options) / len(options)


def targets(options: Iterable[str]) -> tuple[str, ...]:
    """The options that name a seat (not `none`, `abstain`, ...)."""
    return tuple(o for o in options if o not in OPTION_WORDS)


def random_likelihood(roles: int) -> float:
    """E[e_R / sum of e] when each of `roles` ratings is drawn uniformly from 0-4 (0 when
    all are 0): by symmetry 1/roles of the chance that some rating is above 0. The chance
    level of Strategy Adaptation's Acc (so of Est) and of a werewolf likelihood."""
    return (1 - RATING_LEVELS**-roles) / roles if roles else 0.0


def random_top_suspect(rated: int, wolves: int) -> float:
    """The chance that a random estimate's top wolf suspect among `rated` seats is a wolf,
    ties sharing the credit: wolves / rated, unless every werewolf rating is 0 (a miss)."""
    return wolves / rated * (1 - RATING_LEVELS**-rated) if rated else 0.0


def random_entropy(options: Sequence[Sequence[str]], key: str) -> float | None:
    """The expected entropy (bits) of the named targets when each voter picks uniformly
    among its own legal options (abstaining included, and left out of the count, as in
    `debate.entropy`; 0 when nobody names anyone); None when a voter's options are not
    recorded. By Monte Carlo, seeded from `key`, so a row is the same each time it is
    computed."""
    if not options or not all(options):
        return None
    names = sorted({t for opts in options for t in targets(opts)})
    if not names:
        return 0.0
    column = {name: i for i, name in enumerate(names)}
    seed = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big")
    rng = np.random.default_rng(seed)
    counts = np.zeros((ENTROPY_DRAWS, len(names)))
    rows = np.arange(ENTROPY_DRAWS)
    for opts in options:
        # -1 for an option that names nobody (abstain): a vote left out of the count.
        picks = np.array([column.get(o, -1) for o in opts])[
            rng.integers(0, len(opts), ENTROPY_DRAWS)
        ]
        named = picks >= 0
        counts[rows[named], picks[named]] += 1
    totals = counts.sum(axis=1, keepdims=True)
    p = np.divide(counts, totals, out=np.zeros_like(counts), where=totals > 0)
    logs = np.log2(p, out=np.zeros_like(p), where=p > 0)
    return float(-(p * logs).sum(axis=1).mean())


class OptionsIndex:
    """The legal options of a game's decisions, looked up from the events they produced."""

    def __init__(self, records: Iterable[DecisionRecord]) -> None:
        self._by_key: dict[tuple[str, str], tuple[str, ...]] = {}
        self._queues: dict[tuple[str, str, int], list[DecisionRecord]] = defaultdict(list)
        for r in records:
            if r.purpose != "decision":
                continue
            self._by_key[(r.seat, r.key)] = r.options
            self._queues[(r.seat, r.step, r.day)].append(r)
        self._taken: dict[tuple[str, str, int], int] = defaultdict(int)

    def ballot(self, seat: str, day: int, round_: int | None) -> tuple[str, ...] | None:
        """The options of a seat's exile ballot (round 1, or 2 for a PK revote)."""
        return self._by_key.get((seat, f"d{day}:exile_vote:r{round_ or 1}"))

    def first(self, seat: str, step: str, day: int) -> DecisionRecord | None:
        """The seat's first record of a step that day (night steps are asked once)."""
        queue = self._queues.get((seat, step, day))
        return queue[0] if queue else None

    def options(self, seat: str, step: str, day: int) -> tuple[str, ...] | None:
        record = self.first(seat, step, day)
        return record.options if record is not None else None

    def next(self, seat: str, step: str, day: int) -> DecisionRecord | None:
        """The seat's next record of a step that day, in answering order: call once per
        event of that step."""
        key = (seat, step, day)
        queue = self._queues.get(key, [])
        at = self._taken[key]
        if at >= len(queue):
            return None
        self._taken[key] = at + 1
        return queue[at]

    def explosion(self, seat: str, day: int) -> DecisionRecord | None:
        """The record whose answer was the seat's self-explosion that day."""
        for (who, _, d), queue in self._queues.items():
            if who == seat and d == day:
                for r in queue:
                    if r.option == Option.EXPLODE.value:
                        return r
        return None


def exile_chances(events: Sequence[Event], options: OptionsIndex, wolves: set[str]) -> float:
    """Summed over the game's exiles (an Idiot's flip included): the chance that a random
    choice among that day's first-round candidates was a wolf; the chance level of
    DSGBench's VSS (wolf exiles / exiles)."""
    candidates: dict[int, set[str]] = defaultdict(set)
    for e in events:
        if e.kind is EventKind.BALLOT and e.value == "exile" and e.actor and (e.round or 1) == 1:
            candidates[e.day].update(targets(options.ballot(e.actor, e.day, 1) or ()))
    total = 0.0
    for e in events:
        exiled = e.kind is EventKind.EXILE and e.value == "exiled" and e.target
        if exiled or e.kind is EventKind.IDIOT_FLIP:
            total += share(sorted(candidates[e.day]), wolves) or 0.0
    return total
