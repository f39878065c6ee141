"""Running the death chain (RULES §7): a Hunter's shot, the win check, the badge, last words,
then wherever the day goes next."""

from autowerewolf.rules import day, night, speeches
from autowerewolf.rules.common import event, others
from autowerewolf.rules.deaths import kill, push_chain
from autowerewolf.rules.decisions import Answers, Option, Options
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.roles import Role
from autowerewolf.rules.state import Cause, GameState, Step, TaskKind
from autowerewolf.rules.win import check_and_end

_TASK_STEPS = {
    TaskKind.HUNTER_SHOT: Step.HUNTER_SHOT,
    TaskKind.BADGE: Step.BADGE,
    TaskKind.LAST_WORDS: Step.LAST_WORDS,
}


def pop_task(state: GameState) -> GameState:
    return state.model_copy(update={"chain": state.chain[1:], "speakers": ()})


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
        return state.model_copy(update={"step": _TASK_STEPS[task.kind], "speakers": (task.seat,)})
    return continue_day(state, events)


def continue_day(state: GameState, events: list[Event]) -> GameState:
    """Where the day goes once a death chain is settled."""
    after = state.after_chain
    if after == Step.ANNOUNCE:
        return state.model_copy(update={"step": Step.ANNOUNCE, "speakers": ()})
    if after == Step.DISCUSSION and not state.day_cancelled:
        return day.start_discussion(state)
    return night.fall_night(state, events)


def hunter_options(state: GameState) -> Options:
    hunter = state.speakers[0]
    return {hunter: (*others(state, hunter), Option.NONE.value)}


def apply_hunter_shot(state: GameState, answers: Answers, events: list[Event]) -> GameState:
    """The shot kills at once and reveals the Hunter; declining stays secret (RULES §7)."""
    hunter = state.chain[0].seat
    assert hunter is not None
    state = pop_task(state)
    target = answers[hunter].option
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


def last_words_options(state: GameState) -> Options:
    return {state.speakers[0]: (Option.SPEAK.value,)}


def apply_last_words(state: GameState, answers: Answers, events: list[Event]) -> GameState:
    speaker = state.chain[0].seat
    assert speaker is not None
    speeches.record_speech(state, speaker, "last_words", answers[speaker].text, events)
    return run_chain(pop_task(state), events)
