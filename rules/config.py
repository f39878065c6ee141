"""Boards and game configuration, validated before a game starts."""

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from autowerewolf.rules.rng import keyed_root
from autowerewolf.rules.roles import GODS, Camp, Role, camp_of
from autowerewolf.rules.variants import (
    AllAbstain,
    ExileTie,
    ExileVoting,
    FirstTurn,
    Scoring,
    SeerResult,
    SpeakingStart,
    Variants,
    WinMode,
)

DEFAULT_NAME_POOL: tuple[str, ...] = (
    "Alex",
    "Blair",
    "Casey",
    "Dana",
    "Eli",
    "Frankie",
    "Gray",
    "Harper",
    "Indy",
    "Jules",
    "Kai",
    "Lee",
    "Morgan",
    "Noor",
    "Oakley",
    "Parker",
    "Quinn",
    "Riley",
    "Sage",
    "Taylor",
    "Uma",
    "Val",
    "Wren",
    "Yael",
)


# Seeds and counts are stored in checkpoints (msgpack, SQLite): signed 64-bit at most.
MAX_SEED = 2**63 - 1
MAX_DAYS = 1000
# Display names reach every prompt: letters, digits and a few separators only.
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9 '._-]{0,23}")
# A game secret: 128 to 512 bits in hex (the keyed hash takes at most 64 bytes of key).
SECRET_PATTERN = re.compile(r"[0-9a-f]{32,128}")


class ConfigError(ValueError):
    """A configuration that cannot make a legal game; the message names the problem."""


_FRIENDLY = {
    "Extra inputs are not permitted": "unknown field",
    "Field required": "missing required field",
}


def one_line(err: ValidationError, limit: int = 3) -> str:
    """A pydantic error report as one line, `where: problem; where: problem`.

    Input values are left out on purpose: a mistyped key could land in any field.
    """
    parts = []
    for problem in err.errors():
        where = ".".join(str(p) for p in problem["loc"])
        msg = _FRIENDLY.get(problem["msg"], problem["msg"]).removeprefix("Value error, ")
        parts.append(f"{where}: {msg}" if where else msg)
    more = f" (and {len(parts) - limit} more)" if len(parts) > limit else ""
    return "; ".join(parts[:limit]) + more


