"""Grounds: the public facts a structured speaker gives as the reason for its act or its
whisper, each a short sentence about the seats it names ("P05 voted to exile P03 on day
1"). A small model picks one among them (the grammar offers no other) where it wrote a free
reason before: the embedded model's free reasons of 60 characters were copies of its prompt,
garbled seat lists or a wolf's own role often enough that a person reading a random sample
of 60 of its texts found most of them out of character or meaningless (seeds 29-38,
docs/benchmarks.md). A ground is true of the game as the whole table saw it, so said aloud
it gives nothing away, and a liar lies with its act (a claim, a false check), not with its
evidence.

Built from the seat's facts ledger (prompts/recall.py): role claims, reported checks,
accusations, the latest day's exile ballots and the seats that sided with an exposed wolf.
A ground that names no living seat backs no act, so none is offered."""

import re
from collections.abc import Collection, Mapping, Sequence

# The ground of an act or a whisper before anything has been seen: offered only then.
NO_GROUND = "no evidence yet"
_SEAT_ID = re.compile(r"\bP\d{2}\b")
# A role as a claim names it: power roles are one seat each, a villager one of several.
_CLAIMED = {"villager": "a villager"}


def _claim(seat: str, role: str) -> str:
    return f"{seat} claimed to be {_CLAIMED.get(role, 'the ' + role.title())}"


def grounds(
    living: Collection[str],
    claims: Mapping[str, str],
    named_wolves: Mapping[str, Sequence[str]],
    accused: Mapping[str, str],
    votes: Mapping[int, Sequence[tuple[str, str | None]]],
    wolf_allies: Mapping[str, str],
) -> tuple[str, ...]:
    """The grounds a seat may give: `claims` (seat -> latest claimed role), `named_wolves`
    (seat -> the seats that reported a check finding it a wolf), `accused` (seat -> the seat
    it last suspected aloud), `votes` (day -> exile ballots; the latest day's are offered),
    `wolf_allies` (seat -> the exposed wolf it voted with), strongest evidence first, then
    NO_GROUND."""
    latest = votes[max(votes)] if votes else ()
    day = max(votes) if votes else 0
    found = [
        *(_claim(seat, role) for seat, role in sorted(claims.items())),
        *(
            f"{reporter} called {seat} a wolf"
            for seat, reporters in sorted(named_wolves.items())
            for reporter in reporters
        ),
        *(
            f"{seat} voted with the exposed wolf {wolf}"
            for seat, wolf in sorted(wolf_allies.items())
        ),
        *(f"{seat} suspected {target}" for seat, target in sorted(accused.items())),
        *(f"{voter} voted to exile {target} on day {day}" for voter, target in latest if target),
    ]
    alive = set(living)
    offered = tuple(dict.fromkeys(g for g in found if alive & named(g)))
    return offered or (NO_GROUND,)


def named(ground: str) -> set[str]:
    """The seats a ground names."""
    return set(_SEAT_ID.findall(ground))
