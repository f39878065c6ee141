"""The night (RULES §2): who acts, their options, their choices, and the dawn that resolves
them. Also nightfall, which opens the next night."""

from collections import Counter

from autowerewolf.rules import sheriff
from autowerewolf.rules.common import event, others, role_alive, seat_of_role
from autowerewolf.rules.deaths import kill
from autowerewolf.rules.decisions import Answers, Option, Options
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.rng import pick
from autowerewolf.rules.roles import Camp, Role
from autowerewolf.rules.state import Cause, GameState, Night, Step, Vote
from autowerewolf.rules.win import check_and_end, game_over


def _target(option: str) -> str | None:
    return None if option == Option.NONE else option


def _required(state: GameState, role: Role) -> str:
    seat = seat_of_role(state, role)
    assert seat is not None, f"no {role} on this board"
    return seat


def witch_may_save(state: GameState) -> bool:
    target = state.night.wolf_target
    if target is None:
        return False
    if target != seat_of_role(state, Role.WITCH):
        return True
    return state.config.variants.witch_can_self_heal_n1 and state.day == 1


# --- entering the night's steps ---------------------------------------------------------


def enter_night_step(state: GameState, step: str, events: list[Event]) -> GameState:
    """Enter a night step, skipping those whose role is dead or has nothing to decide."""
    if step == Step.WOLVES:
        wolves = tuple(s.id for s in state.seats if s.alive and s.is_wolf)
        return state.model_copy(update={"step": step, "speakers": wolves})
    if step == Step.SEER:
        if role_alive(state, Role.SEER):
            return state.model_copy(update={"step": step})
        return enter_night_step(state, Step.WITCH_CURE, events)
    if step == Step.WITCH_CURE:
        if role_alive(state, Role.WITCH) and not state.cure_used:
            state = state.model_copy(update={"step": step})
            # The Witch learns the target only while her cure is unused (RULES §2).
            events.append(
                event(
                    state,
                    EventKind.WITCH_INFO,
                    Audience.SEAT,
                    seat=seat_of_role(state, Role.WITCH),
                    target=state.night.wolf_target,
                    value="attack" if state.night.wolf_target else "no_attack",
                )
            )
            if witch_may_save(state):
                return state
        return enter_night_step(state, Step.WITCH_POISON, events)
    if step == Step.WITCH_POISON:
        may_poison = (
            role_alive(state, Role.WITCH)
            and not state.poison_used
            and (not state.night.cured or state.config.variants.witch_both_potions_one_night)
        )
        if may_poison:
            return state.model_copy(update={"step": step})
        return enter_night_step(state, Step.GUARD, events)
    if step == Step.GUARD:
        if role_alive(state, Role.GUARD):
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


# --- who acts, with which options -------------------------------------------------------


def wolves_options(state: GameState) -> Options:
    """Wolves confer in seat order, each proposing a target (RULES §2)."""
    self_knife = state.config.variants.allow_wolf_self_knife
    targets = tuple(s.id for s in state.seats if s.alive and (self_knife or not s.is_wolf))
    return {state.speakers[0]: (*targets, Option.NONE.value)}


def seer_options(state: GameState) -> Options:
    seer = _required(state, Role.SEER)
    return {seer: others(state, seer)}


def witch_cure_options(state: GameState) -> Options:
    witch = _required(state, Role.WITCH)
    assert witch_may_save(state)
    return {witch: (Option.SAVE.value, Option.NONE.value)}


def witch_poison_options(state: GameState) -> Options:
    witch = _required(state, Role.WITCH)
    return {witch: (*others(state, witch), Option.NONE.value)}


def guard_options(state: GameState) -> Options:
    guard = _required(state, Role.GUARD)
    rules = state.config.variants
    banned = {state.last_guarded} if rules.guard_no_repeat else set()
    if not rules.guard_can_self_guard:
        banned.add(guard)
    return {guard: (*(s for s in state.living if s not in banned), Option.NONE.value)}


# --- their choices ----------------------------------------------------------------------


