"""The structured observation of a seat: the feature layout (docs/training.md,
"Observations") and its vector, built from what the seat may know alone. The environment
builds it incrementally (autowerewolf/env/common.py: the public part once per state for
every seat, the private events once per seat); `features` builds it from a whole view, and
a test holds the two equal (tests/env/test_env_views.py)."""

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from autowerewolf.prompts.recall import FactsLedger
from autowerewolf.rules.events import Event, EventKind
from autowerewolf.rules.roles import ROLE_NAMES, Camp, Role, camp_of
from autowerewolf.rules.steps import STEPS
from autowerewolf.rules.views import SeatView

if TYPE_CHECKING:  # numpy is imported where features are built: a CLI start needs none
    import numpy as np

# The roles a seat may claim: a good seat its own, a wolf any good one (speech_acts.phrases).
CLAIMABLE: tuple[str, ...] = tuple(name for name in ROLE_NAMES if camp_of(name) is Camp.GOOD)
# The steps that ask a seat something, in the step table's order.
DECISION_STEPS: tuple[str, ...] = tuple(name for name, spec in STEPS.items() if spec.decides)
ROLES: tuple[Role, ...] = tuple(Role)
# Days beyond this read as this day in the features.
FEATURE_DAYS = 30
GLOBAL_FEATURES: tuple[str, ...] = (
    "day",
    *(f"step={s}" for s in DECISION_STEPS),
    *(f"role={r.value}" for r in ROLES),
    "cure_available",
    "poison_available",
    "alive_share",
)
# Per seat, in seat order: what the whole table knows of it ...
PUBLIC_SEAT_FEATURES: tuple[str, ...] = (
    "alive",
    "sheriff",
    "revealed_wolf",
    "revealed_good",
    "can_vote",
    *(f"claims={r}" for r in CLAIMABLE),  # its latest claim in a speech
    "called_wolf",  # share of seats that reported a check finding it a wolf
    "calls_wolves",  # share of seats it reported a check finding a wolf
    "accused",  # share of seats whose latest accusation names it
    "votes_received",  # share of the latest exile vote's ballots
    "votes_received_all",  # exile ballots it received over the game, per seat (at most 1)
    "votes_cast_all",  # exile ballots it cast on a seat over the game, per day (at most 1)
)
# ... then what this seat alone knows of it, or its relation to this seat.
PRIVATE_SEAT_FEATURES: tuple[str, ...] = (
    "me",
    "teammate",  # a fellow wolf (wolves only)
    "checked_wolf",  # my own Seer checks
    "checked_good",
    "attacked",  # the wolves' latest victim, as the Witch was told
    "guarded_last",  # the Guard's own latest protection
    "cured_by_me",  # the Witch's own cures
    "voted_me",  # in the latest exile vote
    "voted_by_me",
    "accuses_me",  # its latest accusation names me
    "accused_by_me",  # my latest accusation names it
    "calls_me_wolf",  # it reported a check finding me a wolf
    "called_wolf_by_me",  # I reported a check finding it a wolf
)
SEAT_FEATURES: tuple[str, ...] = (*PUBLIC_SEAT_FEATURES, *PRIVATE_SEAT_FEATURES)
_COLUMN = {name: i for i, name in enumerate(SEAT_FEATURES)}
_CLAIM_COLUMN = {r: _COLUMN[f"claims={r}"] for r in CLAIMABLE}
_STEP_INDEX = {s: i for i, s in enumerate(DECISION_STEPS)}
_ROLE_INDEX = {r: i for i, r in enumerate(ROLES)}


def feature_names(seats: Sequence[str]) -> tuple[str, ...]:
    return (*GLOBAL_FEATURES, *(f"{s}.{f}" for s in seats for f in SEAT_FEATURES))


class SeatKnowledge:
    """What a seat noted from the events it saw, fed event by event: the prompt's own
    facts ledger, and the wolves' latest victim as the Witch was told."""

    def __init__(self, seat: str) -> None:
        self.seat = seat
        self.ledger = FactsLedger()
        self.attacked: str | None = None
        self.seen = 0  # the table's private events read so far (by the incremental observer)

    def observe(self, events: Iterable[Event]) -> "SeatKnowledge":
        for event in events:
            self.ledger.observe(event)
            if event.kind is EventKind.WITCH_INFO and event.seat == self.seat:
                self.attacked = event.target
        return self


class SeatFacts(NamedTuple):
    """What a seat knows of itself beyond the events: its role, its pack, its potions and
    its last protection (the view's own fields), and the step it is asked, if any (a
    named tuple: the environment builds one per observation)."""

    seat: str
    role: Role
    day: int
    step: str | None
    teammates: tuple[str, ...]
    cure_available: bool | None
    poison_available: bool | None
    last_guarded: str | None

    @classmethod
    def of(cls, view: SeatView) -> "SeatFacts":
        return cls(view.seat, view.role, view.day, view.step, view.teammates,
                   view.cure_available, view.poison_available, view.last_guarded)  # fmt: skip


