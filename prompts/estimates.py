"""The private role-estimate question (Strategy Adaptation, section 3.2): for every other
living seat, a line of evidence, then how likely it is to hold each role on a 0-4 scale.

One question for everyone who asks it: the `role_estimates` probe, and agent designs that
estimate roles before deciding. The answer is stored as a record's `data`:
`{"estimates": {seat: {role: 0..4}}, "evidence": {seat: "..."}}`.
"""

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model

from autowerewolf.prompts.answers import SCHEMA_CACHE_SIZE
from autowerewolf.rules.views import SeatView

ROLE_ESTIMATES = "role_estimates"
SCALE = "0 = certainly not, 1 = unlikely, 2 = possible, 3 = likely, 4 = certainly"
EVIDENCE_CHARS = 100


def targets_of(view: SeatView) -> tuple[str, ...]:
    """The seats a role estimate covers: every other living player."""
    return tuple(p.seat for p in view.players if p.alive and p.seat != view.seat)


def roles_of(view: SeatView) -> tuple[str, ...]:
    """The roles an estimate rates: the board's, each once."""
    return tuple(dict.fromkeys(r.value for r in view.rules.roles))


def instruction(day: int, targets: Sequence[str], roles: Sequence[str]) -> str:
    """The question's wording; the seat's own notes come before it in the prompt."""
    return (
        f"Day {day}: privately estimate the role of every other living player "
        f"({', '.join(targets)}). For each one, first write one line of evidence from what you "
        f"saw and heard, then rate how likely they hold each role ({', '.join(roles)}) on a "
        f"scale where {SCALE}. Nobody else will see this."
    )


@lru_cache(maxsize=SCHEMA_CACHE_SIZE)
def estimates_schema(targets: tuple[str, ...], roles: tuple[str, ...]) -> type[BaseModel]:
    """One object per target seat: its evidence first (so the model reasons before it
    rates), then one 0-4 rating per role; a grammar-constrained server can only comply."""
    row_fields: dict[str, Any] = {
        "evidence": (str, Field(max_length=EVIDENCE_CHARS, description="Why, in one line.")),
    }
    for role in roles:
        row_fields[role] = (int, Field(ge=0, le=4, description=f"Likelihood of {role} (0-4)."))
    row = create_model("RoleEstimate", __config__=ConfigDict(extra="forbid"), **row_fields)
    fields: dict[str, Any] = {seat: (row, Field(description=f"About {seat}.")) for seat in targets}
    return create_model("RoleEstimates", __config__=ConfigDict(extra="forbid"), **fields)


def estimates_data(parsed: BaseModel, roles: Sequence[str]) -> dict[str, Any]:
    """The answer as a record's `data`."""
    rows: Mapping[str, Any] = {seat: getattr(parsed, seat) for seat in type(parsed).model_fields}
    return {
        "estimates": {seat: {r: int(getattr(row, r)) for r in roles} for seat, row in rows.items()},
        "evidence": {seat: str(row.evidence) for seat, row in rows.items()},
    }


def likelihood(data: Mapping[str, Any], seat: str, role: str) -> float:
    """Acc of one observer about one seat (Strategy Adaptation's Est): the rating of `role`
    over the sum of the seat's ratings; 0 when every rating is 0."""
    ratings: Mapping[str, int] = data["estimates"].get(seat, {})
    total = sum(ratings.values())
    return ratings.get(role, 0) / total if total else 0.0


def estimates_text(data: Mapping[str, Any], top: int = 2) -> str:
    """An earlier estimate, shortened for the seat's own later prompts."""
    parts = []
    for seat, ratings in sorted(data["estimates"].items()):
        ranked = sorted(ratings.items(), key=lambda kv: -kv[1])[:top]
        roles = ", ".join(f"{role} {n}" for role, n in ranked if n > 0) or "no idea"
        parts.append(f"{seat}: {roles}")
    return "; ".join(parts)


def estimates_note(data: Mapping[str, Any], day: int) -> str:
    """The seat's latest estimate, as it reads it in its later prompts."""
    return f"Your private role estimates (day {day}; 0-4, top roles): {estimates_text(data)}"
