"""What an observer can compute without the game's secret: the draws of a seed alone, the
way every game drew before secrets (rules/rng.py). A spectator compares the names a game
shows with the names each candidate seed would give; a player compares its own seed with
each candidate's seat seed. Both searches return the seeds that match."""

from collections.abc import Iterable, Sequence

from autowerewolf.rules.config import DEFAULT_NAME_POOL
from autowerewolf.rules.rng import rng_for, seat_seed


def names_of(seed: int, seats: int) -> list[str]:
    return rng_for(seed, "names").sample(DEFAULT_NAME_POOL, seats)


def seeds_with_names(names: Sequence[str], candidates: Iterable[int]) -> list[int]:
    """The candidates that draw `names`. A seed is first checked against the first name
    alone, the pool's index `sample` draws first (`randrange(len(pool))`): one draw instead
    of twelve, the search of 2^24 seeds in half the time; the control in
    test_derived_randomness.py finds a seed through this filter."""
    if not names or names[0] not in DEFAULT_NAME_POOL:
        return []
    first, size = DEFAULT_NAME_POOL.index(names[0]), len(DEFAULT_NAME_POOL)
    return [
        s
        for s in candidates
        if rng_for(s, "names").randrange(size) == first and names_of(s, len(names)) == list(names)
    ]


def seeds_with_seat_seed(seat: str, observed: int, candidates: Iterable[int]) -> list[int]:
    return [s for s in candidates if seat_seed(s, seat) == observed]