# A seat's public standing: alive, sheriff, publicly revealed role, can vote (PlayerInfo's).
Standing = tuple[bool, bool, Role | None, bool]
SEATS_AT = len(GLOBAL_FEATURES)  # where the per-seat features begin
_ALIVE_SHARE = GLOBAL_FEATURES.index("alive_share")
# Per share added: its running sums, as a float32 feature holds them after 0, 1, 2 ... adds.
_SUMS: dict[float, list[float]] = {}
# The events of which the public ledger's claims, named wolves, accusations and exile
# votes come (prompts/recall.py FactsLedger.observe), the ledger fields features read.
FEATURE_EVENTS = frozenset({EventKind.SPEECH, EventKind.BALLOT})


def sums(share: float, most: int) -> list[float]:
    """0, 1 ... `most` shares added one at a time to a float32 feature (exactly what adding
    them to the array in turn leaves): a feature counted first and written once holds it."""
    import numpy as np

    known = _SUMS.setdefault(share, [0.0])
    if len(known) <= most:
        total = np.array([known[-1]], np.float32)
        while len(known) <= most:
            total[0] += share
            known.append(float(total[0]))
    return known


class VoteTally:
    """The exile ballots of the whole game each seat received and cast, read from a public
    ledger once each: a table that grows a ledger reads only its new ballots."""

    def __init__(self) -> None:
        self.received: dict[str, int] = {}
        self.cast: dict[str, int] = {}
        self._read: dict[int, int] = {}  # day -> its ballots read

    def update(self, public: FactsLedger) -> "VoteTally":
        for day, ballots in public.votes.items():
            read = self._read.get(day, 0)
            for voter, target in ballots[read:]:
                if target is not None:
                    self.received[target] = self.received.get(target, 0) + 1
                    self.cast[voter] = self.cast.get(voter, 0) + 1
            self._read[day] = len(ballots)
        return self


def shared_out(shares: Mapping[int, int], n: int, values: dict[int, float]) -> dict[int, float]:
    """`values` with each index's count of 1/n shares, at most 1."""
    if shares:
        summed = sums(1.0 / n, max(shares.values()))
        for index, k in shares.items():
            values[index] = min(summed[k], 1.0)
    return values


def said(at: Mapping[str, int], public: FactsLedger) -> dict[int, float]:
    """The public columns the speeches give (index -> value): each seat's claim, the seats
    that called it a wolf, the wolves it called, the seats that accuse it."""
    n, values, shares = len(at), dict[int, float](), dict[int, int]()
    for seat, claim in public.claims.items():
        column = _CLAIM_COLUMN.get(claim.value)
        if column is not None:
            values[at[seat] + column] = 1.0
    called, calls = _COLUMN["called_wolf"], _COLUMN["calls_wolves"]
    for named, reporters in public.named_wolves.items():
        values[at[named] + called] = len(reporters) / n
        for reporter in reporters:
            shares[at[reporter] + calls] = shares.get(at[reporter] + calls, 0) + 1
    for target in public.accused.values():
        index = at[target] + _COLUMN["accused"]
        shares[index] = shares.get(index, 0) + 1
    return shared_out(shares, n, values)


def voted(at: Mapping[str, int], public: FactsLedger, tally: VoteTally | None) -> dict[int, float]:
    """The public columns the exile votes give (index -> value): the latest vote's ballots
    each seat received, and the game's it received and cast."""
    if not public.votes:
        return {}
    n, values, shares = len(at), dict[int, float](), dict[int, int]()
    received, cast = _COLUMN["votes_received"], _COLUMN["votes_cast_all"]
    for _voter, ballot in public.votes[max(public.votes)]:
        if ballot is not None:
            shares[at[ballot] + received] = shares.get(at[ballot] + received, 0) + 1
    tally = (tally or VoteTally()).update(public)
    for seat, k in tally.received.items():
        shares[at[seat] + received + 1] = k
    per_day = sums(1.0 / FEATURE_DAYS, max(tally.cast.values(), default=0))
    for seat, k in tally.cast.items():
        values[at[seat] + cast] = min(per_day[k], 1.0)
    return shared_out(shares, n, values)


