"""The search of test_derived_randomness.py over every 24-bit seed, the space the lobby's
default seeds used to come from (a few minutes on 2 cores: `pytest -m long`)."""

from concurrent.futures import ProcessPoolExecutor

import pytest

from autowerewolf.rules.config import make_config
from autowerewolf.rules.engine import new_game
from autowerewolf.seeding import fresh_secret
from tests.security.attacker import seeds_with_names, seeds_with_seat_seed
from tests.security.test_derived_randomness import seat_seeds

pytestmark = [pytest.mark.slow, pytest.mark.long]
SPACE = 2**24
CHUNKS = 16


def _names_search(args: tuple[list[str], int, int]) -> list[int]:
    names, start, stop = args
    return seeds_with_names(names, range(start, stop))


def _seat_search(args: tuple[str, int, int, int]) -> list[int]:
    seat, observed, start, stop = args
    return seeds_with_seat_seed(seat, observed, range(start, stop))


def _chunks(space: int) -> list[tuple[int, int]]:
    step = space // CHUNKS
    return [(i * step, space if i == CHUNKS - 1 else (i + 1) * step) for i in range(CHUNKS)]


def test_no_24_bit_seed_gives_the_names_of_a_game() -> None:
    seed = 0xB0A7ED  # a 24-bit seed, as the lobby drew by default
    game, _ = new_game(make_config("12-A", seed=seed, secret=fresh_secret()))
    names = [s.name for s in game.seats]
    with ProcessPoolExecutor(max_workers=2) as pool:
        found = pool.map(_names_search, [(names, a, b) for a, b in _chunks(SPACE)])
        assert [s for chunk in found for s in chunk] == []


def test_no_24_bit_seed_gives_a_players_own_seed() -> None:
    seed = 0x5EED42
    held = seat_seeds(None, seed)
    with ProcessPoolExecutor(max_workers=2) as pool:
        found = pool.map(_seat_search, [("P01", held["P01"], a, b) for a, b in _chunks(SPACE)])
        assert [s for chunk in found for s in chunk] == []
