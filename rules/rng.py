"""Seeded randomness. Every draw comes from (game root, decision key), never from global state,
so a resumed or forked game draws exactly what the original drew.

A game's root blends its seed with its secret (`keyed_root`): a seed is often small or
typed by hand, so anything drawn from the seed alone (display names, a random seat's
votes, a player's own seed) would let a spectator or a player enumerate seeds until one
matches what they saw, and then rebuild the deal. With a secret of 128 bits or more that
only the game's owner holds, the root cannot be enumerated."""

import hashlib
import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def _hash(seed: int, key: str) -> int:
    return int.from_bytes(hashlib.blake2b(f"{seed}:{key}".encode(), digest_size=8).digest(), "big")


def keyed_root(seed: int, secret: str) -> int:
    """The root of a game's draws: `seed` itself when there is no secret (games recorded
    before secrets existed, library use), else a 128-bit keyed hash of the seed."""
    if not secret:
        return seed
    digest = hashlib.blake2b(str(seed).encode(), key=bytes.fromhex(secret), digest_size=16)
    return int.from_bytes(digest.digest(), "big")


def rng_for(seed: int, key: str) -> random.Random:
    """A generator for draws that need several numbers (the deal)."""
    return random.Random(_hash(seed, key))


def pick(seed: int, key: str, items: Sequence[T]) -> T:
    """One item drawn uniformly from (seed, key): cheaper than seeding a generator."""
    return items[_hash(seed, key) % len(items)]


def chance(seed: int, key: str) -> float:
    """A number in [0, 1) drawn from (seed, key)."""
    return _hash(seed, key) / 2**64


def derive(seed: int, key: str) -> int:
    """A new seed from (seed, key) that does not reveal `seed`: each seat's players draw from
    their own derived seed, never from the game's."""
    return _hash(seed, key) >> 1  # 63 bits: storable as a signed 64-bit integer


def seat_seed(root: int, seat: str) -> int:
    return derive(root, f"player:{seat}")
