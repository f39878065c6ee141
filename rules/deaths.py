"""Deaths and the death chain (RULES §5, §7): shot -> win check -> badge -> last words."""

from autowerewolf.rules.common import event
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.roles import Role
from autowerewolf.rules.state import Cause, ChainTask, GameState, TaskKind


def kill(state: GameState, seat_id: str, cause: Cause, events: list[Event]) -> GameState:
    events.append(event(state, EventKind.DEATH, Audience.OMNISCIENT, target=seat_id, value=cause))
    return state.replace_seat(seat_id, alive=False, death_day=state.day, death_cause=cause)


def death_announcement(state: GameState) -> Event:
    """The moderator's announcement of the deaths not yet told: by seat only, in seat order,
    with their roles where the board reveals them (RULES §5)."""
    dead = state.unannounced
    reveal = state.config.variants.reveal_role_on_death
    return event(
        state,
        EventKind.DEATHS_ANNOUNCED,
        Audience.PUBLIC,
        targets=dead,
        value="deaths" if dead else "peaceful_night",
        text=", ".join(f"{s}={state.seat(s).role}" for s in dead) if reveal else None,
    )


def can_shoot(state: GameState, seat_id: str) -> bool:
    seat = state.seat(seat_id)
    if seat.role is not Role.HUNTER:
        return False
    if seat.death_cause in (Cause.WOLF_KILL, Cause.EXILE, Cause.TAKEN):
        return True
    return seat.death_cause is Cause.POISON and state.config.variants.hunter_can_shoot_if_poisoned


def gets_last_words(state: GameState, seat_id: str) -> bool:
    """Night-1 deaths (any cause) and exiled players speak last words (RULES §5).

    A wolf killed in the night who exploded before his death was announced gets none, and
    nobody does without `last_words` (docs/rules.md §5).
    """
    if not state.config.variants.last_words:
        return False
    seat = state.seat(seat_id)
    if seat.is_wolf and seat.revealed:
        return False
    cause = seat.death_cause
    if cause is Cause.EXILE:
        return True
    night_death = cause in (Cause.WOLF_KILL, Cause.POISON)
    return night_death and seat.death_day == 1


def push_chain(state: GameState, dead: tuple[str, ...]) -> GameState:
    """Queue the chain for a batch of deaths in front of whatever is still pending."""
    ordered = sorted(dead)
    # The win check comes first: a decided game ends before any pending shot (RULES §8);
    # a Hunter's victim gets its own chain, hence a check after the shot too (RULES §7).
    tasks = [ChainTask(kind=TaskKind.WIN_CHECK)]
    tasks += [ChainTask(kind=TaskKind.HUNTER_SHOT, seat=s) for s in ordered if can_shoot(state, s)]
    if state.sheriff in ordered:
        tasks.append(ChainTask(kind=TaskKind.BADGE, seat=state.sheriff))
    tasks += [
        ChainTask(kind=TaskKind.LAST_WORDS, seat=s) for s in ordered if gets_last_words(state, s)
    ]
    return state.model_copy(update={"chain": (*tasks, *state.chain)})


def pop_task(state: GameState) -> GameState:
    """The chain's first task is done."""
    return state.model_copy(update={"chain": state.chain[1:], "speakers": ()})
