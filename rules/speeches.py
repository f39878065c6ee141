"""Speaking steps (campaign, PK, discussion) and the wolf's self-explosion, allowed in every
daytime speaking step (RULES §3, §6)."""

from collections.abc import Callable

from autowerewolf.rules import sheriff
from autowerewolf.rules.common import event, explode_option, exploded
from autowerewolf.rules.deaths import kill, push_chain
from autowerewolf.rules.decisions import Answers, Option, Options
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.outcome import Outcome, Resolved
from autowerewolf.rules.state import BadgeStatus, Cause, GameState, Step

Resolver = Callable[[GameState, Answers, list[Event]], Resolved]


def speech_options(state: GameState) -> Options:
    speaker = state.speakers[0]
    return {speaker: (Option.SPEAK.value, *explode_option(state, speaker))}


def record_speech(
    state: GameState, speaker: str, label: str, text: str, events: list[Event]
) -> None:
    """A public speech, labelled by its step (campaign, discussion, last words...)."""
    events.append(
        event(state, EventKind.SPEECH, Audience.PUBLIC, actor=speaker, value=label, text=text)
    )


def speech_step(label: str) -> Resolver:
    """The resolver of a speaking step: each speaker in turn speaks (a public speech labelled
    `label`) or explodes; after the last one the step is done."""

    def apply_speech(state: GameState, answers: Answers, events: list[Event]) -> Resolved:
        speaker = state.speakers[0]
        action = answers[speaker]
        if action.option == Option.EXPLODE:
            return exploded(state, speaker)
        record_speech(state, speaker, label, action.text, events)
        rest = state.speakers[1:]
        if rest:
            return state.model_copy(update={"speakers": rest}), Outcome.NEXT_SEAT
        return state.model_copy(update={"speakers": ()}), Outcome.DONE

    apply_speech.__name__ = f"apply_{label}_speech"
    return apply_speech


def resolve_self_explosion(state: GameState, events: list[Event]) -> Resolved:
    """The wolf dies at once, revealed; the rest of the day is cancelled (RULES §6)."""
    return explode(state, events)


def explode(state: GameState, events: list[Event], taken: str | None = None) -> Resolved:
    """The self-explosion of `state.exploder`, with the player a White Wolf King takes along
    (`taken`, docs/rules.md §12): both die in one batch of deaths."""
    wolf = state.exploder
    assert wolf is not None
    state = state.replace_seat(wolf, revealed=True).model_copy(
        update={"exploder": None, "speakers": (), "day_cancelled": True}
    )
    role = state.seat(wolf).role
    events.append(event(state, EventKind.SELF_EXPLOSION, Audience.PUBLIC, actor=wolf, value=role))
    if taken is not None:
        events.append(
            event(state, EventKind.WOLF_KING_TAKE, Audience.PUBLIC, actor=wolf, target=taken)
        )
    if state.badge is BadgeStatus.UNDECIDED and state.config.variants.sheriff_enabled:
        state = sheriff.swallow_badge(state, events)
    # A wolf whose night death is not yet announced may still explode: he is already dead.
    dead = []
    if state.seat(wolf).alive:
        state = kill(state, wolf, Cause.EXPLOSION, events)
        dead.append(wolf)
    # A seat already dead in the night, not yet announced, is not killed twice.
    if taken is not None and state.seat(taken).alive:
        state = kill(state, taken, Cause.TAKEN, events)
        dead.append(taken)
    if dead:
        state = push_chain(state, tuple(dead))
    after = Step.ANNOUNCE if state.unannounced else Step.WOLVES
    return state.model_copy(update={"after_chain": after}), Outcome.CHAIN
