"""The night (RULES §2): who acts, their options, their choices, and the dawn that resolves
them. Which night step comes next, and nightfall, are the flow's (flow.py)."""

from collections import Counter

from autowerewolf.rules.common import (
    clockwise_from,
    draw,
    event,
    others,
    seat_of_role,
)
from autowerewolf.rules.deaths import kill
from autowerewolf.rules.decisions import Answers, Option, Options
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.outcome import Outcome, Resolved
from autowerewolf.rules.roles import Camp, Role
from autowerewolf.rules.state import Cause, GameState, Step
from autowerewolf.rules.variants import FirstTurn, SeerResult
from autowerewolf.rules.win import check_and_end


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


# --- who acts, with which options -------------------------------------------------------


def wolf_order(state: GameState) -> tuple[str, ...]:
    """The living wolves in seat order, from P01 or (`wolf_proposal_start`) from a seeded
    random seat, living or dead, as Kaggle draws its first voter (docs/rules.md §2)."""
    wolves = tuple(s.id for s in state.seats if s.alive and s.is_wolf)
    if state.config.variants.wolf_proposal_start is FirstTurn.FIRST_SEAT:
        return wolves
    start = draw(state, "wolf_order", tuple(s.id for s in state.seats))
    return clockwise_from(start, wolves)


def wolf_targets(state: GameState) -> tuple[str, ...]:
    self_knife = state.config.variants.allow_wolf_self_knife
    return tuple(s.id for s in state.seats if s.alive and (self_knife or not s.is_wolf))


def wolves_options(state: GameState) -> Options:
    """Wolves confer one at a time, each proposing a target (RULES §2)."""
    return {state.speakers[0]: (*wolf_targets(state), Option.NONE.value)}


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


def apply_wolves(state: GameState, answers: Answers, events: list[Event]) -> Resolved:
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
        return state.model_copy(update={"night": night, "speakers": rest}), Outcome.NEXT_SEAT
    choice, tied, how = settle_wolves(state, proposals)
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
            targets=tied,
            value=how,
        )
    )
    return state, Outcome.DONE


def settle_wolves(state: GameState, proposals: dict[str, str]) -> tuple[str, tuple[str, ...], str]:
    """The pack's choice, the options it was drawn among, and how it was reached: plurality
    wins and a tie is broken by the game's seeded draw (RULES §2). Under `wolves_must_kill`
    'none' is an abstention, and if every wolf abstains the victim is drawn among the
    players the wolves may target (docs/rules.md §2)."""
    counts = Counter(proposals.values())
    if state.config.variants.wolves_must_kill:
        counts.pop(Option.NONE.value, None)
        if not counts:
            pool = wolf_targets(state)
            return draw(state, "wolf_no_vote", pool), pool, "all_abstained"
    top = max(counts.values())
    tied = tuple(sorted(option for option, n in counts.items() if n == top))
    if len(tied) == 1:
        return tied[0], tied, "plurality"
    return draw(state, "wolf_tie", tied), tied, "tie_broken"


def apply_seer(state: GameState, answers: Answers, events: list[Event]) -> Resolved:
    seer = _required(state, Role.SEER)
    target = answers[seer].option
    checked = state.seat(target)
    camp = Camp.WOLF if checked.is_wolf else Camp.GOOD
    # The camp is always the event's value; under `seer_result=role` its text is the role.
    role = checked.role.value if state.config.variants.seer_result is SeerResult.ROLE else None
    night = state.night.model_copy(update={"seer_target": target})
    state = state.model_copy(update={"night": night})
    events.append(
        event(
            state,
            EventKind.SEER_RESULT,
            Audience.SEAT,
            seat=seer,
            target=target,
            value=camp,
            text=role,
        )
    )
    return state, Outcome.DONE


def apply_witch_cure(state: GameState, answers: Answers, events: list[Event]) -> Resolved:
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
    return state, Outcome.DONE


def apply_witch_poison(state: GameState, answers: Answers, events: list[Event]) -> Resolved:
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
    return state, Outcome.DONE


def apply_guard(state: GameState, answers: Answers, events: list[Event]) -> Resolved:
    guard = _required(state, Role.GUARD)
    target = _target(answers[guard].option)
    night = state.night.model_copy(update={"guard_target": target})
    # Guarding nobody breaks the no-repeat chain, so `last_guarded` becomes None too.
    state = state.model_copy(update={"night": night, "last_guarded": target})
    # Filed under the dawn, where the protection takes effect (as since 0.1.0).
    events.append(
        event(
            state,
            EventKind.GUARD,
            Audience.SEAT,
            phase=Step.DAWN,
            seat=guard,
            actor=guard,
            target=target,
        )
    )
    return state, Outcome.DONE


# --- dawn -------------------------------------------------------------------------------


def wolf_kill_succeeds(state: GameState) -> bool:
    night = state.night
    guarded = night.guard_target is not None and night.guard_target == night.wolf_target
    if guarded and night.cured:
        return state.config.variants.same_guard_same_save_kills
    return not (guarded or night.cured)


def resolve_dawn(state: GameState, events: list[Event]) -> Resolved:
    night = state.night
    deaths: dict[str, Cause] = {}
    if night.wolf_target is not None and wolf_kill_succeeds(state):
        deaths[night.wolf_target] = Cause.WOLF_KILL
    if night.poison_target is not None:
        # Poison overrides the bite: a Hunter who is both bitten and poisoned cannot shoot.
        deaths[night.poison_target] = Cause.POISON
    for seat_id in sorted(deaths):
        state = kill(state, seat_id, deaths[seat_id], events)
    guard = seat_of_role(state, Role.GUARD)
    saved = night.guard_target is not None and night.guard_target == night.wolf_target
    if state.config.variants.guard_told_of_save and saved and night.guard_target not in deaths:
        events.append(
            event(
                state,
                EventKind.GUARD,
                Audience.SEAT,
                seat=guard,
                actor=guard,
                target=night.guard_target,
                value="saved",
            )
        )
    state = state.model_copy(update={"unannounced": tuple(sorted(deaths))})
    events.append(event(state, EventKind.DAY_START, Audience.PUBLIC))
    ended = check_and_end(state, events)
    if ended is not None:
        return ended, Outcome.GAME_OVER
    return state, Outcome.DONE
