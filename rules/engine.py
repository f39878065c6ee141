"""The engine's API: start a game, ask what is pending, apply answers, read the result.

Like OpenSpiel's state API: `pending_decision` gives the legal options, `apply` returns
the next state plus the typed events it produced, `winner` tells the outcome.
"""

from collections.abc import Callable, Mapping

from autowerewolf.rules.chain_steps import (
    apply_badge,
    apply_hunter_shot,
    apply_last_words,
    apply_self_explosion,
)
from autowerewolf.rules.common import event
from autowerewolf.rules.config import GameConfig
from autowerewolf.rules.day import (
    apply_announce,
    apply_direction,
    apply_exile_vote,
)
from autowerewolf.rules.decisions import Action, IllegalAction, Option, PendingDecision
from autowerewolf.rules.election import apply_election_vote, apply_signup, apply_withdraw
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.legal import decision_key, pending_decision
from autowerewolf.rules.night import (
    apply_guard,
    apply_seer,
    apply_witch_cure,
    apply_witch_poison,
    apply_wolves,
    resolve_dawn,
)
from autowerewolf.rules.rng import rng_for
from autowerewolf.rules.roles import Camp
from autowerewolf.rules.speeches import apply_speech
from autowerewolf.rules.state import BadgeStatus, GameState, Seat, Step
from autowerewolf.rules.transitions import enter_night_step

Answers = Mapping[str, Action]
_DECISIONS: dict[Step, Callable[[GameState, Answers, list[Event]], GameState]] = {
    Step.WOLVES: apply_wolves,
    Step.SEER: apply_seer,
    Step.WITCH_CURE: apply_witch_cure,
    Step.WITCH_POISON: apply_witch_poison,
    Step.GUARD: apply_guard,
    Step.ELECTION_SIGNUP: apply_signup,
    Step.ELECTION_SPEECH: apply_speech,
    Step.ELECTION_PK_SPEECH: apply_speech,
    Step.ELECTION_WITHDRAW: apply_withdraw,
    Step.ELECTION_VOTE: apply_election_vote,
    Step.HUNTER_SHOT: apply_hunter_shot,
    Step.BADGE: apply_badge,
    Step.LAST_WORDS: apply_last_words,
    Step.SHERIFF_DIRECTION: apply_direction,
    Step.DISCUSSION: apply_speech,
    Step.EXILE_PK_SPEECH: apply_speech,
    Step.EXILE_VOTE: apply_exile_vote,
}
_AUTOMATIC: dict[Step, Callable[[GameState, list[Event]], GameState]] = {
    Step.DAWN: resolve_dawn,
    Step.ANNOUNCE: apply_announce,
    Step.SELF_EXPLOSION: apply_self_explosion,
}


def new_game(config: GameConfig) -> tuple[GameState, list[Event]]:
    """Deal the roles (seeded, unless the config fixes the deal) and names; open Night 1."""
    roles = list(config.deal or config.roles)
    if config.deal is None:
        rng_for(config.seed, "deal").shuffle(roles)
    names = (
        rng_for(config.seed, "names").sample(config.name_pool, len(roles))
        if config.name_pool
        else []
    )
    seats = tuple(
        Seat(id=f"P{i + 1:02d}", name=names[i] if names else f"P{i + 1:02d}", role=role)
        for i, role in enumerate(roles)
    )
    badge = BadgeStatus.UNDECIDED if config.variants.sheriff_enabled else BadgeStatus.DISABLED
    state = GameState(config=config, seats=seats, badge=badge)
    events = [
        event(
            state,
            EventKind.GAME_START,
            Audience.PUBLIC,
            targets=tuple(s.id for s in seats),
            text=", ".join(f"{s.id}={s.name}" for s in seats),
            value=config.board,
        ),
        event(
            state,
            EventKind.DEAL,
            Audience.OMNISCIENT,
            text=", ".join(f"{s.id}={s.role}" for s in seats),
        ),
    ]
    wolves = tuple(s.id for s in seats if s.is_wolf)
    for s in seats:
        events.append(event(state, EventKind.ROLE, Audience.SEAT, seat=s.id, value=s.role))
    events.append(event(state, EventKind.WOLF_TEAM, Audience.WOLVES, targets=wolves))
    events.append(event(state, EventKind.NIGHT_START, Audience.PUBLIC))
    return enter_night_step(state, Step.WOLVES, events), events


def validate(state: GameState, answers: Answers, pending: PendingDecision | None) -> None:
    expected = pending.options if pending is not None else {}
    missing = sorted(set(expected) - set(answers))
    extra = sorted(set(answers) - set(expected))
    if missing or extra:
        problem = (
            f"missing answers from {missing}" if missing else f"unexpected answers from {extra}"
        )
        raise IllegalAction(f"{state.step.value}: {problem}")
    for seat_id, action in answers.items():
        if action.option not in expected[seat_id]:
            raise IllegalAction(
                f"{state.step.value}: {seat_id} chose {action.option!r}, "
                f"legal: {', '.join(expected[seat_id])}"
            )


def apply(
    state: GameState, answers: Answers | None = None, decision: PendingDecision | None = None
) -> tuple[GameState, list[Event]]:
    """Apply the pending decision's answers (none for a step that resolves itself).

    `decision` may pass the pending decision the caller already computed for this state.
    """
    answers = answers or {}
    if state.step is Step.GAME_OVER:
        raise IllegalAction("the game is over")
    if decision is None or decision.key != decision_key(state) or decision.step is not state.step:
        decision = pending_decision(state)
    validate(state, answers, decision)
    events: list[Event] = []
    if state.step in _AUTOMATIC:
        state = _AUTOMATIC[state.step](state, events)
    else:
        state = _DECISIONS[state.step](state, answers, events)
    return state.model_copy(update={"ply": state.ply + 1}), events


def is_terminal(state: GameState) -> bool:
    return state.step is Step.GAME_OVER


def returns(state: GameState) -> dict[str, float]:
    """+1 for each seat of the winning camp, -1 for the others, 0 for all on a draw."""
    if state.winner is None:
        return {s.id: 0.0 for s in state.seats}
    return {s.id: 1.0 if s.camp is state.winner else -1.0 for s in state.seats}


def winner(state: GameState) -> Camp | None:
    return state.winner


__all__ = [
    "Action",
    "Option",
    "apply",
    "is_terminal",
    "new_game",
    "pending_decision",
    "returns",
    "winner",
]
