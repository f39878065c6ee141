"""The engine's API: start a game, ask what is pending, apply answers, read the result.

Like OpenSpiel's state API: `pending_decision` gives the legal options, `apply` returns
the next state plus the typed events it produced. What each step does is declared in
`steps.py`, where each step goes next in `flow.py`; this module only drives the two.
"""

from collections.abc import Callable, Mapping, Sequence

from autowerewolf.rules.common import event
from autowerewolf.rules.config import GameConfig
from autowerewolf.rules.decisions import MAX_TEXT_CHARS, Answers, IllegalAction, PendingDecision
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.flow import advance, enter
from autowerewolf.rules.keys import DecisionKey, parse_key
from autowerewolf.rules.rng import rng_for
from autowerewolf.rules.state import BadgeStatus, GameState, Seat
from autowerewolf.rules.step_spec import StepKind
from autowerewolf.rules.steps import FIRST_STEP, check_key, spec
from autowerewolf.rules.variants import Scoring


class UndeclaredTransition(RuntimeError):
    """A step led somewhere its table entry does not declare: a bug in the rules."""


def new_game(
    config: GameConfig, draws: Mapping[str, str] | None = None
) -> tuple[GameState, list[Event]]:
    """Deal the roles (seeded, unless the config fixes the deal) and names; open Night 1.

    `draws` fixes the outcome of moderator draws by key (a script replaying a game recorded
    elsewhere); the others are seeded."""
    roles = list(config.deal or config.roles)
    if config.deal is None:
        rng_for(config.root, "deal").shuffle(roles)
    names = (
        rng_for(config.root, "names").sample(config.name_pool, len(roles))
        if config.name_pool
        else []
    )
    seats = tuple(
        Seat(id=f"P{i + 1:02d}", name=names[i] if names else f"P{i + 1:02d}", role=role)
        for i, role in enumerate(roles)
    )
    badge = BadgeStatus.UNDECIDED if config.variants.sheriff_enabled else BadgeStatus.DISABLED
    state = GameState(config=config, seats=seats, badge=badge, draws=dict(draws or {}))
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
    return enter(state, FIRST_STEP, events), events


def key_of(state: GameState) -> DecisionKey:
    """The pending decision's key (keys.py), e.g. `n1:wolves:P03`, `d2:exile_vote:r1`, or
    `d2:discussion:t3:P05` for a step a seat may take twice a day."""
    step = spec(state.step)
    night, day = step.kind is StepKind.NIGHT, state.day
    if step.round_of is not None:
        return DecisionKey(night, day, state.step, round=step.round_of(state))
    if step.in_turn:
        turn = step.turn_of(state) if step.turn_of is not None else None
        return DecisionKey(night, day, state.step, seat=state.speakers[0], turn=turn)
    return DecisionKey(night, day, state.step)


def decision_key(state: GameState) -> str:
    """The pending decision's key as text: what records, scripts and `history` show."""
    return str(key_of(state))


def parse_decision_key(text: str) -> DecisionKey:
    """A decision key of this engine: the grammar (keys.py) and the step table's shape for
    its step (steps.check_key). Raises BadKey with a one-line reason."""
    return check_key(parse_key(text))


def pending_decision(state: GameState) -> PendingDecision | None:
    """The decision the game waits for; None when the step resolves itself or the game is over."""
    step = spec(state.step)
    if step.options is None:
        return None
    return PendingDecision(
        step=state.step,
        key=decision_key(state),
        options=step.options(state),
        simultaneous=step.simultaneous,
    )


def validate(state: GameState, answers: Answers, pending: PendingDecision | None) -> None:
    expected = pending.options if pending is not None else {}
    missing = sorted(set(expected) - set(answers))
    extra = sorted(set(answers) - set(expected))
    if missing or extra:
        problem = (
            f"missing answers from {missing}" if missing else f"unexpected answers from {extra}"
        )
        raise IllegalAction(f"{state.step}: {problem}")
    for seat_id, action in answers.items():
        if action.option not in expected[seat_id]:
            raise IllegalAction(
                f"{state.step}: {seat_id} chose {action.option!r}, "
                f"legal: {', '.join(expected[seat_id])}"
            )
        if len(action.text) > MAX_TEXT_CHARS:
            raise IllegalAction(
                f"{state.step}: {seat_id}'s text has {len(action.text)} characters; "
                f"at most {MAX_TEXT_CHARS}"
            )


def apply(
    state: GameState, answers: Answers | None = None, decision: PendingDecision | None = None
) -> tuple[GameState, list[Event]]:
    """Apply the pending decision's answers (none for a step that resolves itself).

    `decision` may pass the pending decision the caller already computed for this state.
    """
    answers = answers or {}
    step = spec(state.step)
    if step.resolve is None:
        raise IllegalAction("the game is over")
    if decision is None or decision.key != decision_key(state) or decision.step != state.step:
        decision = pending_decision(state)
    validate(state, answers, decision)
    events: list[Event] = []
    resolved, outcome = step.resolve(state, answers, events)
    after = advance(resolved, outcome, events, then=step.then)
    if after.step not in step.next:
        raise UndeclaredTransition(f"{state.step} led to {after.step}, which it does not declare")
    return after.model_copy(update={"ply": state.ply + 1}), events


def is_terminal(state: GameState) -> bool:
    return spec(state.step).kind is StepKind.END


# Answers to a pending decision from the state and the events so far; None stops the game
# there (a trainer's seat must answer first).
Answerer = Callable[[GameState, Sequence[Event], PendingDecision], Answers | None]


def play_out(
    state: GameState, events: list[Event], answer: Answerer
) -> tuple[GameState, PendingDecision | None]:
    """Drive the engine from `state`: steps that resolve themselves are applied, each decision
    is put to `answer`, and `events` grows with every new event. Returns at the end of the
    game (no decision), or at the decision `answer` declined, unapplied. The one loop
    everything but the graph plays games with."""
    while not is_terminal(state):
        decision = pending_decision(state)
        answers = None if decision is None else answer(state, events, decision)
        if decision is not None and answers is None:
            return state, decision
        state, new = apply(state, answers, decision)
        events.extend(new)
    return state, None


def returns(state: GameState) -> dict[str, float]:
    """+1 for each seat of the winning camp, -1 for the others (0 under `scoring=win_only`),
    0 for all on a draw (RULES §8; docs/rules.md)."""
    if state.winner is None:
        return {s.id: 0.0 for s in state.seats}
    loss = 0.0 if state.config.variants.scoring is Scoring.WIN_ONLY else -1.0
    return {s.id: 1.0 if s.camp is state.winner else loss for s in state.seats}


__all__ = [
    "apply",
    "decision_key",
    "is_terminal",
    "key_of",
    "new_game",
    "parse_decision_key",
    "pending_decision",
    "play_out",
    "returns",
]
