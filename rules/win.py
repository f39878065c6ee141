"""Win conditions and the end of the game (RULES §8)."""

from autowerewolf.rules.common import event
from autowerewolf.rules.deaths import death_announcement
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.roles import Camp, Role, is_god
from autowerewolf.rules.state import GameState, Step
from autowerewolf.rules.variants import WinMode


def check_winner(state: GameState) -> tuple[Camp, str] | None:
    """The winning camp and why, or None while the game goes on.

    When the good side's and the wolves' conditions hold at once, the wolves win
    (RULES §8: "the kill comes first").
    """
    living = [s for s in state.seats if s.alive]
    wolves = sum(1 for s in living if s.is_wolf)
    good = len(living) - wolves
    mode = state.config.variants.win_mode
    wolf_reason: str | None = None
    if mode is WinMode.CITY:
        if good == 0:
            wolf_reason = "every good player is dead"
    elif mode is WinMode.PARITY:
        if wolves >= good:
            wolf_reason = "the wolves equal or outnumber the good players"
    else:
        board_has_villagers = any(r is Role.VILLAGER for r in state.config.roles)
        board_has_gods = any(is_god(r) for r in state.config.roles)
        if board_has_villagers and not any(s.role is Role.VILLAGER for s in living):
            wolf_reason = "every villager is dead"
        elif board_has_gods and not any(is_god(s.role) for s in living):
            wolf_reason = "every god is dead"
    if wolf_reason is not None:
        return Camp.WOLF, wolf_reason
    if wolves == 0:
        return Camp.GOOD, "every werewolf is dead"
    return None


def game_over(state: GameState, winner: Camp | None, reason: str, events: list[Event]) -> GameState:
    """The end: the deaths not yet told are announced first (a game can end at dawn), so
    that nobody stands alive under the reason the game ended (RULES §5, §8)."""
    if state.unannounced:
        events.append(death_announcement(state))
    state = state.model_copy(
        update={
            "step": Step.GAME_OVER,
            "winner": winner,
            "win_reason": reason,
            "speakers": (),
            "unannounced": (),
            "dawn_deaths": state.unannounced or state.dawn_deaths,
        }
    )
    events.append(
        event(state, EventKind.GAME_OVER, Audience.PUBLIC, value=winner or "draw", text=reason)
    )
    return state


def check_and_end(state: GameState, events: list[Event]) -> GameState | None:
    """The finished game if a side has won (RULES §8: the game ends at once), else None."""
    result = check_winner(state)
    if result is None:
        return None
    return game_over(state, result[0], result[1], events)
