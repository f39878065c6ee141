"""Which decision is pending, for which seats, with which legal options."""

from collections.abc import Callable

from autowerewolf.rules.common import NIGHT_STEPS, seat_of_role
from autowerewolf.rules.day import exile_voters
from autowerewolf.rules.decisions import Option, PendingDecision
from autowerewolf.rules.roles import Role
from autowerewolf.rules.state import GameState, Step
from autowerewolf.rules.transitions import witch_may_save

Options = dict[str, tuple[str, ...]]

AUTOMATIC_STEPS = frozenset({Step.DAWN, Step.ANNOUNCE, Step.SELF_EXPLOSION, Step.GAME_OVER})
SIMULTANEOUS_STEPS = frozenset(
    {Step.ELECTION_SIGNUP, Step.ELECTION_WITHDRAW, Step.ELECTION_VOTE, Step.EXILE_VOTE}
)


def _others(state: GameState, seat_id: str) -> tuple[str, ...]:
    return tuple(s for s in state.living if s != seat_id)


def _can_explode(state: GameState, seat_id: str) -> bool:
    return state.config.variants.allow_wolf_self_explode and state.seat(seat_id).is_wolf


def _speech(state: GameState) -> Options:
    speaker = state.speakers[0]
    extra = (Option.EXPLODE.value,) if _can_explode(state, speaker) else ()
    return {speaker: (Option.SPEAK.value, *extra)}


def _wolves(state: GameState) -> Options:
    self_knife = state.config.variants.allow_wolf_self_knife
    targets = tuple(s.id for s in state.seats if s.alive and (self_knife or not s.is_wolf))
    return {state.speakers[0]: (*targets, Option.NONE.value)}


def _seer(state: GameState) -> Options:
    seer = seat_of_role(state, Role.SEER)
    assert seer is not None
    return {seer: _others(state, seer)}


def _witch_cure(state: GameState) -> Options:
    witch = seat_of_role(state, Role.WITCH)
    assert witch is not None and witch_may_save(state)
    return {witch: (Option.SAVE.value, Option.NONE.value)}


def _witch_poison(state: GameState) -> Options:
    witch = seat_of_role(state, Role.WITCH)
    assert witch is not None
    return {witch: (*_others(state, witch), Option.NONE.value)}


def _guard(state: GameState) -> Options:
    guard = seat_of_role(state, Role.GUARD)
    assert guard is not None
    rules = state.config.variants
    banned = {state.last_guarded} if rules.guard_no_repeat else set()
    if not rules.guard_can_self_guard:
        banned.add(guard)
    return {guard: (*(s for s in state.living if s not in banned), Option.NONE.value)}


def _signup(state: GameState) -> Options:
    return {
        s: (
            Option.RUN.value,
            Option.PASS.value,
            *((Option.EXPLODE.value,) if _can_explode(state, s) else ()),
        )
        for s in state.publicly_alive
    }


def _withdraw(state: GameState) -> Options:
    candidates = state.election.candidates
    options: Options = {}
    for s in state.publicly_alive:
        explode = (Option.EXPLODE.value,) if _can_explode(state, s) else ()
        if s in candidates:
            options[s] = (Option.STAY.value, Option.WITHDRAW.value, *explode)
        elif explode:
            options[s] = (Option.NONE.value, *explode)
    return options


def _election_vote(state: GameState) -> Options:
    signed = set(state.election.signed_up)
    choices = (*state.election.candidates, Option.ABSTAIN.value)
    return {s: choices for s in state.publicly_alive if s not in signed}


def _hunter(state: GameState) -> Options:
    hunter = state.speakers[0]
    return {hunter: (*_others(state, hunter), Option.NONE.value)}


def _badge(state: GameState) -> Options:
    holder = state.speakers[0]
    return {holder: (*_others(state, holder), Option.TEAR.value)}


def _last_words(state: GameState) -> Options:
    return {state.speakers[0]: (Option.SPEAK.value,)}


def _direction(state: GameState) -> Options:
    assert state.sheriff is not None
    return {state.sheriff: (Option.CLOCKWISE.value, Option.COUNTERCLOCKWISE.value)}


def _exile_vote(state: GameState) -> Options:
    if state.vote.candidates:
        pk = (*state.vote.candidates, Option.ABSTAIN.value)
        return {v: pk for v in exile_voters(state)}
    targets = tuple(s.id for s in state.seats if s.alive and not s.idiot_flipped)
    return {v: (*(t for t in targets if t != v), Option.ABSTAIN.value) for v in exile_voters(state)}


_BUILDERS: dict[Step, Callable[[GameState], Options]] = {
    Step.WOLVES: _wolves,
    Step.SEER: _seer,
    Step.WITCH_CURE: _witch_cure,
    Step.WITCH_POISON: _witch_poison,
    Step.GUARD: _guard,
    Step.ELECTION_SIGNUP: _signup,
    Step.ELECTION_SPEECH: _speech,
    Step.ELECTION_PK_SPEECH: _speech,
    Step.ELECTION_WITHDRAW: _withdraw,
    Step.ELECTION_VOTE: _election_vote,
    Step.HUNTER_SHOT: _hunter,
    Step.BADGE: _badge,
    Step.LAST_WORDS: _last_words,
    Step.SHERIFF_DIRECTION: _direction,
    Step.DISCUSSION: _speech,
    Step.EXILE_PK_SPEECH: _speech,
    Step.EXILE_VOTE: _exile_vote,
}


def decision_key(state: GameState) -> str:
    prefix = f"{'n' if state.step in NIGHT_STEPS else 'd'}{state.day}:{state.step.value}"
    if state.step in SIMULTANEOUS_STEPS:
        round_ = state.vote.round if state.step is Step.EXILE_VOTE else state.election.round
        return f"{prefix}:r{round_}"
    if state.speakers:
        return f"{prefix}:{state.speakers[0]}"
    return prefix


def pending_decision(state: GameState) -> PendingDecision | None:
    """The decision the game waits for; None when the step resolves itself or the game is over."""
    if state.step in AUTOMATIC_STEPS:
        return None
    return PendingDecision(
        step=state.step,
        key=decision_key(state),
        options=_BUILDERS[state.step](state),
        simultaneous=state.step in SIMULTANEOUS_STEPS,
    )
