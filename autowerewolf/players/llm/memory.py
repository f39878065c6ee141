"""A seat's memory: what it saw, as an append-only log, a facts ledger and, past a budget,
a digest of the oldest part, so prompts stay bounded however long the game runs.

Memory is derived from the seat's own view only; its wording comes from `prompts`."""

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from autowerewolf.prompts.render import compact, digest_line
from autowerewolf.rules.events import Event, EventKind
from autowerewolf.rules.views import SeatView

# Characters of verbatim log kept in the prompt; older lines are folded into the digest.
DEFAULT_BUDGET_CHARS = 6000
# After folding, this share of the budget stays verbatim, so folds happen rarely and the
# prompt prefix (and the server's prompt cache) survives between them.
KEEP_AFTER_FOLD = 0.4
CLAIM = re.compile(r"\bI(?: am|'m)(?: the| a)? (seer|witch|hunter|guard|idiot|villager)\b", re.I)


@dataclass(frozen=True)
class Fact:
    """One noted fact: what kind, about whom, and when."""

    kind: str  # check, potion, claim, death, reveal
    seat: str | None
    value: str
    day: int


@dataclass
class FactsLedger:
    """Structured facts drawn from the seat's own view."""

    facts: list[Fact] = field(default_factory=list)
    claims: dict[str, Fact] = field(default_factory=dict)  # the latest claim of each seat
    votes: dict[int, list[tuple[str, str | None]]] = field(default_factory=dict)

    def observe(self, event: Event) -> None:
        kind, day, note = event.kind, event.day, self.facts.append
        if kind is EventKind.SEER_RESULT:
            note(Fact("check", event.target, event.value or "", day))
        elif kind is EventKind.WITCH_CURE:
            note(Fact("potion", event.target, "cure", day))
        elif kind is EventKind.WITCH_POISON:
            note(Fact("potion", event.target, "poison", day))
        elif kind is EventKind.SPEECH and event.actor and event.text:
            match = CLAIM.search(event.text)
            if match:
                self.claims[event.actor] = Fact("claim", event.actor, match.group(1).lower(), day)
        elif kind is EventKind.DEATHS_ANNOUNCED:
            for seat in event.targets:
                note(Fact("death", seat, "night", day))
        elif kind is EventKind.EXILE and event.target:
            note(Fact("death", event.target, "exiled", day))
        elif kind is EventKind.HUNTER_SHOT and event.target:
            note(Fact("reveal", event.actor, "hunter", day))
            note(Fact("death", event.target, "shot", day))
        elif kind is EventKind.SELF_EXPLOSION:
            note(Fact("reveal", event.actor, "werewolf", day))
            note(Fact("death", event.actor, "exploded", day))
        elif kind is EventKind.IDIOT_FLIP:
            note(Fact("reveal", event.actor, "idiot", day))
        elif kind is EventKind.BALLOT and event.value == "exile" and event.actor:
            self.votes.setdefault(day, []).append((event.actor, event.target))


@dataclass
class SeatMemory:
    reader: str  # the seat whose memory this is
    budget_chars: int = DEFAULT_BUDGET_CHARS
    digest: list[str] = field(default_factory=list)
    recent: list[tuple[Event, str]] = field(default_factory=list)
    ledger: FactsLedger = field(default_factory=FactsLedger)
    seen: int = 0

    def update(self, view: SeatView) -> list[str]:
        """Take in the events new since the last call; returns their lines."""
        new = view.events[self.seen :]
        self.seen = len(view.events)
        for event in new:
            self.ledger.observe(event)
        lines = []
        for event, text in compact(new, self.reader):
            line = f"D{event.day} {text}"
            self.recent.append((event, line))
            lines.append(line)
        if sum(len(line) + 1 for _, line in self.recent) > self.budget_chars:
            self._fold()
        return lines

    def _fold(self) -> None:
        keep_chars = int(self.budget_chars * KEEP_AFTER_FOLD)
        kept: list[tuple[Event, str]] = []
        size = 0
        for event, line in reversed(self.recent):
            size += len(line) + 1
            if size > keep_chars:
                break
            kept.append((event, line))
        folded: Sequence[tuple[Event, str]] = self.recent[: len(self.recent) - len(kept)]
        self.digest += [
            f"D{e.day} {short}"
            for e, _ in folded
            if (short := digest_line(e, self.reader)) is not None
        ]
        self.recent = list(reversed(kept))
