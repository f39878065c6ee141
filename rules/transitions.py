"""Entering steps: which step comes next and who acts in it. Resolves no decision."""

from autowerewolf.rules.common import clockwise_from, event, seat_after, seat_of_role
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.rng import pick
from autowerewolf.rules.roles import Camp, Role
from autowerewolf.rules.state import (
    BadgeStatus,
    Election,
    GameState,
    Night,
    Step,
    TaskKind,
    Vote,
)
from autowerewolf.rules.win import check_winner


def game_over(state: GameState, winner: Camp | None, reason: str, events: list[Event]) -> GameState:
    state = state.model_copy(
        update={"step": Step.GAME_OVER, "winner": winner, "win_reason": reason, "speakers": ()}
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


def witch_may_save(state: GameState) -> bool:
    target = state.night.wolf_target
    if target is None:
        return False
    if target != seat_of_role(state, Role.WITCH):
        return True
    return state.config.variants.witch_can_self_heal_n1 and state.day == 1


def _alive(state: GameState, role: Role) -> bool:
    seat = seat_of_role(state, role)
    return seat is not None and state.seat(seat).alive


def enter_night_step(state: GameState, step: Step, events: list[Event]) -> GameState:
    """Enter a night step, skipping those whose role is dead or has nothing to decide."""
    if step is Step.WOLVES:
        wolves = tuple(s.id for s in state.seats if s.alive and s.is_wolf)
        return state.model_copy(update={"step": step, "speakers": wolves})
    if step is Step.SEER:
        if _alive(state, Role.SEER):
            return state.model_copy(update={"step": step})
        return enter_night_step(state, Step.WITCH_CURE, events)
    if step is Step.WITCH_CURE:
        if _alive(state, Role.WITCH) and not state.cure_used:
            state = state.model_copy(update={"step": step})
            witch = seat_of_role(state, Role.WITCH)
            events.append(
                event(
                    state,
                    EventKind.WITCH_INFO,
                    Audience.SEAT,
                    seat=witch,
                    target=state.night.wolf_target,
                    value="attack" if state.night.wolf_target else "no_attack",
                )
            )
            if witch_may_save(state):
                return state
        return enter_night_step(state, Step.WITCH_POISON, events)
    if step is Step.WITCH_POISON:
        may_poison = (
            _alive(state, Role.WITCH)
            and not state.poison_used
            and (not state.night.cured or state.config.variants.witch_both_potions_one_night)
        )
        if may_poison:
            return state.model_copy(update={"step": step})
        return enter_night_step(state, Step.GUARD, events)
    if step is Step.GUARD:
        if _alive(state, Role.GUARD):
            return state.model_copy(update={"step": step})
        return state.model_copy(update={"step": Step.DAWN})
    raise ValueError(f"{step} is not a night decision step")


def fall_night(state: GameState, events: list[Event]) -> GameState:
    if state.day >= state.config.max_days:
        return game_over(state, None, f"no winner after {state.config.max_days} days", events)
    state = state.model_copy(
        update={
            "day": state.day + 1,
            "step": Step.WOLVES,
            "night": Night(),
            "vote": Vote(),
            "speakers": (),
            "day_cancelled": False,
            "dawn_deaths": (),
            "exploder": None,
        }
    )
    events.append(event(state, EventKind.NIGHT_START, Audience.PUBLIC))
    return enter_night_step(state, Step.WOLVES, events)


def default_speaking_order(state: GameState) -> tuple[str, ...]:
    """No sheriff: start after the lowest-seat player who died last night, else a seeded seat."""
    living = state.living
    if state.dawn_deaths:
        start = seat_after(state, min(state.dawn_deaths))
    else:
        start = pick(state.config.seed, f"d{state.day}:speaking_start", living)
    return clockwise_from(start, living)


def sheriff_speaking_order(state: GameState, clockwise: bool) -> tuple[str, ...]:
    assert state.sheriff is not None
    others = tuple(s for s in state.living if s != state.sheriff)
    order = clockwise_from(seat_after(state, state.sheriff), others)
    if not clockwise:
        order = tuple(reversed(order))
    return (*order, state.sheriff)


def start_discussion(state: GameState, events: list[Event]) -> GameState:
    if state.sheriff is not None and state.seat(state.sheriff).alive:
        return state.model_copy(update={"step": Step.SHERIFF_DIRECTION})
    return state.model_copy(
        update={"step": Step.DISCUSSION, "speakers": default_speaking_order(state)}
    )


def election_pending(state: GameState) -> bool:
    return (
        state.config.variants.sheriff_enabled
        and state.badge is BadgeStatus.UNDECIDED
        and (state.day == 1 or state.election.postponed)
    )


def start_election_speeches(state: GameState, candidates: tuple[str, ...]) -> GameState:
    start = pick(state.config.seed, f"d{state.day}:campaign_start", sorted(candidates))
    election = state.election.model_copy(update={"candidates": candidates, "postponed": False})
    return state.model_copy(
        update={
            "step": Step.ELECTION_SPEECH,
            "election": election,
            "speakers": clockwise_from(start, candidates),
        }
    )


def after_dawn(state: GameState, events: list[Event]) -> GameState:
    if not election_pending(state):
        return state.model_copy(update={"step": Step.ANNOUNCE})
    if state.election.postponed:
        alive = set(state.publicly_alive)
        remaining = tuple(c for c in state.election.candidates if c in alive)
        return settle_candidates(state, remaining, events)
    return state.model_copy(update={"step": Step.ELECTION_SIGNUP})


def settle_candidates(
    state: GameState, candidates: tuple[str, ...], events: list[Event]
) -> GameState:
    """0 candidates: badge lost; 1: elected; more: campaign speeches (RULES §3)."""
    if not candidates:
        return lose_badge(state, "no candidate", events)
    if len(candidates) == 1:
        return elect(state, candidates[0], events)
    return start_election_speeches(state, candidates)


def elect(state: GameState, seat_id: str, events: list[Event]) -> GameState:
    state = state.model_copy(
        update={
            "sheriff": seat_id,
            "badge": BadgeStatus.HELD,
            "election": Election(signed_up=state.election.signed_up),
            "step": Step.ANNOUNCE,
            "speakers": (),
        }
    )
    events.append(event(state, EventKind.SHERIFF, Audience.PUBLIC, target=seat_id, value="elected"))
    return state


def lose_badge(state: GameState, reason: str, events: list[Event]) -> GameState:
    state = state.model_copy(
        update={"badge": BadgeStatus.LOST, "step": Step.ANNOUNCE, "speakers": ()}
    )
    events.append(event(state, EventKind.SHERIFF, Audience.PUBLIC, value="lost", text=reason))
    return state


def run_chain(state: GameState, events: list[Event]) -> GameState:
    """Advance the death chain to its next decision, or past its end."""
    while state.chain:
        task = state.chain[0]
        if task.kind is TaskKind.WIN_CHECK:
            state = state.model_copy(update={"chain": state.chain[1:]})
            ended = check_and_end(state, events)
            if ended is not None:
                return ended.model_copy(update={"chain": ()})
            continue
        step = {
            TaskKind.HUNTER_SHOT: Step.HUNTER_SHOT,
            TaskKind.BADGE: Step.BADGE,
            TaskKind.LAST_WORDS: Step.LAST_WORDS,
        }[task.kind]
        return state.model_copy(update={"step": step, "speakers": (task.seat,)})
    return continue_day(state, events)


def continue_day(state: GameState, events: list[Event]) -> GameState:
    """Where the day goes once a death chain is settled."""
    after = state.after_chain
    if after is Step.ANNOUNCE:
        return state.model_copy(update={"step": Step.ANNOUNCE, "speakers": ()})
    if after is Step.DISCUSSION and not state.day_cancelled:
        return start_discussion(state, events)
    return fall_night(state, events)
