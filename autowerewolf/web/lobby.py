"""The lobby's choices and turning a lobby form into a checked game.

The form is JSON: `{"board", "seed", "variants": {flag: value}, "default": kind,
"seats": {"P03": kind}}`. It is validated exactly as the command line validates a game
(preflight) before anything is created, and LLM seats' models are resolved first, so a
mistake is one `error:` line and no game.
"""

import os
from typing import Any

from pydantic import ValidationError

from autowerewolf.backends.local_server import llama_server_binary
from autowerewolf.errors import SettingsError, one_line
from autowerewolf.players.factory import PlayerBuilder, check_models
from autowerewolf.players.seating import Seating
from autowerewolf.preflight import preflight, seat_ids
from autowerewolf.rules.config import BOARDS, MAX_SEED, GameSetup
from autowerewolf.rules.variants import Variants

# Seat kinds the lobby offers, in the form's order. Scripted seats need a script file,
# which the command line takes. A new kind (a plug-in agent) is one more entry here.
SEAT_KINDS: tuple[dict[str, str], ...] = (
    {"kind": "llm", "label": "model"},
    {"kind": "random", "label": "random"},
    {"kind": "heuristic", "label": "heuristic"},
    {"kind": "human", "label": "human"},
)
_KINDS = {k["kind"] for k in SEAT_KINDS}


def choices() -> dict[str, Any]:
    """Boards with their seat counts and rule flags with their defaults, for the form."""
    flags = []
    for name, field in Variants.model_fields.items():
        default = field.default
        flags.append(
            {
                "name": name,
                "default": getattr(default, "value", default),
                "type": type(getattr(default, "value", default)).__name__,
                "choices": [m.value for m in type(default)] if hasattr(default, "value") else None,
                "help": field.description or "",
            }
        )
    return {
        "boards": [
            {"name": b.name, "seats": len(b.roles), "roles": [r.value for r in b.roles]}
            for b in BOARDS.values()
        ],
        "kinds": list(SEAT_KINDS),
        "variants": flags,
    }


def parse_form(form: object) -> tuple[GameSetup, Seating]:
    """The game a lobby form describes; raises SettingsError with one line."""
    if not isinstance(form, dict):
        raise SettingsError("the game form must be a JSON object")
    unknown = sorted(set(form) - {"board", "seed", "variants", "default", "seats"})
    if unknown:
        raise SettingsError(f"unknown field {unknown[0]!r} in the game form")
    seed = form.get("seed")
    if seed in (None, ""):
        seed = int.from_bytes(os.urandom(3), "big")
    kinds = [form.get("default", "random"), *dict(form.get("seats") or {}).values()]
    for kind in kinds:
        if kind not in _KINDS:
            raise SettingsError(f"seat kind {kind!r} is not one of {', '.join(sorted(_KINDS))}")
    try:
        setup = GameSetup(
            board=form.get("board") or "12-A", seed=seed, variants=form.get("variants") or {}
        )
        seating = Seating(default=form.get("default", "random"), seats=form.get("seats") or {})
    except ValidationError as err:
        raise SettingsError(one_line(err)) from None
    if not 0 <= setup.seed <= MAX_SEED:
        raise SettingsError(f"seed must be between 0 and {MAX_SEED}")
    return setup, seating


def check_game(setup: GameSetup, seating: Seating, players: PlayerBuilder) -> list[str]:
    """Validate the game and its LLM seats' models; return the human seats."""
    config = preflight(setup, seating)
    seats = seat_ids(config)
    llm_seats = [s for s in seats if seating.kind_of(s) == "llm"]
    if llm_seats:
        check_models(players.models, llm_seats, config.roles)
        configs = [players.models.resolve(s, r.value) for s in llm_seats for r in config.roles]
        if any(c.backend == "local" and c.base_url is None for c in configs):
            llama_server_binary()  # the embedded model needs the `local` extra: say so now
    return [s for s in seats if seating.kind_of(s) == "human"]
