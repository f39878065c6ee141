"""Night decisions and their resolution at dawn (RULES §2)."""

from collections import Counter
from collections.abc import Mapping

from autowerewolf.rules.common import event, seat_of_role
from autowerewolf.rules.deaths import kill
from autowerewolf.rules.decisions import Action, Option
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.rng import pick
from autowerewolf.rules.roles import Camp, Role
from autowerewolf.rules.state import Cause, GameState, Step
from autowerewolf.rules.transitions import after_dawn, check_and_end, enter_night_step


def _target(option: str) -> str | None:
    return None if option == Option.NONE else option


def apply_wolves(state: GameState, actions: Mapping[str, Action], events: list[Event]) -> GameState:
    wolf = state.speakers[0]
    action = actions[wolf]
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


def apply_seer(state: GameState, actions: Mapping[str, Action], events: list[Event]) -> GameState:
    seer = seat_of_role(state, Role.SEER)
    assert seer is not None
    target = actions[seer].option
    camp = Camp.WOLF if state.seat(target).is_wolf else Camp.GOOD
    night = state.night.model_copy(update={"seer_target": target})
    state = state.model_copy(update={"night": night})
    events.append(
        event(state, EventKind.SEER_RESULT, Audience.SEAT, seat=seer, target=target, value=camp)
    )
    return enter_night_step(state, Step.WITCH_CURE, events)


def apply_witch_cure(
    state: GameState, actions: Mapping[str, Action], events: list[Event]
) -> GameState:
    witch = seat_of_role(state, Role.WITCH)
    assert witch is not None
    if actions[witch].option == Option.SAVE:
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


def apply_witch_poison(
    state: GameState, actions: Mapping[str, Action], events: list[Event]
) -> GameState:
    witch = seat_of_role(state, Role.WITCH)
    assert witch is not None
    target = _target(actions[witch].option)
    if target is not None:
        night = state.night.model_copy(update={"poison_target": target})
        state = state.model_copy(update={"night": night, "poison_used": True})
        events.append(
            event(
                state, EventKind.WITCH_POISON, Audience.SEAT, seat=witch, actor=witch, target=target
            )
        )
    return enter_night_step(state, Step.GUARD, events)


def apply_guard(state: GameState, actions: Mapping[str, Action], events: list[Event]) -> GameState:
    guard = seat_of_role(state, Role.GUARD)
    assert guard is not None
    target = _target(actions[guard].option)
    night = state.night.model_copy(update={"guard_target": target})
    # Guarding nobody breaks the no-repeat chain, so `last_guarded` becomes None too.
    state = state.model_copy(update={"night": night, "last_guarded": target, "step": Step.DAWN})
    events.append(
        event(state, EventKind.GUARD, Audience.SEAT, seat=guard, actor=guard, target=target)
    )
    return state


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
    return after_dawn(state, events)
