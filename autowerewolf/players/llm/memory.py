"""A seat's memory: what it saw, as an append-only log, a facts ledger and, past a budget,
a digest of the oldest part, so prompts stay bounded however long the game runs."""

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from autowerewolf.rules.events import Event, EventKind
from autowerewolf.rules.views import SeatView
from autowerewolf.transcript import describe

# Characters of verbatim log kept in the prompt; older lines are folded into the digest.
DEFAULT_BUDGET_CHARS = 6000
# After folding, this share of the budget stays verbatim, so folds happen rarely and the
# prompt prefix (and the server's prompt cache) survives between them.
KEEP_AFTER_FOLD = 0.4
SPEECH_DIGEST_CHARS = 90
CLAIM = re.compile(r"\bI(?: am|'m)(?: the| a)? (seer|witch|hunter|guard|idiot|villager)\b", re.I)
NIGHT_ONLY = (EventKind.SEER_RESULT, EventKind.WITCH_CURE, EventKind.WITCH_POISON, EventKind.GUARD)


@dataclass
class FactsLedger:
    """Structured facts drawn from the seat's own view."""

    checks: list[str] = field(default_factory=list)
    potions: list[str] = field(default_factory=list)
    claims: dict[str, str] = field(default_factory=dict)
    deaths: list[str] = field(default_factory=list)
    revealed: list[str] = field(default_factory=list)
    votes: dict[int, list[str]] = field(default_factory=dict)

    def observe(self, event: Event) -> None:
        kind = event.kind
        if kind is EventKind.SEER_RESULT:
            self.checks.append(f"{event.target} is {event.value} (night {event.day})")
        elif kind in (EventKind.WITCH_CURE, EventKind.WITCH_POISON):
            self.potions.append(f"{kind.value.split('_')[1]} on {event.target} (night {event.day})")
        elif kind is EventKind.SPEECH and event.actor and event.text:
            match = CLAIM.search(event.text)
            if match:
                self.claims[event.actor] = f"{match.group(1).lower()} (day {event.day})"
        elif kind is EventKind.DEATHS_ANNOUNCED:
            self.deaths += [f"{s} (night {event.day})" for s in event.targets]
        elif kind is EventKind.EXILE and event.target:
            self.deaths.append(f"{event.target} (exiled day {event.day})")
        elif kind is EventKind.HUNTER_SHOT and event.target:
            self.revealed.append(f"{event.actor} hunter")
            self.deaths.append(f"{event.target} (shot day {event.day})")
        elif kind is EventKind.SELF_EXPLOSION:
            self.revealed.append(f"{event.actor} werewolf")
            self.deaths.append(f"{event.actor} (exploded day {event.day})")
        elif kind is EventKind.IDIOT_FLIP:
            self.revealed.append(f"{event.actor} idiot")
        elif kind is EventKind.BALLOT and event.value == "exile" and event.actor:
            self.votes.setdefault(event.day, []).append(f"{event.actor}->{event.target or '-'}")

    def render(self, recent_vote_days: int = 2) -> str:
        parts = []
        if self.checks:
            parts.append("Your checks: " + "; ".join(self.checks))
        if self.potions:
            parts.append("Your potions: " + "; ".join(self.potions))
        if self.claims:
            parts.append(
                "Role claims: "
                + "; ".join(f"{s} claims {c}" for s, c in sorted(self.claims.items()))
            )
        if self.deaths:
            parts.append("Dead: " + ", ".join(self.deaths))
        if self.revealed:
            parts.append("Revealed: " + ", ".join(self.revealed))
        for day in sorted(self.votes)[-recent_vote_days:]:
            parts.append(f"Exile votes day {day}: " + " ".join(self.votes[day]))
        return "\n".join(parts)


def digest_line(event: Event) -> str | None:
    """A shorter form of an old event for the digest; None drops it."""
    if event.kind in (
        EventKind.BALLOT,
        EventKind.SIGNUP,
        EventKind.NIGHT_START,
        EventKind.DAY_START,
    ):
        return None  # the ledger keeps the votes
    if event.kind is EventKind.SPEECH and event.text and len(event.text) > SPEECH_DIGEST_CHARS:
        return f"{event.actor} ({event.value}): {event.text[:SPEECH_DIGEST_CHARS]}..."
    return describe(event)


GROUPED = (EventKind.BALLOT, EventKind.SIGNUP)


def _group(event: Event) -> tuple[EventKind, str | None, int | None]:
    return event.kind, event.value, event.round


def compact(events: Sequence[Event]) -> list[tuple[Event, str]]:
    """Events as lines, with a run of ballots or sign-ups folded into one line."""
    lines: list[tuple[Event, str]] = []
    run: list[Event] = []

    def flush() -> None:
        if not run:
            return
        first = run[0]
        if first.kind is EventKind.SIGNUP:
            runners = [e.actor for e in run if e.value == "run"]
            text = f"Sheriff candidates: {', '.join(r for r in runners if r) or 'none'}."
        else:
            ballots = ", ".join(f"{e.actor}->{e.target or 'abstain'}" for e in run)
            text = f"Ballots ({first.value}, round {first.round}): {ballots}."
        lines.append((first, text))
        run.clear()

    for event in events:
        if run and _group(event) != _group(run[0]):
            flush()
        if event.kind in GROUPED:
            run.append(event)
        else:
            flush()
            lines.append((event, describe(event)))
    flush()
    return lines


@dataclass
class SeatMemory:
    budget_chars: int = DEFAULT_BUDGET_CHARS
    digest: list[str] = field(default_factory=list)
    recent: list[tuple[Event, str]] = field(default_factory=list)
    ledger: FactsLedger = field(default_factory=FactsLedger)
    seen: int = 0

    def update(self, view: SeatView) -> list[str]:
        """Take in the events new since the last call; returns their lines."""
        new = view.events[self.seen :]
        self.seen = len(view.events)
        lines = []
        for event in new:
            self.ledger.observe(event)
        for event, text in compact(new):
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
        folded = self.recent[: len(self.recent) - len(kept)]
        self.digest += [
            f"D{e.day} {short}" for e, _ in folded if (short := digest_line(e)) is not None
        ]
        self.recent = list(reversed(kept))

    def transcript(self) -> str:
        parts = []
        if self.digest:
            parts.append("Earlier (abridged):\n" + "\n".join(self.digest))
        parts.append("\n".join(line for _, line in self.recent))
        return "\n".join(parts)
