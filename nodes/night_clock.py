"""The moderator's night clock, for tables where a human sits.

A human who answers at night takes seconds where a machine takes none, so the length of a
night would tell everyone watching whether a human holds a night role. A human moderator
avoids that by calling every night role of the board in a fixed order and giving each call
the same time, even when its holder is dead, and so does this clock: when a human sits at
the table, a night lasts at least `night_call_s` per night role of the board, whatever
happens in it (docs/security.md). A night that takes longer than that (a human who thinks
longer than the calls allow) is not hidden.

The clock lives in the process, not in the game's state: time is not part of the game, and
the LangGraph server gives every run (each human answer resumes the game in a new run) a
new runtime context. After a restart a night's clock starts again.
"""

import threading
import time

from autowerewolf.players.seating import Seating
from autowerewolf.rules.roles import night_calls
from autowerewolf.rules.state import GameState

_lock = threading.Lock()
_night_began: dict[tuple[str, int], float] = {}


def night_begins(game_id: str, night: int) -> None:
    """The night's first call (kept across re-runs of the node and resumed runs)."""
    with _lock:
        _night_began.setdefault((game_id, night), time.monotonic())


def dawn_wait_s(game_id: str, game: GameState, seating: Seating, night_call_s: float) -> float:
    """How long dawn must wait so the night lasts its calls' minimum; 0 without humans."""
    with _lock:
        began = _night_began.pop((game_id, game.day), None)
    if night_call_s <= 0 or not any(seating.kind_of(s.id) == "human" for s in game.seats):
        return 0.0
    minimum = night_call_s * len(night_calls(game.config.roles))
    if began is None:  # the clock was lost (a restart): the whole minimum from now
        return minimum
    return max(0.0, began + minimum - time.monotonic())
