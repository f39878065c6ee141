"""The death chain's decisions (RULES §7): a Hunter's shot and last words. Running the
chain (the win check, then each task, then wherever the day goes) is the flow's (flow.py);
the badge is the sheriff's (sheriff.py)."""

from autowerewolf.rules.common import event, others
from autowerewolf.rules.deaths import kill, pop_task, push_chain
from autowerewolf.rules.decisions import Answers, Option, Options
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.outcome import Outcome, Resolved
from autowerewolf.rules.roles import Role
from autowerewolf.rules.speeches import record_speech
from autowerewolf.rules.state import Cause, GameState


def hunter_options(state: GameState) -> Options:
    hunter = state.speakers[0]
    return {hunter: (*others(state, hunter), Option.NONE.value)}


def apply_hunter_shot(state: GameState, answers: Answers, events: list[Event]) -> Resolved:
    """The shot kills at once and reveals the Hunter; declining stays secret (RULES §7)."""
    hunter = state.chain[0].seat
    assert hunter is not None
    state = pop_task(state)
    target = answers[hunter].option
    if target == Option.NONE:
        events.append(
            event(state, EventKind.HUNTER_SHOT, Audience.OMNISCIENT, actor=hunter, value="declined")
        )
        return state, Outcome.CHAIN
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
    return push_chain(state, (target,)), Outcome.CHAIN


def last_words_options(state: GameState) -> Options:
    return {state.speakers[0]: (Option.SPEAK.value,)}


def apply_last_words(state: GameState, answers: Answers, events: list[Event]) -> Resolved:
    speaker = state.chain[0].seat
    assert speaker is not None
    record_speech(state, speaker, "last_words", answers[speaker].text, events)
    return pop_task(state), Outcome.CHAIN
