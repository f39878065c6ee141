"""A person's standing in plain words: how and when their seat died, and who won and why.
Both are built from what the rules already say (the seat's own events, the game's win
reason), rendered by the one event renderer, so nothing here knows a role by name."""

import re

from autowerewolf.prompts.render import describe
from autowerewolf.rules.events import Event, EventKind
from autowerewolf.rules.roles import Camp
from autowerewolf.rules.views import SeatView

# The rules' win reasons say "god" for a special role (RULES §8); a person new to the
# game reads the words the table rules put beside it (prompts/table_rules.py).
_JARGON = {r"\bgods?\b": "special role"}


def _dies_in(event: Event, seat: str) -> bool:
    """Whether this event is the seat's death as the seat itself is told it."""
    if event.kind is EventKind.DEATHS_ANNOUNCED:
        return seat in event.targets
    if event.kind in (EventKind.HUNTER_SHOT, EventKind.WOLF_KING_TAKE, EventKind.EXILE):
        return event.target == seat
    if event.kind is EventKind.SELF_EXPLOSION:
        return event.actor == seat
    if event.kind is EventKind.DUEL:
        return (event.target if event.value == "wolf" else event.actor) == seat
    return False


def death_notice(view: SeatView) -> str | None:
    """When and how this seat died, in the words it was told, or None while it lives."""
    me = next((p for p in view.players if p.seat == view.seat), None)
    if me is None or me.alive:
        return None
    death = next((e for e in reversed(view.events) if _dies_in(e, view.seat)), None)
    watch = "You can keep watching the game to its end."
    if death is None:
        return f"You are dead. {watch}"
    return f"You died on day {death.day}: {describe(death, view.seat)} {watch}"


def plain_reason(reason: str) -> str:
    for jargon, words in _JARGON.items():
        reason = re.sub(jargon, words, reason)
    return reason


def ending_words(winner: str | None, reason: str | None) -> str:
    """ "The wolves win: every special role is dead", from the rules' winner and reason."""
    why = plain_reason(reason or "")
    if winner is None:
        return f"The game ends in a draw: {why}." if why else "The game ends in a draw."
    side = "The wolves win" if winner == Camp.WOLF.value else "The good side wins"
    return f"{side}: {why}." if why else f"{side}."