class PublicFeatures:
    """What the features of every seat of a table share, built once for all from the
    public ledger: each seat's public columns read from it (the private ones 0, the
    standing added by `at_standing`), and the marks public facts put in a seat's private
    columns (`marks`), while the ledger takes no more FEATURE_EVENTS. `tally`: the game's
    ballots, read up to the ledger's; `since`: these features before the ledger took events
    of the kinds `heard` alone, whose columns of the speeches or of the votes are kept."""

    def __init__(
        self,
        seats: Sequence[str],
        public: FactsLedger,
        tally: VoteTally | None = None,
        since: "PublicFeatures | None" = None,
        heard: Iterable[EventKind] = FEATURE_EVENTS,
    ) -> None:
        import numpy as np

        n, width = len(seats), len(SEAT_FEATURES)
        at = self.at = {s: SEATS_AT + i * width for i, s in enumerate(seats)}
        self._public = public
        self._marks: dict[str, list[int]] = {}
        heard = frozenset(heard)
        self.spoken: dict[int, float] = (
            since.spoken if since and EventKind.SPEECH not in heard else said(at, public)
        )
        self.votes: dict[int, float] = (
            since.votes if since and EventKind.BALLOT not in heard else voted(at, public, tally)
        )
        values = {**self.spoken, **self.votes}
        self.vector = np.zeros(SEATS_AT + n * width, np.float32)
        if values:
            self.vector[list(values)] = list(values.values())

    def marks(self, seat: str) -> list[int]:
        """The indices of `seat`'s private columns the public facts mark: who voted for it
        and whom it voted for in the latest exile vote, who accuses it and whom it accuses,
        who called it a wolf and whom it called one."""
        flat = self._marks.get(seat)
        if flat is not None:
            return flat
        public, at, flat = self._public, self.at, []

        def mark(other: str | None, column: str) -> None:
            if other in at:
                flat.append(at[other] + _COLUMN[column])

        if public.votes:
            for voter, ballot in public.votes[max(public.votes)]:
                if ballot == seat:
                    mark(voter, "voted_me")
                elif voter == seat:
                    mark(ballot, "voted_by_me")
        for accuser, target in public.accused.items():
            if target == seat:
                mark(accuser, "accuses_me")
        mark(public.accused.get(seat), "accused_by_me")
        for reporter in public.named_wolves.get(seat, ()):
            mark(reporter, "calls_me_wolf")
        for named, reporters in public.named_wolves.items():
            if seat in reporters:
                mark(named, "called_wolf_by_me")
        self._marks[seat] = flat
        return flat

    def at_standing(self, standing: "StandingMarks") -> "np.ndarray":
        """The vector every seat's features start from: the public columns with the
        seats' standing (`standing_marks`)."""
        vector = self.vector.copy()
        marks, share = standing
        vector[marks] = 1.0
        vector[_ALIVE_SHARE] = share
        return vector


# The indices a table's standing sets to 1, and the living share.
StandingMarks = tuple[list[int], "np.floating[Any]"]


def standing_marks(standing: Sequence[Standing]) -> StandingMarks:
    """Where the seats' standing marks the features (alive, sheriff, revealed wolf or good,
    can vote), and the living share."""
    import numpy as np

    width, marks, living = len(SEAT_FEATURES), [], 0
    for i, (alive, sheriff, revealed, can_vote) in enumerate(standing):
        row = SEATS_AT + i * width
        living += alive
        marks += [row + c for c, on in ((0, alive), (1, sheriff), (4, can_vote)) if on]
        if revealed is not None:
            marks.append(row + (2 if camp_of(revealed) is Camp.WOLF else 3))
    return marks, np.float32(living) / len(standing)


def seat_features(
    public: PublicFeatures, shared: "np.ndarray", own: SeatKnowledge, facts: SeatFacts
) -> "np.ndarray":
    """The structured observation of the seat of `facts`: GLOBAL_FEATURES, then
    SEAT_FEATURES per seat (float32 in [0, 1]). `public` is what every seat's features
    share and `shared` its vector at this state (`public.at_standing`), `own` the seat's
    knowledge of its private events (a ledger fed every event it saw serves as both)."""
    out = shared.copy()
    out[0] = min(facts.day, FEATURE_DAYS) / FEATURE_DAYS
    if facts.step is not None:
        out[1 + _STEP_INDEX[facts.step]] = 1.0
    base = 1 + len(DECISION_STEPS)
    out[base + _ROLE_INDEX[facts.role]] = 1.0
    base += len(ROLES)
    out[base], out[base + 1] = bool(facts.cure_available), bool(facts.poison_available)
    at = public.at

    def mark(seat: str | None, column: str) -> None:
        if seat in at:
            out[at[seat] + _COLUMN[column]] = 1.0

    mark(facts.seat, "me")
    for mate in facts.teammates:
        mark(mate, "teammate")
    ledger = own.ledger
    for checked, result in ledger.checks().items():
        mark(checked, "checked_wolf" if result == "wolf" else "checked_good")
    mark(own.attacked, "attacked")
    mark(facts.last_guarded, "guarded_last")
    for cured in ledger.saved():
        mark(cured, "cured_by_me")
    for flat in public.marks(facts.seat):
        out[flat] = 1.0
    return out


def view_standing(view: SeatView) -> list[Standing]:
    return [(p.alive, p.sheriff, p.revealed_role, p.can_vote) for p in view.players]


def features(view: SeatView, known: SeatKnowledge | None = None) -> list[float]:
    """The structured observation of a view, read from the view alone (the environment
    builds the same vector incrementally, tests/env/test_env_views.py). `known`: the view's
    events already read; by default they are read from the view."""
    if known is None:
        known = SeatKnowledge(view.seat).observe(view.events)
    seats = [p.seat for p in view.players]
    public = PublicFeatures(seats, known.ledger)
    shared = public.at_standing(standing_marks(view_standing(view)))
    vector = seat_features(public, shared, known, SeatFacts.of(view))
    return [float(x) for x in vector]
