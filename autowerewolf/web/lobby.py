"""The lobby's choices and turning a lobby form into a checked game.

The form is JSON: `{"board", "seed", "variants": {flag: value}, "default": kind,
"seats": {"P03": kind}, "agents": {"seats": {"P03": design}}, "secret": hex, "link_hours":
hours, "human_deadline_s": seconds}` (`agents` chooses LLM seats' agent designs as a game
file does, agents across a process boundary included: docs/agent-protocol.md;
`human_deadline_s` is each human seat's time per question, none by default). It is
validated exactly as the command line validates a game (preflight) before anything is
created, and LLM seats' models are resolved first, so a mistake is one `error:` line and no
game. Every lobby game has a spectator link, so an empty secret (the deal from the seed
alone) is refused, and a seed and secret another saved game holds are created with a
warning.
"""

from collections.abc import Iterable
from typing import Any

from pydantic import ValidationError

from autowerewolf.backends.local_server import llama_server_binary
from autowerewolf.errors import SettingsError, one_line
from autowerewolf.players.agents.choice import is_external
from autowerewolf.players.factory import PlayerBuilder
from autowerewolf.players.seating import Seating
from autowerewolf.preflight import check_game as preflight_check
from autowerewolf.rules.config import BOARDS, MAX_SEED, GameSetup
from autowerewolf.rules.state import GameState
from autowerewolf.rules.variants import Variants
from autowerewolf.seeding import seed_and_secret
from autowerewolf.web.links import DEFAULT_LIFETIME_S, MAX_LIFETIME_S, MIN_LIFETIME_S

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
    fields = {"board", "seed", "secret", "variants", "default", "seats", "agents", "link_hours",
              "human_deadline_s"}  # fmt: skip
    unknown = sorted(set(form) - fields)
    if unknown:
        raise SettingsError(f"unknown field {unknown[0]!r} in the game form")
    if form.get("secret") == "":
        # Without a secret the seed alone gives the deal, and every game here has a
        # spectator link (and maybe seats): whoever learns the seed would know every role.
        raise SettingsError(
            "a game with seat or spectator links needs a secret: leave the secret out for a "
            "fresh one"
        )
    # A seed and a secret replay a game (`inspect GAME --as omniscient` shows both).
    seed, secret = seed_and_secret(
        None if form.get("seed") in (None, "") else form["seed"], form.get("secret")
    )
    kinds = [form.get("default", "random"), *dict(form.get("seats") or {}).values()]
    for kind in kinds:
        if kind not in _KINDS:
            raise SettingsError(f"seat kind {kind!r} is not one of {', '.join(sorted(_KINDS))}")
    try:
        setup = GameSetup(
            board=form.get("board") or "12-A",
            seed=seed,
            variants=form.get("variants") or {},
            secret=secret,
        )
        seating = Seating(
            default=form.get("default", "random"),
            seats=form.get("seats") or {},
            agents=form.get("agents") or {},
            human_deadline_s=form.get("human_deadline_s"),
        )
    except ValidationError as err:
        raise SettingsError(one_line(err)) from None
    if not 0 <= setup.seed <= MAX_SEED:
        raise SettingsError(f"seed must be between 0 and {MAX_SEED}")
    return setup, seating


def reuse_warning(setup: GameSetup, games: Iterable[tuple[str, GameState | None]]) -> str | None:
    """A warning when saved `games` (id, latest state) hold the new game's seed and secret:
    the two share a deal, and when one ends its public reveal tells the other's table every
    role."""
    same = [
        game_id
        for game_id, game in games
        if game is not None and (game.config.seed, game.config.secret) == (setup.seed, setup.secret)
    ]
    if not same:
        return None
    return (
        f"warning: game {same[0]} has the same seed and secret, hence the same deal; when "
        "either ends, its reveal tells the other's table every role"
    )


def link_lifetime(form: dict[str, Any]) -> int:
    """How long the game's seat and spectator links last, in seconds (`link_hours`)."""
    hours = form.get("link_hours")
    if hours in (None, ""):
        return DEFAULT_LIFETIME_S
    if isinstance(hours, bool) or not isinstance(hours, int | float):
        raise SettingsError("link_hours must be a number of hours")
    seconds = int(hours * 3600)
    if not MIN_LIFETIME_S <= seconds <= MAX_LIFETIME_S:
        raise SettingsError(
            f"link_hours must be between {MIN_LIFETIME_S / 3600:g} and {MAX_LIFETIME_S // 3600}"
        )
    return seconds


def check_game(setup: GameSetup, seating: Seating, players: PlayerBuilder) -> list[str]:
    """Validate the game and its LLM seats' models; return the human seats."""
    game = preflight_check(setup, seating, players.models)
    roles = game.config.roles
    # The models a seat may need, whatever role it is dealt (an external agent needs none).
    configs = [
        players.models.resolve(s, r.value)
        for s in game.llm_seats
        for r in roles
        if not is_external(seating.agents.resolve(s, r.value))
    ]
    if any(c.managed_local for c in configs):
        llama_server_binary()  # the embedded model needs the `local` extra: say so now
    return game.human_seats
