"""Seeded randomness. Every draw comes from (game seed, decision key), never from global state,
so a resumed or forked game draws exactly what the original drew."""

import hashlib
import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def _hash(seed: int, key: str) -> int:
    return int.from_bytes(hashlib.blake2b(f"{seed}:{key}".encode(), digest_size=8).digest(), "big")


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
