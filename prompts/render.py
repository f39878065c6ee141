"""The one renderer of events as text: for prompts, human seats, transcripts and replays.

Players' words are untrusted. A speech or a wolf message is rendered as one quoted unit on
its speaker's line: newlines, control and format characters (terminal escapes, bidi
overrides, line separators) are escaped, so a speech can neither start a new line nor
imitate the moderator. The event itself keeps the original text.

Wording is audience-aware: a seat reading its own private events reads "you"; the
omniscient log names the seat.
"""

import unicodedata
from collections.abc import Callable, Iterable, Sequence

from autowerewolf.rules.events import Audience, Event, EventKind

# Characters a quoted text may not carry raw: controls (incl. ESC), format characters
# (bidi overrides, zero-width joiners), line and paragraph separators.
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t", '"': '\\"', "\\": "\\\\"}


def _escape_char(char: str) -> str:
    if char in _ESCAPES:
        return _ESCAPES[char]
    if unicodedata.category(char) in _UNSAFE_CATEGORIES:
        return f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\U{ord(char):08x}"
    return char


def _plain(text: str) -> bool:
    """Whether no character of `text` needs escaping, checked in C: a printable character
    (str.isprintable) is in none of the unsafe categories, nor a newline, return or tab."""
    return text.isprintable() and '"' not in text and "\\" not in text


def quote(text: str | None) -> str:
    """A player's text as one safe, quoted unit."""
    text = text or ""
    if _plain(text):  # nearly every text: no per-character work
        return f'"{text}"'
    return '"' + "".join(_escape_char(c) for c in text) + '"'


def safe(text: str | None) -> str:
    """Text shown unquoted (names, reasons) with any unsafe character escaped."""
    text = text or ""
    if _plain(text):
        return text
    return "".join(_escape_char(c) if c not in '"\\' else c for c in text)


def _who(seat: str | None) -> str:
    return seat or "nobody"


def _private(event: Event, reader: str | None, tag: str, mine: str, theirs: str) -> str:
    """A private event: "you" for its own seat, the seat named for everyone else."""
    return (
        f"[{tag}] {mine}"
        if reader is not None and reader == event.seat
        else f"[{tag} {event.seat}] {theirs}"
    )


def revealed_roles(text: str | None) -> dict[str, str]:
    """Roles a death announcement reveals (`reveal_role_on_death`): its text is
    "P03=seer, P05=werewolf", an exile's "role=werewolf"."""
    pairs = (item.split("=", 1) for item in (text or "").split(", ") if "=" in item)
    return {seat: role for seat, role in pairs}


def _a(role: str) -> str:
    return f"an {role}" if role[:1] in "aeiou" else f"a {role}"


def _role_words(role: str | None) -> str:
    """A role's name as words ("white wolf king"); an event without one names none."""
    return safe(role or "player").replace("_", " ")


def _dead(seats: Sequence[str], text: str | None) -> str:
    roles = revealed_roles(text)
    return ", ".join(f"{s} ({_a(safe(roles[s]))})" if s in roles else s for s in seats)


def _drawn(e: Event) -> str:
    return f" (drawn by lot among {', '.join(e.targets)})" if e.targets else ""


def _exiled(e: Event) -> str:
    role = revealed_roles(e.text).get("role")
    revealed = f" and revealed as {_a(safe(role))}" if role else ""
    return f"{e.target} is exiled{_drawn(e)}{revealed}."


def _seer_result(e: Event, r: str | None) -> str:
    found = f"{_a(safe(e.text))} ({e.value})" if e.text else e.value
    return _private(e, r, "seer", f"{e.target} is {found}.", f"checks {e.target}: {found}.")


def _wolf_target(e: Event) -> str:
    how = {"tie_broken": " (a tie, drawn by lot)", "all_abstained": " (nobody proposed, drawn)"}
    return f"[wolves] The pack's target is {_who(e.target)}{how.get(e.value or '', '')}."


