"""Day-1 sheriff election (RULES §3)."""

from collections.abc import Mapping

from autowerewolf.rules.common import event
from autowerewolf.rules.decisions import Action, Option
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.speeches import explode
from autowerewolf.rules.state import Election, GameState, Step
from autowerewolf.rules.tally import publish_ballots, publish_result, tally
from autowerewolf.rules.transitions import elect, lose_badge, settle_candidates


def first_exploder(actions: Mapping[str, Action]) -> str | None:
    """Several wolves exploding at the same moment: the lowest seat goes first, alone."""
    exploders = sorted(s for s, a in actions.items() if a.option == Option.EXPLODE)
    return exploders[0] if exploders else None


def apply_signup(state: GameState, actions: Mapping[str, Action], events: list[Event]) -> GameState:
    runners = tuple(sorted(s for s, a in actions.items() if a.option == Option.RUN))
    for seat_id in sorted(s for s, a in actions.items() if a.option != Option.EXPLODE):
        ran = seat_id in runners
        events.append(
            event(
                state,
                EventKind.SIGNUP,
                Audience.PUBLIC,
                actor=seat_id,
                value="run" if ran else "pass",
            )
        )
    state = state.model_copy(update={"election": Election(signed_up=runners, candidates=runners)})
    exploder = first_exploder(actions)
    if exploder is not None:
        return explode(state, exploder)
    if runners and len(runners) == len(state.publicly_alive):
        return lose_badge(state, "every player ran", events)
    return settle_candidates(state, runners, events)


def apply_withdraw(
    state: GameState, actions: Mapping[str, Action], events: list[Event]
) -> GameState:
    leaving = {s for s, a in actions.items() if a.option == Option.WITHDRAW}
    for seat_id in sorted(leaving):
        events.append(event(state, EventKind.WITHDRAW, Audience.PUBLIC, actor=seat_id))
    remaining = tuple(c for c in state.election.candidates if c not in leaving)
    state = state.model_copy(
        update={"election": state.election.model_copy(update={"candidates": remaining})}
    )
    exploder = first_exploder(actions)
    if exploder is not None:
        return explode(state, exploder)
    if not remaining:
        return lose_badge(state, "every candidate withdrew", events)
    if len(remaining) == 1:
        return elect(state, remaining[0], events)
    return state.model_copy(update={"step": Step.ELECTION_VOTE})


def apply_election_vote(
    state: GameState, actions: Mapping[str, Action], events: list[Event]
) -> GameState:
    round_ = state.election.round
    ballots = {s: a.option for s, a in actions.items()}
    publish_ballots(state, ballots, {}, "election", round_, events)
    leaders, totals = tally(ballots, {})
    publish_result(state, leaders, totals, "election", round_, events)
    if not leaders:
        return lose_badge(state, "no valid vote", events)
    if len(leaders) == 1:
        return elect(state, leaders[0], events)
    if round_ >= 2:
        return lose_badge(state, "second tie", events)
    election = state.election.model_copy(update={"round": 2, "candidates": leaders})
    return state.model_copy(
        update={"election": election, "step": Step.ELECTION_PK_SPEECH, "speakers": leaders}
    )
