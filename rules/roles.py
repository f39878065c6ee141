"""Roles and camps. Values are stored in checkpoints: never rename a member."""

from collections.abc import Iterable
from enum import StrEnum


class Role(StrEnum):
    WEREWOLF = "werewolf"
    VILLAGER = "villager"
    SEER = "seer"
    WITCH = "witch"
    HUNTER = "hunter"
    GUARD = "guard"
    IDIOT = "idiot"


class Camp(StrEnum):
    WOLF = "wolf"
    GOOD = "good"


GODS: frozenset[Role] = frozenset({Role.SEER, Role.WITCH, Role.HUNTER, Role.GUARD, Role.IDIOT})
# The roles the moderator calls each night, in order (RULES §2).
NIGHT_ROLES: tuple[Role, ...] = (Role.WEREWOLF, Role.SEER, Role.WITCH, Role.GUARD)


def camp_of(role: Role) -> Camp:
    return Camp.WOLF if role is Role.WEREWOLF else Camp.GOOD


def is_god(role: Role) -> bool:
    return role in GODS


def night_calls(roles: Iterable[Role]) -> tuple[Role, ...]:
    """The night roles a board deals: each is called every night, its holder alive or not."""
    dealt = set(roles)
    return tuple(role for role in NIGHT_ROLES if role in dealt)
