"""A seat's memory: what it saw, folded by day, and a facts ledger.

Memory is a pure function of the seat's view: the same view gives the same memory whether
the seat has been asked every question of the game, or its live player was rebuilt after a
resume or a fork. Events before the latest folding dawn (the dawn of Day 4, 7, 10 ...) are
folded into a digest: the day before keeps its speeches cut short, older days their facts
only; the events since that dawn stay verbatim. The digest changes only at those dawns, so
between them a seat's prompt grows only at its end (the server's prompt cache reuses the
rest), and however long the game runs the prompt stays about three days long.

Its wording comes from `prompts/memory.py` and `prompts/render.py`."""

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

# CLAIM is re-exported: the out-of-character checks read role claims with it.
from autowerewolf.prompts.claims import CLAIM as CLAIM
from autowerewolf.prompts.claims import read_speech
from autowerewolf.prompts.render import compact, digest_line, revealed_roles
from autowerewolf.rules.events import Event, EventKind
from autowerewolf.rules.roles import Camp, on_wolf_side
from autowerewolf.rules.views import SeatView

# Characters kept of each speech of the day before the latest folding dawn.
SPEECH_DIGEST_CHARS = 48
# A fold changes a seat's prompt where its digest begins, so the server recomputes all of it
# after that point: on the embedded model that was about 1,000 tokens for each of the twelve
# seats at every dawn, 20-27 s a seat at 30-65 prompt tokens/s. Folding every third dawn
# (Day 4, 7 ...) spares most games of 3-5 days one or both of the folds that every other
# dawn cost (about 1,100 tokens for each of the six slots of shared views at each), and
# three days of structured speeches stay well inside a slot (prompts of up to 3,413 tokens
# in ten games, seeds 29-38; 3,275 with two days).
FOLD_EVERY_DAYS = 3
# Days a seat must have voted as an exposed wolf did before that counts as evidence against
# it. Over ten embedded-model games a seat that voted with a wolf on one day was a wolf 33%
# of the time (28 of 84), hardly above the 27% of any other seat; on two days, 55% (6 of
# 11): `python benchmarks/evidence.py`.
ALLY_DAYS = 2


@dataclass(frozen=True)
class Fact:
    """One noted fact: what kind, about whom, and when."""

    kind: str  # check, potion, claim, death, reveal
    seat: str | None
    value: str
    day: int