def _guard(e: Event, r: str | None) -> str:
    if e.value == "saved":
        return _private(e, r, "guard", f"Your protection saved {e.target}.", f"saved {e.target}.")
    return _private(e, r, "guard", f"You protect {_who(e.target)}.", f"protects {_who(e.target)}.")


Format = Callable[[Event, str | None], str]

_FORMATS: dict[EventKind, Format] = {
    EventKind.GAME_START: lambda e, r: f"Game starts on board {e.value}: {safe(e.text)}.",
    EventKind.ROLE: lambda e, r: (
        f"Your role is {e.value}." if r == e.seat else f"{e.seat}'s role is {e.value}."
    ),
    EventKind.WOLF_TEAM: lambda e, r: f"The werewolves are {', '.join(e.targets)}.",
    EventKind.DEAL: lambda e, r: f"Roles: {e.text}.",
    EventKind.NIGHT_START: lambda e, r: f"Night {e.day} falls.",
    EventKind.WOLF_PROPOSAL: lambda e, r: (
        f"[wolves] {e.actor} proposes to kill {_who(e.target)}"
        + (f", saying {quote(e.text)}." if e.text else ".")
    ),
    EventKind.WOLF_TARGET: lambda e, r: _wolf_target(e),
    EventKind.SEER_RESULT: _seer_result,
    EventKind.WITCH_INFO: lambda e, r: _private(
        e,
        r,
        "witch",
        f"Tonight the wolves attack {e.target}." if e.target else "No attack tonight.",
        f"is told the wolves attack {e.target}." if e.target else "is told of no attack.",
    ),
    EventKind.WITCH_CURE: lambda e, r: _private(
        e, r, "witch", f"You save {e.target}.", f"saves {e.target}."
    ),
    EventKind.WITCH_POISON: lambda e, r: _private(
        e, r, "witch", f"You poison {e.target}.", f"poisons {e.target}."
    ),
    EventKind.GUARD: _guard,
    EventKind.DEATH: lambda e, r: f"(moderator) {e.target} dies: {e.value}.",
    EventKind.DAY_START: lambda e, r: f"Day {e.day} begins.",
    EventKind.SIGNUP: lambda e, r: (
        f"{e.actor} {'runs for sheriff' if e.value == 'run' else 'does not run'}."
    ),
    EventKind.SPEECH: lambda e, r: (
        f"{e.actor} ({(e.value or 'speech').replace('_', ' ')}) says: {quote(e.text)}"
    ),
    EventKind.BID: lambda e, r: _private(
        e, r, "bid", f"You bid {e.value} to speak next.", f"bids {e.value} to speak next."
    ),
    EventKind.WITHDRAW: lambda e, r: f"{e.actor} withdraws from the election.",
    EventKind.BALLOT: lambda e, r: (
        f"{e.actor} votes for {e.target or 'nobody (abstains)'} ({e.value}, round {e.round}"
        + (f", weight {e.weight:g}" if e.weight and e.weight != 1 else "")
        + ")."
    ),
    EventKind.VOTE_RESULT: lambda e, r: f"Vote result ({e.value}): {e.text}.",
    EventKind.SHERIFF: lambda e, r: {
        "elected": f"{e.target} is elected sheriff.",
        "passed": f"{e.actor} passes the badge to {e.target}.",
        "torn": f"{e.actor} tears the badge.",
        "postponed": "The election is postponed to the next day.",
    }.get(e.value or "", f"The badge is lost ({e.text})."),
    EventKind.DEATHS_ANNOUNCED: lambda e, r: (
        f"Last night {_dead(e.targets, e.text)} died." if e.targets else "Last night was peaceful."
    ),
    EventKind.DIRECTION: lambda e, r: f"Sheriff {e.actor} chooses {e.value} speaking order.",
    EventKind.HUNTER_SHOT: lambda e, r: (
        f"{e.actor} reveals as Hunter and shoots {e.target}."
        if e.target
        else f"(moderator) Hunter {e.actor} declines to shoot."
    ),
    EventKind.SELF_EXPLOSION: lambda e, r: (
        f"{e.actor} self-explodes and is revealed as {_a(_role_words(e.value))}."
    ),
    EventKind.WOLF_KING_TAKE: lambda e, r: f"{e.actor} takes {e.target} with him; {e.target} dies.",
    EventKind.DUEL: lambda e, r: (
        f"{e.actor} reveals as the Knight and duels {e.target}: "
        + (
            f"{e.target} is a werewolf and dies; night falls."
            if e.value == "wolf"
            else f"{e.target} is good, so the Knight dies."
        )
    ),
    EventKind.IDIOT_FLIP: lambda e, r: (
        f"{e.actor} is exiled, reveals as the Village Idiot and survives."
    ),
    EventKind.EXILE: lambda e, r: _exiled(e) if e.target else f"Nobody is exiled ({e.text}).",
    EventKind.GAME_OVER: lambda e, r: f"Game over: {e.value} ({e.text}).",
}


