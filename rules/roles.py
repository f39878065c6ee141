"""Roles and camps, declared once: every list of roles elsewhere (model configs, agent
choice, prompts, evaluation tables) derives from `ROLE_TABLE`. Values are stored in
checkpoints: never rename a member."""

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class Role(StrEnum):
    WEREWOLF = "werewolf"
    VILLAGER = "villager"
    SEER = "seer"
    WITCH = "witch"
    HUNTER = "hunter"
    GUARD = "guard"
    IDIOT = "idiot"
    KNIGHT = "knight"
    WHITE_WOLF_KING = "white_wolf_king"


class Camp(StrEnum):
    WOLF = "wolf"
    GOOD = "good"


@dataclass(frozen=True)
class RoleSpec:
    camp: Camp  # the side it wins with; a Seer's camp check reveals this (RULES §2)
    god: bool = False  # a special good role: the side win counts them (RULES §8)
    night: bool = False  # called by the moderator each night, in this table's order (RULES §2)


ROLE_TABLE: dict[Role, RoleSpec] = {
    Role.WEREWOLF: RoleSpec(Camp.WOLF, night=True),
    Role.VILLAGER: RoleSpec(Camp.GOOD),
    Role.SEER: RoleSpec(Camp.GOOD, god=True, night=True),
    Role.WITCH: RoleSpec(Camp.GOOD, god=True, night=True),
    Role.HUNTER: RoleSpec(Camp.GOOD, god=True),
    Role.GUARD: RoleSpec(Camp.GOOD, god=True, night=True),
    Role.IDIOT: RoleSpec(Camp.GOOD, god=True),
    Role.KNIGHT: RoleSpec(Camp.GOOD, god=True),
    # He wakes with the pack: the werewolves' call is his (docs/rules.md §12).
    Role.WHITE_WOLF_KING: RoleSpec(Camp.WOLF),
}
ROLE_NAMES: tuple[str, ...] = tuple(role.value for role in ROLE_TABLE)
CAMP_NAMES: tuple[str, ...] = tuple(camp.value for camp in Camp)
GODS: frozenset[Role] = frozenset(role for role, spec in ROLE_TABLE.items() if spec.god)
# The roles the moderator calls each night, in order (RULES §2).
NIGHT_ROLES: tuple[Role, ...] = tuple(role for role, spec in ROLE_TABLE.items() if spec.night)


def camp_of(role: Role | str) -> Camp:
    """The camp of `role` (a member or its name; an unknown name is a ValueError)."""
    return ROLE_TABLE[Role(role)].camp


def on_wolf_side(role: Role | str) -> bool:
    """Whether `role` (a member or its name) is a wolf's: what every "is this a wolf" asks,
    so a new wolf role is a wolf everywhere by its camp alone."""
    return camp_of(role) is Camp.WOLF


def is_god(role: Role) -> bool:
    return role in GODS


def night_calls(roles: Iterable[Role]) -> tuple[Role, ...]:
    """The night roles a board deals: each is called every night, its holder alive or not."""
    dealt = set(roles)
    return tuple(role for role in NIGHT_ROLES if role in dealt)
