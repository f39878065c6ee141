"""What the seat remembers, in words: the game so far (earlier days abridged, then today)
and the facts it noted (checks, potions, claims, deaths, reveals, the last ballots)."""

from collections.abc import Iterable, Mapping, Sequence


def memory_text(digest: Sequence[str], recent: Iterable[str]) -> str:
    """The game so far as the seat remembers it: earlier days abridged, then today."""
    parts = []
    if digest:
        parts.append("Earlier days (abridged):\n" + "\n".join(digest) + "\nSince the last dawn:")
    parts.append("\n".join(recent))
    return "\n".join(parts)


def _join(items: Iterable[str]) -> str:
    return "; ".join(items)


def ledger_text(
    reader: str,
    facts: Sequence[tuple[str, str | None, str, int]],
    claims: Iterable[tuple[str, str, int]],
    votes: Mapping[int, Sequence[tuple[str, str | None]]],
    verbatim_day: int,
) -> str:
    """The seat's noted facts: (kind, seat, value, day) tuples, claims, and the exile ballots
    of the latest day whose ballots are no longer in the verbatim transcript (days before
    `verbatim_day`). The reader's own seat reads "you"."""

    def who(seat: str | None) -> str:
        return "you" if seat == reader else (seat or "-")

    checks = [f"{s} is {v} (night {d})" for k, s, v, d in facts if k == "check"]
    potions = [f"{v} on {who(s)} (night {d})" for k, s, v, d in facts if k == "potion"]
    deaths = [
        f"{who(s)} (night {d})" if v == "night" else f"{who(s)} ({v} day {d})"
        for k, s, v, d in facts
        if k == "death"
    ]
    revealed = [f"{who(s)} {v}" for k, s, v, _ in facts if k == "reveal"]
    parts = []
    if checks:
        parts.append("Your checks: " + _join(checks))
    if potions:
        parts.append("Your potions: " + _join(potions))
    claim_lines = [f"{s} {role} (day {d})" for s, role, d in sorted(claims) if s != reader]
    if claim_lines:
        parts.append("Role claims: " + _join(claim_lines))
    if deaths:
        parts.append("Dead: " + ", ".join(deaths))
    if revealed:
        parts.append("Revealed: " + ", ".join(revealed))
    for day in [d for d in sorted(votes) if d < verbatim_day][-1:]:
        ballots = " ".join(f"{who(voter)}->{who(target)}" for voter, target in votes[day])
        parts.append(f"Exile votes day {day}: {ballots}")
    return "\n".join(parts)
