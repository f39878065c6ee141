"""Speaking steps (campaign, PK, discussion): speak in turn, or explode (RULES §3, §6)."""

from collections.abc import Mapping

from autowerewolf.rules.common import event
from autowerewolf.rules.decisions import Action, Option
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.state import GameState, Step

# For each speaking step: how its speeches are labelled, and what follows the last one.
SPEAKING_STEPS: dict[Step, tuple[str, Step]] = {
    Step.ELECTION_SPEECH: ("campaign", Step.ELECTION_WITHDRAW),
    Step.ELECTION_PK_SPEECH: ("election_pk", Step.ELECTION_WITHDRAW),
    Step.DISCUSSION: ("discussion", Step.EXILE_VOTE),
    Step.EXILE_PK_SPEECH: ("exile_pk", Step.EXILE_VOTE),
}


def explode(state: GameState, seat_id: str) -> GameState:
    update = {"exploder": seat_id, "step": Step.SELF_EXPLOSION, "speakers": ()}
    return state.model_copy(update=update)


def apply_speech(state: GameState, actions: Mapping[str, Action], events: list[Event]) -> GameState:
    speaker = state.speakers[0]
    action = actions[speaker]
    if action.option == Option.EXPLODE:
        return explode(state, speaker)
    context, after = SPEAKING_STEPS[state.step]
    events.append(
        event(
            state, EventKind.SPEECH, Audience.PUBLIC, actor=speaker, value=context, text=action.text
        )
    )
    rest = state.speakers[1:]
    if rest:
        return state.model_copy(update={"speakers": rest})
    return state.model_copy(update={"speakers": (), "step": after})
