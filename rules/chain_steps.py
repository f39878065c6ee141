"""Decisions inside a death chain, and the self-explosion that starts one (RULES §3, §6, §7)."""

from collections.abc import Mapping

from autowerewolf.rules.common import event
from autowerewolf.rules.deaths import kill, push_chain
from autowerewolf.rules.decisions import Action, Option
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.roles import Role
from autowerewolf.rules.state import BadgeStatus, Cause, GameState, Step
from autowerewolf.rules.transitions import run_chain
from autowerewolf.rules.variants import BadgeSwallow


def _pop(state: GameState) -> GameState:
    return state.model_copy(update={"chain": state.chain[1:], "speakers": ()})


def apply_hunter_shot(
    state: GameState, actions: Mapping[str, Action], events: list[Event]
) -> GameState:
    hunter = state.chain[0].seat
    assert hunter is not None
    state = _pop(state)
    target = actions[hunter].option
    if target == Option.NONE:
        events.append(
            event(state, EventKind.HUNTER_SHOT, Audience.OMNISCIENT, actor=hunter, value="declined")
        )
        return run_chain(state, events)
    state = state.replace_seat(hunter, revealed=True)
    events.append(
        event(
            state,
            EventKind.HUNTER_SHOT,
            Audience.PUBLIC,
            actor=hunter,
            target=target,
            value=Role.HUNTER,
        )
    )
    state = kill(state, target, Cause.SHOT, events)
    return run_chain(push_chain(state, (target,)), events)


def apply_badge(state: GameState, actions: Mapping[str, Action], events: list[Event]) -> GameState:
    holder = state.chain[0].seat
    assert holder is not None
    state = _pop(state)
    choice = actions[holder].option
    if choice == Option.TEAR:
        state = state.model_copy(update={"sheriff": None, "badge": BadgeStatus.LOST})
        events.append(event(state, EventKind.SHERIFF, Audience.PUBLIC, actor=holder, value="torn"))
    else:
        state = state.model_copy(update={"sheriff": choice})
        events.append(
            event(
                state,
                EventKind.SHERIFF,
                Audience.PUBLIC,
                actor=holder,
                target=choice,
                value="passed",
            )
        )
    return run_chain(state, events)


def apply_last_words(
    state: GameState, actions: Mapping[str, Action], events: list[Event]
) -> GameState:
    speaker = state.chain[0].seat
    assert speaker is not None
    events.append(
        event(
            state,
            EventKind.SPEECH,
            Audience.PUBLIC,
            actor=speaker,
            value="last_words",
            text=actions[speaker].text,
        )
    )
    return run_chain(_pop(state), events)


def apply_self_explosion(state: GameState, events: list[Event]) -> GameState:
    """The wolf dies at once, revealed; the rest of the day is cancelled (RULES §6)."""
    wolf = state.exploder
    assert wolf is not None
    state = state.replace_seat(wolf, revealed=True).model_copy(
        update={"exploder": None, "speakers": (), "day_cancelled": True}
    )
    events.append(
        event(state, EventKind.SELF_EXPLOSION, Audience.PUBLIC, actor=wolf, value=Role.WEREWOLF)
    )
    if state.badge is BadgeStatus.UNDECIDED and state.config.variants.sheriff_enabled:
        state = _swallow_badge(state, events)
    # A wolf whose night death is not yet announced may still explode: he is already dead.
    if state.seat(wolf).alive:
        state = kill(state, wolf, Cause.EXPLOSION, events)
        state = push_chain(state, (wolf,))
    after = Step.ANNOUNCE if state.unannounced else Step.WOLVES
    return run_chain(state.model_copy(update={"after_chain": after}), events)


def _swallow_badge(state: GameState, events: list[Event]) -> GameState:
    election = state.election
    double = state.config.variants.badge_swallow is BadgeSwallow.DOUBLE
    if double and election.explosions == 0:
        election = election.model_copy(update={"explosions": 1, "postponed": True, "round": 1})
        events.append(
            event(
                state,
                EventKind.SHERIFF,
                Audience.PUBLIC,
                value="postponed",
                text="election moves to the next day",
            )
        )
        return state.model_copy(update={"election": election})
    events.append(
        event(
            state,
            EventKind.SHERIFF,
            Audience.PUBLIC,
            value="lost",
            text="a wolf exploded during the election",
        )
    )
    return state.model_copy(
        update={
            "badge": BadgeStatus.LOST,
            "election": election.model_copy(update={"explosions": election.explosions + 1}),
        }
    )