def apply_wolves(state: GameState, answers: Answers, events: list[Event]) -> GameState:
    wolf = state.speakers[0]
    action = answers[wolf]
    events.append(
        event(
            state,
            EventKind.WOLF_PROPOSAL,
            Audience.WOLVES,
            actor=wolf,
            target=_target(action.option),
            text=action.text or None,
        )
    )
    proposals = {**state.night.wolf_proposals, wolf: action.option}
    rest = state.speakers[1:]
    if rest:
        night = state.night.model_copy(update={"wolf_proposals": proposals})
        return state.model_copy(update={"night": night, "speakers": rest})
    # Plurality wins; a tie is broken by the game's seeded draw (RULES §2).
    counts = Counter(proposals.values())
    top = max(counts.values())
    tied = sorted(option for option, n in counts.items() if n == top)
    choice = tied[0] if len(tied) == 1 else pick(state.config.seed, f"n{state.day}:wolf_tie", tied)
    night = state.night.model_copy(
        update={"wolf_proposals": proposals, "wolf_target": _target(choice)}
    )
    state = state.model_copy(update={"night": night, "speakers": ()})
    events.append(
        event(
            state,
            EventKind.WOLF_TARGET,
            Audience.WOLVES,
            target=_target(choice),
            targets=tuple(tied),
            value="tie_broken" if len(tied) > 1 else "plurality",
        )
    )
    return enter_night_step(state, Step.SEER, events)


def apply_seer(state: GameState, answers: Answers, events: list[Event]) -> GameState:
    seer = _required(state, Role.SEER)
    target = answers[seer].option
    camp = Camp.WOLF if state.seat(target).is_wolf else Camp.GOOD
    night = state.night.model_copy(update={"seer_target": target})
    state = state.model_copy(update={"night": night})
    events.append(
        event(state, EventKind.SEER_RESULT, Audience.SEAT, seat=seer, target=target, value=camp)
    )
    return enter_night_step(state, Step.WITCH_CURE, events)


def apply_witch_cure(state: GameState, answers: Answers, events: list[Event]) -> GameState:
    witch = _required(state, Role.WITCH)
    if answers[witch].option == Option.SAVE:
        night = state.night.model_copy(update={"cured": True})
        state = state.model_copy(update={"night": night, "cure_used": True})
        events.append(
            event(
                state,
                EventKind.WITCH_CURE,
                Audience.SEAT,
                seat=witch,
                actor=witch,
                target=state.night.wolf_target,
            )
        )
    return enter_night_step(state, Step.WITCH_POISON, events)


def apply_witch_poison(state: GameState, answers: Answers, events: list[Event]) -> GameState:
    witch = _required(state, Role.WITCH)
    target = _target(answers[witch].option)
    if target is not None:
        night = state.night.model_copy(update={"poison_target": target})
        state = state.model_copy(update={"night": night, "poison_used": True})
        events.append(
            event(
                state, EventKind.WITCH_POISON, Audience.SEAT, seat=witch, actor=witch, target=target
            )
        )
    return enter_night_step(state, Step.GUARD, events)


def apply_guard(state: GameState, answers: Answers, events: list[Event]) -> GameState:
    guard = _required(state, Role.GUARD)
    target = _target(answers[guard].option)
    night = state.night.model_copy(update={"guard_target": target})
    # Guarding nobody breaks the no-repeat chain, so `last_guarded` becomes None too.
    state = state.model_copy(update={"night": night, "last_guarded": target, "step": Step.DAWN})
    events.append(
        event(state, EventKind.GUARD, Audience.SEAT, seat=guard, actor=guard, target=target)
    )
    return state


# --- dawn -------------------------------------------------------------------------------


def wolf_kill_succeeds(state: GameState) -> bool:
    night = state.night
    guarded = night.guard_target is not None and night.guard_target == night.wolf_target
    if guarded and night.cured:
        return state.config.variants.same_guard_same_save_kills
    return not (guarded or night.cured)


def resolve_dawn(state: GameState, events: list[Event]) -> GameState:
    night = state.night
    deaths: dict[str, Cause] = {}
    if night.wolf_target is not None and wolf_kill_succeeds(state):
        deaths[night.wolf_target] = Cause.WOLF_KILL
    if night.poison_target is not None:
        # Poison overrides the bite: a Hunter who is both bitten and poisoned cannot shoot.
        deaths[night.poison_target] = Cause.POISON
    for seat_id in sorted(deaths):
        state = kill(state, seat_id, deaths[seat_id], events)
    state = state.model_copy(update={"unannounced": tuple(sorted(deaths))})
    events.append(event(state, EventKind.DAY_START, Audience.PUBLIC))
    ended = check_and_end(state, events)
    if ended is not None:
        return ended
    # The Day-1 election comes before the night's deaths are announced (RULES §3).
    return sheriff.after_dawn(state, events)
