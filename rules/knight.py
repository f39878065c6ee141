"""The Knight's duel (docs/rules.md, "Knight"): once per game, in place of one of his
discussion speeches, the Knight names a living player. A wolf dies revealed and night falls
at once; a good player survives and the Knight dies, and the discussion goes on."""

from autowerewolf.rules import discussion
from autowerewolf.rules.common import event, others
from autowerewolf.rules.deaths import kill, push_chain
from autowerewolf.rules.decisions import Answers, Option, Options
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.outcome import Outcome, Resolved
from autowerewolf.rules.roles import Camp, Role
from autowerewolf.rules.speeches import speech_options
from autowerewolf.rules.state import Cause, GameState, Step


def duel_option(state: GameState, seat_id: str) -> tuple[str, ...]:
    """('duel',) for a Knight who has not dueled yet (a duel reveals him), else ()."""
    seat = state.seat(seat_id)
    if seat.role is Role.KNIGHT and not seat.revealed:
        return (Option.DUEL.value,)
    return ()


def discussion_options(state: GameState) -> Options:
    """A discussion turn: speak, or explode (a wolf), or duel (a Knight who has not yet)."""
    speaker = state.speakers[0]
    return {speaker: (*speech_options(state)[speaker], *duel_option(state, speaker))}


def duel_options(state: GameState) -> Options:
    knight = state.speakers[0]
    return {knight: others(state, knight)}


# What the day does after a lost duel, by what the discussion does next (discussion.py).
_RESUME = {
    Outcome.NEXT_SEAT: Step.DISCUSSION,
    Outcome.SPEAKS: Step.DISCUSSION,
    Outcome.BIDS: Step.DISCUSSION_BID,
    Outcome.DEBATE_OVER: Step.EXILE_VOTE,
}


def _resume_discussion(state: GameState, knight: str) -> GameState:
    """The discussion as it stands once the dead Knight's turn is over: he leaves the
    speaking order (and closes no longer, if he was the sheriff)."""
    d = state.discussion
    order = tuple(s for s in d.order if s != knight)
    closer = None if d.closer == knight else d.closer
    rest = tuple(s for s in state.speakers[1:] if s != knight)
    state = state.model_copy(
        update={
            "discussion": d.model_copy(update={"order": order, "closer": closer}),
            "speakers": (knight, *rest),
        }
    )
    state, outcome = discussion.after_speech(state, knight, "")
    after = _RESUME[outcome]
    interrupted = state.speakers if after == Step.DISCUSSION else None
    return state.model_copy(
        update={"after_chain": after, "interrupted": interrupted, "speakers": ()}
    )


def apply_duel(state: GameState, answers: Answers, events: list[Event]) -> Resolved:
    """The Knight reveals himself and duels the seat he names (docs/rules.md, "Knight")."""
    knight = state.speakers[0]
    target = answers[knight].option
    wolf = state.seat(target).camp is Camp.WOLF
    state = state.replace_seat(knight, revealed=True)
    events.append(
        event(
            state,
            EventKind.DUEL,
            Audience.PUBLIC,
            actor=knight,
            target=target,
            value=Camp.WOLF if wolf else Camp.GOOD,
        )
    )
    if wolf:
        state = state.replace_seat(target, revealed=True).model_copy(
            update={"speakers": (), "day_cancelled": True, "after_chain": Step.WOLVES}
        )
        state = kill(state, target, Cause.DUEL, events)
        return push_chain(state, (target,)), Outcome.CHAIN
    state = _resume_discussion(kill(state, knight, Cause.DUEL, events), knight)
    return push_chain(state, (knight,)), Outcome.CHAIN
