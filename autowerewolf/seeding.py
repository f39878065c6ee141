"""Where a new game's seed and secret come from when the user gives none.

A seed is the user's handle on a game ("seed 7"); the secret is what makes the game's draws
unguessable (rules/rng.py `keyed_root`). Both are drawn from the operating system, never
from a clock or a small space: a 24-bit seed was found from a game's public text in
seconds.
"""

import secrets
import uuid

from autowerewolf.rules.config import MAX_SEED

SECRET_BYTES = 16  # 128 bits
GAME_ID_BYTES = 6  # 48 bits: ids of one database never meet by chance


def fresh_seed() -> int:
    """A random seed of 63 bits, the most a checkpoint stores (signed 64-bit)."""
    return secrets.randbelow(MAX_SEED + 1)


def fresh_secret() -> str:
    return secrets.token_hex(SECRET_BYTES)


def seed_and_secret(seed: int | None, secret: str | None) -> tuple[int, str]:
    """A new game's seed and secret: the ones given, else fresh ones. The command line
    (`play`, `batch`) and the web lobby choose them here, once per game (a batch: one
    secret for all its games)."""
    return (fresh_seed() if seed is None else seed, fresh_secret() if secret is None else secret)


def new_game_id(board: str) -> str:
    """A new game's id when the user names none: the board and random hex. Never the seed:
    an id is public (the game list, exports), and with an empty secret the seed alone
    gives the deal."""
    return f"{board}-{secrets.token_hex(GAME_ID_BYTES)}"


def is_server_game(game_id: str) -> bool:
    """Whether `game_id` is a web server's game: a LangGraph thread, named by a UUID."""
    try:
        return str(uuid.UUID(game_id)) == game_id
    except ValueError:
        return False


def branch_id(game_id: str, ply: int) -> str:
    """A fork's id when the user names none. A server game's branch is a fresh UUID, so the
    server running on that database adopts it as a thread of its own; any other game's
    branch is `GAME-forkSTEP`."""
    return str(uuid.uuid4()) if is_server_game(game_id) else f"{game_id}-fork{ply}"