class Board(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    roles: tuple[Role, ...]
    variants: Variants = Variants()


def _roles(**counts: int) -> tuple[Role, ...]:
    return tuple(role for name, n in counts.items() for role in [Role(name)] * n)


BOARDS: dict[str, Board] = {
    "12-A": Board(
        name="12-A", roles=_roles(werewolf=4, villager=4, seer=1, witch=1, hunter=1, guard=1)
    ),
    "12-B": Board(
        name="12-B", roles=_roles(werewolf=4, villager=4, seer=1, witch=1, hunter=1, idiot=1)
    ),
    # 12-A with the Knight in the Guard's seat (docs/rules.md §11).
    "12-K": Board(
        name="12-K", roles=_roles(werewolf=4, villager=4, seer=1, witch=1, hunter=1, knight=1)
    ),
    # 12-A with one werewolf made the White Wolf King (docs/rules.md §12).
    "12-W": Board(
        name="12-W",
        roles=_roles(werewolf=3, white_wolf_king=1, villager=4, seer=1, witch=1, hunter=1, guard=1),
    ),
    "9-standard": Board(
        name="9-standard", roles=_roles(werewolf=3, villager=3, seer=1, witch=1, hunter=1)
    ),
    # Werewolf Arena's 8-player game: the Guard plays their Doctor (no repeat ban),
    # no sheriff, majority exile and wolves winning at parity.
    "8-arena": Board(
        name="8-arena",
        roles=_roles(werewolf=2, villager=4, seer=1, guard=1),
        variants=Variants(
            guard_no_repeat=False,
            sheriff_enabled=False,
            exile_needs_majority=True,
            win_mode=WinMode.PARITY,
        ),
    ),
    # Kaggle Game Arena's `standard` 8-player game (kaggle-environments 1.33.2): the Guard
    # plays its Doctor (self-save allowed, no repeat ban); docs/rules.md has the rule table.
    "kaggle": Board(
        name="kaggle",
        roles=_roles(werewolf=2, villager=4, seer=1, guard=1),
        variants=Variants(
            allow_wolf_self_knife=False,
            guard_no_repeat=False,
            sheriff_enabled=False,
            allow_wolf_self_explode=False,
            reveal_role_on_death=True,
            win_mode=WinMode.PARITY,
            discussion_rounds=2,
            speaking_start=SpeakingStart.RANDOM_SEAT,
            seer_result=SeerResult.ROLE,
            wolves_must_kill=True,
            wolf_proposal_start=FirstTurn.RANDOM_SEAT,
            guard_told_of_save=True,
            exile_vote=ExileVoting.ROLL_CALL,
            exile_self_vote=True,
            exile_tie=ExileTie.DRAW,
            exile_all_abstain=AllAbstain.DRAW,
            last_words=False,
            scoring=Scoring.WIN_ONLY,
        ),
    ),
}
CUSTOM_BOARD = "custom"


class GameConfig(BaseModel):
    """Everything that fixes a game's rules and randomness. Build it with `make_config`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    board: str = Field(description="Preset name, or 'custom' for a validated role list.")
    roles: tuple[Role, ...] = Field(description="Roles dealt, one per seat.")
    variants: Variants = Field(description="Resolved rule flags.")
    seed: int = Field(description="With the secret, the root of every random draw in the game.")
    secret: str = Field(
        "",
        description="Hex key blended into every draw, held by the game's owner only: without "
        "it nothing a player sees can be traced back to a small seed. Empty: the seed alone.",
        repr=False,
    )
    name_pool: tuple[str, ...] = Field(description="Display names drawn per seat; empty = none.")
    max_days: int = Field(
        description="A game still undecided after this day ends as a draw (safety stop)."
    )
    deal: tuple[Role, ...] | None = Field(
        None, description="Roles by seat (P01 first) instead of a seeded deal, e.g. from a script."
    )

    @property
    def n_seats(self) -> int:
        return len(self.roles)

    @property
    def root(self) -> int:
        """The root of the game's own draws (deal, names, tie-breaks)."""
        return keyed_root(self.seed, self.secret)

    def player_root(self, player_seed: int | None) -> int:
        """The root the players' seat seeds derive from: the game's, or a fork's reseed."""
        return self.root if player_seed is None else keyed_root(player_seed, self.secret)


def _validate_roles(roles: Sequence[Role]) -> None:
    wolves = sum(1 for r in roles if camp_of(r) is Camp.WOLF)
    good = len(roles) - wolves
    if wolves < 1:
        raise ConfigError("board has no werewolf: at least one is required")
    if wolves >= good:
        raise ConfigError(
            f"board has {wolves} wolves against {good} good players: wolves must be fewer"
        )
    repeated = sorted(r.value for r, n in Counter(roles).items() if r in GODS and n > 1)
    if repeated:
        raise ConfigError(f"special role(s) appear more than once: {', '.join(repeated)}")
    if len(roles) > 99:
        raise ConfigError(f"board has {len(roles)} seats: at most 99 are supported")


def _parse_roles(names: Sequence[str | Role]) -> tuple[Role, ...]:
    parsed = []
    for name in names:
        try:
            parsed.append(Role(str(name).strip().lower()))
        except ValueError:
            known = ", ".join(r.value for r in Role)
            raise ConfigError(f"unknown role {name!r} (known roles: {known})") from None
    return tuple(parsed)


def _flag_error(err: ValidationError) -> str:
    first = err.errors()[0]
    if first["type"] == "extra_forbidden":
        where = ".".join(str(p) for p in first["loc"])
        return f"unknown rule flag {where!r} (known flags: {', '.join(Variants.model_fields)})"
    return f"bad rule flag value: {one_line(err)}"


def _check_int(name: str, value: object, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ConfigError(f"{name} must be an integer, got {type(value).__name__}")
    if not low <= value <= high:
        raise ConfigError(f"{name} must be between {low} and {high}, got {value}")


def make_config(
    board: str = "12-A",
    *,
    roles: Sequence[str | Role] | None = None,
    variants: Mapping[str, Any] | None = None,
    seed: int = 0,
    name_pool: Sequence[str] | None = None,
    max_days: int = 30,
    deal: Sequence[str | Role] | None = None,
    secret: str = "",
) -> GameConfig:
    """Resolve a board preset (or custom role list) plus flag overrides into a GameConfig."""
    if roles is not None:
        role_list = _parse_roles(roles)
        base = BOARDS["12-A"].variants
        board = CUSTOM_BOARD
    elif board in BOARDS:
        role_list = BOARDS[board].roles
        base = BOARDS[board].variants
    else:
        raise ConfigError(
            f"unknown board {board!r} (known boards: {', '.join(BOARDS)}, or roles=[...])"
        )
    _validate_roles(role_list)
    try:
        resolved = Variants.model_validate({**base.model_dump(), **dict(variants or {})})
    except ValidationError as err:
        raise ConfigError(_flag_error(err)) from None
    # Duplicates would let two seats draw the same display name: keep each name once.
    pool = DEFAULT_NAME_POOL if name_pool is None else tuple(dict.fromkeys(name_pool))
    if pool and len(set(pool)) < len(role_list):
        raise ConfigError(
            f"name pool has {len(set(pool))} distinct names for {len(role_list)} seats"
        )
    _check_int("max_days", max_days, 1, MAX_DAYS)
    _check_int("seed", seed, 0, MAX_SEED)
    if secret and not (isinstance(secret, str) and SECRET_PATTERN.fullmatch(secret)):
        raise ConfigError("secret must be 32 to 128 lowercase hex digits (128 to 512 bits)")
    bad_names = [name for name in pool if not NAME_PATTERN.fullmatch(name)]
    if bad_names:
        raise ConfigError(
            f"name {bad_names[0][:30]!r} is not allowed: 1-24 letters, digits, spaces or '._-"
        )
    fixed_deal = _parse_roles(deal) if deal is not None else None
    if fixed_deal is not None and Counter(fixed_deal) != Counter(role_list):
        raise ConfigError(
            f"deal {', '.join(fixed_deal)} does not match the board's roles {', '.join(role_list)}"
        )
    return GameConfig(
        deal=fixed_deal,
        board=board,
        roles=role_list,
        variants=resolved,
        seed=seed,
        secret=secret,
        name_pool=pool,
        max_days=max_days,
    )


class GameSetup(BaseModel):
    """The serializable request for a game (CLI, scripts, API); `build()` validates it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # The descriptions are what LangGraph Studio's input form shows (graph/state.py).
    board: str = Field("12-A", description=f"The board: {', '.join(BOARDS)} (docs/rules.md).")
    roles: tuple[str, ...] | None = Field(
        None, description="A custom role list instead of a board, e.g. [werewolf, seer, ...]."
    )
    variants: dict[str, Any] = Field(
        {}, description="Rule flags over the board's defaults, e.g. {'badge_swallow': 'double'}."
    )
    seed: int = Field(
        0, description="The game seed: the deal, display names and the moderator's draws."
    )
    name_pool: tuple[str, ...] | None = Field(
        None, description="Display names drawn per seat; none: seats are named P01, P02..."
    )
    max_days: int = Field(30, description="A game undecided after this day ends as a draw.")
    deal: tuple[str, ...] | None = Field(
        None, description="Fixes the roles, in seat order; none: dealt from the seed."
    )
    # None: the game draws a fresh secret when it starts (nodes/setup.py); "": no secret,
    # the seed alone decides (games recorded before secrets existed).
    secret: str | None = Field(
        None,
        repr=False,
        description="Hex key blended into the seed (docs/security.md); none: a fresh one.",
    )

    def build(self) -> GameConfig:
        return make_config(
            self.board,
            roles=self.roles,
            variants=self.variants,
            seed=self.seed,
            name_pool=self.name_pool,
            max_days=self.max_days,
            deal=self.deal,
            secret=self.secret or "",
        )
