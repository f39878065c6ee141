"""Events as readable lines, for replays, human seats and model observations."""

from collections.abc import Callable, Iterable

from autowerewolf.rules.events import Event, EventKind


def _who(seat: str | None) -> str:
    return seat or "nobody"


_FORMATS: dict[EventKind, Callable[[Event], str]] = {
    EventKind.GAME_START: lambda e: f"Game starts on board {e.value}: {e.text}.",
    EventKind.ROLE: lambda e: f"{e.seat}, your role is {e.value}.",
    EventKind.WOLF_TEAM: lambda e: f"The werewolves are {', '.join(e.targets)}.",
    EventKind.DEAL: lambda e: f"Roles: {e.text}.",
    EventKind.NIGHT_START: lambda e: f"Night {e.day} falls.",
    EventKind.WOLF_PROPOSAL: lambda e: (
        f"[wolves] {e.actor} proposes to kill {_who(e.target)}" + (f": {e.text}" if e.text else ".")
    ),
    EventKind.WOLF_TARGET: lambda e: f"[wolves] The pack's target is {_who(e.target)}.",
    EventKind.SEER_RESULT: lambda e: f"[seer] {e.target} is {e.value}.",
    EventKind.WITCH_INFO: lambda e: (
        f"[witch] Tonight the wolves attack {e.target}."
        if e.target
        else "[witch] No attack tonight."
    ),
    EventKind.WITCH_CURE: lambda e: f"[witch] You save {e.target}.",
    EventKind.WITCH_POISON: lambda e: f"[witch] You poison {e.target}.",
    EventKind.GUARD: lambda e: f"[guard] You protect {_who(e.target)}.",
    EventKind.DEATH: lambda e: f"(moderator) {e.target} dies: {e.value}.",
    EventKind.DAY_START: lambda e: f"Day {e.day} begins.",
    EventKind.SIGNUP: lambda e: (
        f"{e.actor} {'runs for sheriff' if e.value == 'run' else 'does not run'}."
    ),
    EventKind.SPEECH: lambda e: (
        f"{e.actor} ({e.value.replace('_', ' ') if e.value else 'speech'}): {e.text}"
    ),
    EventKind.WITHDRAW: lambda e: f"{e.actor} withdraws from the election.",
    EventKind.BALLOT: lambda e: (
        f"{e.actor} votes for {e.target or 'nobody (abstains)'} ({e.value}, round {e.round}"
        + (f", weight {e.weight:g}" if e.weight and e.weight != 1 else "")
        + ")."
    ),
    EventKind.VOTE_RESULT: lambda e: f"Vote result ({e.value}): {e.text}.",
    EventKind.SHERIFF: lambda e: {
        "elected": f"{e.target} is elected sheriff.",
        "passed": f"{e.actor} passes the badge to {e.target}.",
        "torn": f"{e.actor} tears the badge.",
        "postponed": "The election is postponed to the next day.",
    }.get(e.value or "", f"The badge is lost ({e.text})."),
    EventKind.DEATHS_ANNOUNCED: lambda e: (
        f"Last night {', '.join(e.targets)} died." if e.targets else "Last night was peaceful."
    ),
    EventKind.DIRECTION: lambda e: f"Sheriff {e.actor} chooses {e.value} speaking order.",
    EventKind.HUNTER_SHOT: lambda e: (
        f"{e.actor} reveals as Hunter and shoots {e.target}."
        if e.target
        else f"(moderator) Hunter {e.actor} declines to shoot."
    ),
    EventKind.SELF_EXPLOSION: lambda e: f"{e.actor} self-explodes and is revealed as a werewolf.",
    EventKind.IDIOT_FLIP: lambda e: (
        f"{e.actor} is exiled, reveals as the Village Idiot and survives."
    ),
    EventKind.EXILE: lambda e: (
        f"{e.target} is exiled." if e.target else f"Nobody is exiled ({e.text})."
    ),
    EventKind.GAME_OVER: lambda e: f"Game over: {e.value} ({e.text}).",
}


def describe(event: Event) -> str:
    return _FORMATS[event.kind](event)


def lines(events: Iterable[Event]) -> list[str]:
    return [f"D{e.day} {describe(e)}" for e in events]
