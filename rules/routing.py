"""Which graph node runs next: a pure function of the state, used by the graph's edges.

Each step of the rules is one node of the game graph. `NEXT_STEPS` declares where each
step can lead; the graph draws exactly these edges, and a test checks that real games
never take a transition missing from it.
"""

from typing import Literal, get_args

from autowerewolf.rules.state import GameState, Step

Phase = Literal[
    "wolves",
    "seer",
    "witch_cure",
    "witch_poison",
    "guard",
    "dawn",
    "election_signup",
    "election_speech",
    "election_withdraw",
    "election_vote",
    "election_pk_speech",
    "announce",
    "hunter_shot",
    "badge",
    "last_words",
    "sheriff_direction",
    "discussion",
    "exile_vote",
    "exile_pk_speech",
    "self_explosion",
    "game_over",
]
PHASES: tuple[Phase, ...] = get_args(Phase)

_NIGHT_ENTRY = (Step.WOLVES,)
_CHAIN = (Step.HUNTER_SHOT, Step.BADGE, Step.LAST_WORDS)
# After a death batch the chain may run, the day may go on, night may fall or the game end.
_AFTER_DEATHS = (
    *_CHAIN,
    Step.SHERIFF_DIRECTION,
    Step.DISCUSSION,
    Step.ANNOUNCE,
    *_NIGHT_ENTRY,
    Step.GAME_OVER,
)
_NIGHT_TAIL = (Step.SEER, Step.WITCH_CURE, Step.WITCH_POISON, Step.GUARD, Step.DAWN)

NEXT_STEPS: dict[Step, tuple[Step, ...]] = {
    Step.WOLVES: (Step.WOLVES, *_NIGHT_TAIL),
    Step.SEER: _NIGHT_TAIL[1:],
    Step.WITCH_CURE: _NIGHT_TAIL[2:],
    Step.WITCH_POISON: _NIGHT_TAIL[3:],
    Step.GUARD: (Step.DAWN,),
    Step.DAWN: (
        Step.ELECTION_SIGNUP,
        Step.ELECTION_SPEECH,
        Step.ANNOUNCE,
        Step.GAME_OVER,
    ),
    Step.ELECTION_SIGNUP: (Step.ELECTION_SPEECH, Step.ANNOUNCE, Step.SELF_EXPLOSION),
    Step.ELECTION_SPEECH: (Step.ELECTION_SPEECH, Step.ELECTION_WITHDRAW, Step.SELF_EXPLOSION),
    Step.ELECTION_PK_SPEECH: (
        Step.ELECTION_PK_SPEECH,
        Step.ELECTION_WITHDRAW,
        Step.SELF_EXPLOSION,
    ),
    Step.ELECTION_WITHDRAW: (Step.ELECTION_VOTE, Step.ANNOUNCE, Step.SELF_EXPLOSION),
    Step.ELECTION_VOTE: (Step.ELECTION_PK_SPEECH, Step.ANNOUNCE),
    Step.ANNOUNCE: _AFTER_DEATHS,
    Step.HUNTER_SHOT: _AFTER_DEATHS,
    Step.BADGE: _AFTER_DEATHS,
    Step.LAST_WORDS: _AFTER_DEATHS,
    Step.SHERIFF_DIRECTION: (Step.DISCUSSION,),
    Step.DISCUSSION: (Step.DISCUSSION, Step.EXILE_VOTE, Step.SELF_EXPLOSION),
    Step.EXILE_PK_SPEECH: (Step.EXILE_PK_SPEECH, Step.EXILE_VOTE, Step.SELF_EXPLOSION),
    Step.EXILE_VOTE: (*_AFTER_DEATHS, Step.EXILE_PK_SPEECH),
    Step.SELF_EXPLOSION: _AFTER_DEATHS,
    Step.GAME_OVER: (),
}


def next_phase(state: GameState) -> Phase:
    """The node that handles the state's current step."""
    return state.step.value  # type: ignore[return-value]  # Step values are the phase names


def successors(step: Step) -> tuple[Phase, ...]:
    return tuple(s.value for s in NEXT_STEPS[step])  # type: ignore[misc]
