"""The embedded default leaves room for the longest answer any design asks of it: a role
estimate of every other seat of the largest board, each row at its longest."""

import json

from autowerewolf.players.factory import DEFAULT_MODELS
from autowerewolf.prompts.estimates import EVIDENCE_CHARS, estimates_schema
from autowerewolf.rules.config import BOARDS

# The embedded model writes this JSON at ~2.4 characters a token (Nov 23, 8-arena
# estimates); 2 leaves a margin for its line breaks and indentation.
CHARS_PER_TOKEN = 2.0


def test_the_default_max_tokens_fits_a_role_estimate_of_the_largest_board() -> None:
    board = max(BOARDS.values(), key=lambda b: len(b.roles))
    roles = tuple(dict.fromkeys(r.value for r in board.roles))
    targets = tuple(f"P{i:02d}" for i in range(2, len(board.roles) + 1))
    row = {"evidence": "x" * EVIDENCE_CHARS, **dict.fromkeys(roles, 4)}
    longest = estimates_schema(targets, roles).model_validate(dict.fromkeys(targets, row))
    needed = len(json.dumps(longest.model_dump())) / CHARS_PER_TOKEN
    assert DEFAULT_MODELS.default.max_tokens >= needed, needed
