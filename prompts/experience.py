"""The words of the experience pool (WereWolf-Plus, section 3.1): the situation a seat
stores and retrieves before an exile vote, what it did there and how the game ended, and
the note that shows retrieved experiences. Situations name no seat: seat ids mean nothing
in another game."""

from collections import Counter
from collections.abc import Mapping, Sequence

from autowerewolf.rules.roles import on_wolf_side

EXPERIENCE = "experience"  # the step name of a retrieval note


def situation(
    role: str,
    day: int,
    alive: int,
    seats: int,
    deaths: Mapping[str, int],
    claims: Sequence[str],
    checks: Mapping[str, int],
    sheriff: bool,
) -> str:
    """The seat's situation at an exile vote, from its own view."""
    died = ", ".join(f"{n} {how}" for how, n in sorted(deaths.items())) or "none"
    claimed = ", ".join(f"{role} x{n}" for role, n in sorted(Counter(claims).items())) or "none"
    parts = [
        f"Day {day} exile vote as the {role}; {alive} of {seats} players alive",
        f"dead: {died}",
        f"role claims: {claimed}",
    ]
    if checks:
        found = (f"{n} {side}" for side, n in sorted(checks.items()))
        parts.append(f"your checks found {', '.join(found)}")
    if sheriff:
        parts.append("you hold the sheriff badge")
    return "; ".join(parts) + "."


def action_text(target_role: str | None, own_side: bool) -> str:
    """What the seat did, judged after the game: whom it voted out (None: abstained)."""
    if target_role is None:
        return "You abstained."
    who = "a werewolf" if on_wolf_side(target_role) else f"a good player (the {target_role})"
    side = " of your own side" if own_side else ""
    return f"You voted to exile {who}{side}."


def outcome_text(won: bool) -> str:
    return "Your side won the game." if won else "Your side lost the game."


def retrieved_note(experiences: Sequence[tuple[str, str, str]]) -> str:
    """(situation, action, outcome) of each retrieved experience, most useful first."""
    if not experiences:
        return "Similar past situations: none in your experience pool yet."
    lines = [
        f"{i}) {where} {did} {ending}" for i, (where, did, ending) in enumerate(experiences, 1)
    ]
    return "Similar past situations from earlier games, as your role:\n" + "\n".join(lines)
