"""The game secret of tests that replay a game or that chose a seed for its scenario.

A setup without a secret draws a fresh one when the game starts (nodes/setup.py), so two
runs of it differ. The empty secret draws from the seed alone, as every game did before
secrets (rules/rng.py `keyed_root`): a seed picked for a scenario keeps its game.
"""

SECRET = ""

# A real secret, for tests of the command line's `--secret` (a replay from seed and secret).
HEX_SECRET = "7e57" * 8

# An 8-arena deal (wolves P01 and P06, Seer P03, Guard P05) for the real-model smoke tests.
ARENA_DEAL = (
    "werewolf",
    "villager",
    "seer",
    "villager",
    "guard",
    "werewolf",
    "villager",
    "villager",
)
