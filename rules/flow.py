"""Where the game goes next, decided in this one module (in the spirit of boardgame.io's
`flow.ts`).

The rule modules (night, sheriff, day, discussion, speeches, chain) apply a rule and say
what happened (`Outcome`); `advance` turns that into the next step:

* a finished step (`Outcome.DONE`) leads to the step its table entry names `then`, which
  is entered through its hook in `ENTER` where it has one (boardgame.io's `onBegin`): a
  night role with nothing to decide is skipped, the election is held only while it is due,
  the discussion opens in the day's speaking order;
* every other outcome has one transition here: the death chain, nightfall, the exile vote
  the discussion ends with, the PK speeches a tie leads to, the self-explosion.

The rule modules import none of each other's transitions, so `rules/` has no import circle
(tests/architecture/test_imports.py); the engine (engine.py) checks every transition against
the table's `next`.
"""

from collections.abc import Callable

from autowerewolf.rules import day, discussion, night, sheriff, wolf_king
from autowerewolf.rules.common import clockwise_from, draw, event, role_alive, seat_of_role
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.outcome import Outcome, Resolved
from autowerewolf.rules.roles import Role
from autowerewolf.rules.state import GameState, Night, Step, TaskKind, Vote
from autowerewolf.rules.variants import ExileVoting
from autowerewolf.rules.win import check_and_end, game_over

Transition = Callable[[GameState, list[Event]], GameState]


def goto(step: str) -> Transition:
    def to_step(state: GameState, _events: list[Event]) -> GameState:
        return state.model_copy(update={"step": step})

    return to_step


def enter(state: GameState, step: str, events: list[Event]) -> GameState:
    """Enter `step`, through its hook where it has one."""
    hook = ENTER.get(step)
    return hook(state, events) if hook is not None else goto(step)(state, events)


def advance(
    state: GameState, outcome: Outcome, events: list[Event], then: str | None = None
) -> GameState:
    """The game after a resolver said `outcome`; `then` is the finished step's successor
    (its table entry's `then`), for `Outcome.DONE`."""
    if outcome is Outcome.DONE:
        if then is None:
            raise ValueError(f"{state.step} is done but its table entry names no `then`")
        return enter(state, then, events)
    return AFTER[outcome](state, events)


def _advanced(resolved: Resolved, events: list[Event]) -> GameState:
    return advance(resolved[0], resolved[1], events)


# --- the night (RULES §2) ---------------------------------------------------------------


def _enter_wolves(state: GameState, _events: list[Event]) -> GameState:
    return state.model_copy(update={"step": Step.WOLVES, "speakers": night.wolf_order(state)})


def _enter_seer(state: GameState, events: list[Event]) -> GameState:
    if role_alive(state, Role.SEER):
        return state.model_copy(update={"step": Step.SEER})
    return enter(state, Step.WITCH_CURE, events)


def _enter_witch_cure(state: GameState, events: list[Event]) -> GameState:
    if role_alive(state, Role.WITCH) and not state.cure_used:
        state = state.model_copy(update={"step": Step.WITCH_CURE})
        # The Witch learns the target only while her cure is unused (RULES §2).
        events.append(
            event(
                state,
                EventKind.WITCH_INFO,
                Audience.SEAT,
                seat=seat_of_role(state, Role.WITCH),
                target=state.night.wolf_target,
                value="attack" if state.night.wolf_target else "no_attack",
            )
        )
        if night.witch_may_save(state):
            return state
    return enter(state, Step.WITCH_POISON, events)


def _enter_witch_poison(state: GameState, events: list[Event]) -> GameState:
    may_poison = (
        role_alive(state, Role.WITCH)
        and not state.poison_used
        and (not state.night.cured or state.config.variants.witch_both_potions_one_night)
    )
    if may_poison:
        return state.model_copy(update={"step": Step.WITCH_POISON})
    return enter(state, Step.GUARD, events)


def _enter_guard(state: GameState, _events: list[Event]) -> GameState:
    step = Step.GUARD if role_alive(state, Role.GUARD) else Step.DAWN
    return state.model_copy(update={"step": step})


def fall_night(state: GameState, events: list[Event]) -> GameState:
    """Nightfall: the next night opens, or the game ends undecided after `max_days`."""
    if state.day >= state.config.max_days:
        return game_over(state, None, f"no winner after {state.config.max_days} days", events)
    state = state.model_copy(
        update={
            "day": state.day + 1,
            "step": Step.WOLVES,
            "night": Night(),
            "vote": Vote(),
            "speakers": (),
            "day_cancelled": False,
            "dawn_deaths": (),
            "exploder": None,
        }
    )
    events.append(event(state, EventKind.NIGHT_START, Audience.PUBLIC))
    return enter(state, Step.WOLVES, events)


# --- the day (RULES §3-§7) --------------------------------------------------------------