@dataclass
class FactsLedger:
    """Structured facts drawn from the seat's own view; speeches are read by
    `prompts/claims.py`, seats named by id or by display name (`names`: seat -> name)."""

    names: Mapping[str, str] = field(default_factory=dict)
    facts: list[Fact] = field(default_factory=list)
    claims: dict[str, Fact] = field(default_factory=dict)  # the latest claim of each seat
    votes: dict[int, list[tuple[str, str | None]]] = field(default_factory=dict)
    # seat -> the seats that reported a check finding it a wolf, in the order they did (a
    # seat repeating another's report, "his check found P05 a wolf", reports nothing)
    named_wolves: dict[str, list[str]] = field(default_factory=dict)
    accused: dict[str, str] = field(default_factory=dict)  # seat -> the seat it last suspected

    def observe(self, event: Event) -> None:
        kind, day, note = event.kind, event.day, self.facts.append
        if kind is EventKind.SEER_RESULT:
            note(Fact("check", event.target, event.value or "", day))
        elif kind is EventKind.WITCH_CURE:
            note(Fact("potion", event.target, "cure", day))
        elif kind is EventKind.WITCH_POISON:
            note(Fact("potion", event.target, "poison", day))
        elif kind is EventKind.SPEECH and event.actor and event.text:
            reading = read_speech(event.text, event.actor, self.names)
            if reading.roles:
                self.claims[event.actor] = Fact("claim", event.actor, reading.roles[0], day)
            for named, camp in reading.checks:
                reporters = self.named_wolves.get(named, [])
                if camp is Camp.WOLF and event.actor not in reporters:
                    self.named_wolves[named] = [*reporters, event.actor]
            if reading.accused:
                self.accused[event.actor] = reading.accused[-1]
        elif kind is EventKind.DEATHS_ANNOUNCED:
            for seat in event.targets:
                note(Fact("death", seat, "night", day))
            for seat, role in revealed_roles(event.text).items():  # reveal_role_on_death
                note(Fact("reveal", seat, role, day))
        elif kind is EventKind.EXILE and event.target:
            note(Fact("death", event.target, "exiled", day))
            exiled_role = revealed_roles(event.text).get("role")
            if exiled_role is not None:
                note(Fact("reveal", event.target, exiled_role, day))
        elif kind is EventKind.HUNTER_SHOT and event.target:
            note(Fact("reveal", event.actor, "hunter", day))
            note(Fact("death", event.target, "shot", day))
        elif kind is EventKind.SELF_EXPLOSION and event.value:
            note(Fact("reveal", event.actor, event.value, day))
            note(Fact("death", event.actor, "exploded", day))
        elif kind is EventKind.WOLF_KING_TAKE and event.target:
            note(Fact("death", event.target, "taken", day))
        elif kind is EventKind.IDIOT_FLIP:
            note(Fact("reveal", event.actor, "idiot", day))
        elif kind is EventKind.DUEL and event.target:
            note(Fact("reveal", event.actor, "knight", day))
            if event.value == "wolf":
                note(Fact("reveal", event.target, "werewolf", day))
            loser = event.target if event.value == "wolf" else event.actor
            note(Fact("death", loser, "dueled", day))
        elif kind is EventKind.BALLOT and event.value == "exile" and event.actor:
            self.votes.setdefault(day, []).append((event.actor, event.target))

    def checks(self) -> dict[str, str]:
        """The Seer's own results: seat -> "wolf" or "good"."""
        return {f.seat: f.value for f in self.facts if f.kind == "check" and f.seat}

    def saved(self) -> frozenset[str]:
        """The seats the Witch cured: the wolves attacked them, so they are most likely good."""
        return frozenset(
            f.seat for f in self.facts if f.kind == "potion" and f.value == "cure" and f.seat
        )

    def revealed(self) -> dict[str, str]:
        """Publicly revealed roles: seat -> role."""
        return {f.seat: f.value for f in self.facts if f.kind == "reveal" and f.seat}

    def days_voted_with(self, seat: str) -> Counter[str]:
        """Each other seat's count of days it voted for the same player as `seat` did."""
        days: Counter[str] = Counter()
        for ballots in self.votes.values():
            targets = {target for voter, target in ballots if voter == seat and target}
            days.update({voter for voter, target in ballots if voter != seat and target in targets})
        return days

    def wolf_allies(self) -> dict[str, str]:
        """Seats that sided with a wolf exposed since (by a self-explosion or a revealed
        role): they voted for the same player as that wolf on `ALLY_DAYS` days or more.
        Vouching for a wolf is not counted: over the same ten games 30 of the 33 seats that
        did were good. seat -> the exposed wolf."""
        exposed = sorted(seat for seat, role in self.revealed().items() if on_wolf_side(role))
        allies: dict[str, str] = {}
        for wolf in exposed:
            for seat, days in sorted(self.days_voted_with(wolf).items()):
                if days >= ALLY_DAYS and seat not in exposed:
                    allies.setdefault(seat, wolf)
        return allies


@dataclass(frozen=True)
class Memory:
    digest: tuple[str, ...]  # earlier days, abridged
    recent: tuple[str, ...]  # verbatim since the latest dawn
    ledger: FactsLedger
    verbatim_day: int  # the day of the latest folding dawn (0 before the first)


def _folding_dawn(events: tuple[Event, ...]) -> int:
    """Index of the latest "Day N begins" event that folds the memory (Day 4, 7, 10 ...),
    0 before the first one."""
    for index in range(len(events) - 1, -1, -1):
        event = events[index]
        dawn = event.kind is EventKind.DAY_START
        if dawn and event.day > 1 and (event.day - 1) % FOLD_EVERY_DAYS == 0:
            return index
    return 0


def remember(view: SeatView) -> Memory:
    """The seat's memory at this view."""
    events, reader = view.events, view.seat
    ledger = FactsLedger(names={p.seat: p.name for p in view.players})
    for event in events:
        ledger.observe(event)
    cut = _folding_dawn(events)
    # The day before the folding dawn keeps its speeches, cut short; earlier days keep their
    # facts only (the ledger keeps role claims and the last two days' votes).
    recent_day = events[cut].day - 1 if cut else 0
    digest = tuple(
        f"D{e.day} {short}"
        for e in events[:cut]
        if (short := digest_line(e, reader, SPEECH_DIGEST_CHARS if e.day >= recent_day else None))
        is not None
    )
    recent = tuple(f"D{e.day} {text}" for e, text in compact(events[cut:], reader))
    day = events[cut].day if cut else 0
    return Memory(digest=digest, recent=recent, ledger=ledger, verbatim_day=day)
