"""Who held which role in a finished game: from its omniscient DEAL event."""

from collections.abc import Sequence

from autowerewolf.rules.events import Event, EventKind
from autowerewolf.rules.roles import Role


def roles_of(events: Sequence[Event]) -> dict[str, Role]:
    for e in events:
        if e.kind is EventKind.DEAL and e.text:
            pairs = (part.strip().partition("=") for part in e.text.split(","))
            return {seat: Role(role) for seat, _, role in pairs}
    raise ValueError("the game has no DEAL event")
