"""Roles and camps. Values are stored in checkpoints: never rename a member."""

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


def camp_of(role: Role) -> Camp:
    return Camp.WOLF if role is Role.WEREWOLF else Camp.GOOD


def is_god(role: Role) -> bool:
    return role in GODS