class UnknownEvent(LookupError):
    """An event kind with no wording: a new kind needs its sentence in `_FORMATS`."""


def describe(event: Event, reader: str | None = None) -> str:
    """One event as a sentence, for `reader` (a seat), or for the log when None."""
    wording = _FORMATS.get(event.kind)
    if wording is None:
        raise UnknownEvent(f"no wording for event kind {str(event.kind)!r} (prompts/render.py)")
    return wording(event, reader)


def lines(events: Iterable[Event], reader: str | None = None) -> list[str]:
    return [f"D{e.day} {describe(e, reader)}" for e in events]


def public_only(events: Iterable[Event]) -> list[Event]:
    return [e for e in events if e.audience is Audience.PUBLIC]


# --- compact lines for a seat's memory ------------------------------------------------

_GROUPED = (EventKind.BALLOT, EventKind.SIGNUP)


def _group(event: Event) -> tuple[EventKind, str | None, int | None]:
    return event.kind, event.value, event.round


def _grouped_line(run: Sequence[Event]) -> str:
    first = run[0]
    if first.kind is EventKind.SIGNUP:
        runners = [e.actor for e in run if e.value == "run" and e.actor]
        return f"Sheriff candidates: {', '.join(runners) or 'none'}."
    ballots = ", ".join(f"{e.actor}->{e.target or 'abstain'}" for e in run)
    return f"Ballots ({first.value}, round {first.round}): {ballots}."


def compact(events: Sequence[Event], reader: str | None = None) -> list[tuple[Event, str]]:
    """Events as lines, with a run of ballots or sign-ups folded into one line."""
    out: list[tuple[Event, str]] = []
    run: list[Event] = []
    for event in events:
        if run and _group(event) != _group(run[0]):
            out.append((run[0], _grouped_line(run)))
            run = []
        if event.kind in _GROUPED:
            run.append(event)
        else:
            out.append((event, describe(event, reader)))
    if run:
        out.append((run[0], _grouped_line(run)))
    return out


def digest_line(
    event: Event, reader: str | None = None, speech_chars: int | None = 60
) -> str | None:
    """A shorter form of an old event for a seat's digest; None drops it. Speeches are cut
    to `speech_chars` characters, or dropped when it is None."""
    if event.kind in (
        EventKind.BALLOT,
        EventKind.SIGNUP,
        EventKind.NIGHT_START,
        EventKind.DAY_START,
    ):
        return None  # the facts ledger keeps the votes
    if event.kind is EventKind.SPEECH:
        if speech_chars is None or event.value in ("campaign", "election_pk"):
            return None  # the ledger keeps role claims; the election's outcome stays
        if event.text and len(event.text) > speech_chars:
            label = (event.value or "speech").replace("_", " ")
            return f"{event.actor} ({label}) says: {quote(event.text[:speech_chars])}..."
    return describe(event, reader)