def _enter_election(state: GameState, events: list[Event]) -> GameState:
    """After the dawn: the election (or its postponed sequel) before the night's deaths are
    announced (RULES §3), or straight to the announcement."""
    if not sheriff.election_pending(state):
        return state.model_copy(update={"step": Step.ANNOUNCE})
    if state.election.postponed:
        alive = set(state.publicly_alive)
        remaining = tuple(c for c in state.election.candidates if c in alive)
        return _advanced(sheriff.settle_candidates(state, remaining, events), events)
    return state.model_copy(update={"step": Step.ELECTION_SIGNUP})


def _enter_discussion(state: GameState, events: list[Event]) -> GameState:
    """The discussion opens in the speaking order queued in `speakers`; a living sheriff
    closes it (RULES §4, §6)."""
    closer = state.sheriff if sheriff.sheriff_leads(state) else None
    return _advanced(discussion.open_discussion(state, state.speakers, closer), events)


def start_discussion(state: GameState, events: list[Event]) -> GameState:
    """The day's discussion: the sheriff chooses its direction, or it opens in the default
    speaking order (RULES §6)."""
    if sheriff.sheriff_leads(state):
        return state.model_copy(update={"step": Step.SHERIFF_DIRECTION})
    order = day.default_speaking_order(state)
    return enter(state.model_copy(update={"speakers": order}), Step.DISCUSSION, events)


def open_exile_vote(state: GameState, _events: list[Event]) -> GameState:
    """The discussion is over: everyone votes at once, or (`exile_vote=roll_call`) one at a
    time clockwise from a seeded seat, living or dead (docs/rules.md §6)."""
    if state.config.variants.exile_vote is ExileVoting.SIMULTANEOUS:
        return state.model_copy(update={"step": Step.EXILE_VOTE, "speakers": ()})
    start = draw(state, "vote_start", tuple(s.id for s in state.seats))
    voters = clockwise_from(start, day.exile_voters(state))
    return state.model_copy(update={"step": Step.EXILE_ROLL_CALL, "speakers": voters})


# --- the death chain (RULES §7) ---------------------------------------------------------

_TASK_STEPS = {
    TaskKind.HUNTER_SHOT: Step.HUNTER_SHOT,
    TaskKind.BADGE: Step.BADGE,
    TaskKind.LAST_WORDS: Step.LAST_WORDS,
}


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
    if state.interrupted is not None:  # a lost duel: the discussion goes on (knight.py)
        resumed = {"step": Step.DISCUSSION, "speakers": state.interrupted, "interrupted": None}
        return state.model_copy(update=resumed)
    if after == Step.DISCUSSION_BID:
        return state.model_copy(update={"step": Step.DISCUSSION_BID})
    if after == Step.EXILE_VOTE:
        return open_exile_vote(state, events)
    if after == Step.DISCUSSION and not state.day_cancelled:
        return start_discussion(state, events)
    return fall_night(state, events)


def _after_explosion(state: GameState, _events: list[Event]) -> GameState:
    """A wolf exploded: a White Wolf King first names whom he takes (docs/rules.md §12)."""
    wolf = state.exploder
    assert wolf is not None
    if wolf_king.takes_someone(state, wolf):
        return state.model_copy(update={"step": Step.WOLF_KING_TAKE, "speakers": (wolf,)})
    return state.model_copy(update={"step": Step.SELF_EXPLOSION})


def _keep(state: GameState, _events: list[Event]) -> GameState:
    return state


# Entering a step: the hooks of the steps that do more than become the current step.
ENTER: dict[str, Transition] = {
    Step.WOLVES: _enter_wolves,
    Step.SEER: _enter_seer,
    Step.WITCH_CURE: _enter_witch_cure,
    Step.WITCH_POISON: _enter_witch_poison,
    Step.GUARD: _enter_guard,
    Step.ELECTION_SIGNUP: _enter_election,
    Step.DISCUSSION: _enter_discussion,
}

# Every outcome but DONE, and where it leads.
AFTER: dict[Outcome, Transition] = {
    Outcome.NEXT_SEAT: _keep,
    Outcome.GAME_OVER: _keep,
    Outcome.EXPLODED: _after_explosion,
    Outcome.CHAIN: run_chain,
    Outcome.ELECTED: goto(Step.ANNOUNCE),
    Outcome.CAMPAIGN: goto(Step.ELECTION_SPEECH),
    Outcome.ELECTION_TIE: goto(Step.ELECTION_PK_SPEECH),
    Outcome.EXILE_TIE: goto(Step.EXILE_PK_SPEECH),
    Outcome.DAY_OVER: fall_night,
    Outcome.BIDS: goto(Step.DISCUSSION_BID),
    Outcome.SPEAKS: goto(Step.DISCUSSION),
    Outcome.DEBATE_OVER: open_exile_vote,
    Outcome.DUEL: goto(Step.DUEL),
}
