"""The sheriff (RULES §3, §4): the Day-1 election, the badge, the speaking direction and the
sheriff's weighted ballot."""

from autowerewolf.rules.common import (
    clockwise_from,
    draw,
    event,
    explode_option,
    exploded,
    others,
    seat_after,
)
from autowerewolf.rules.deaths import pop_task
from autowerewolf.rules.decisions import Answers, Option, Options
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.outcome import Outcome, Resolved
from autowerewolf.rules.state import BadgeStatus, Election, GameState, Step
from autowerewolf.rules.tally import publish_ballots, publish_result, tally
from autowerewolf.rules.variants import BadgeSwallow

# --- the election (§3) ------------------------------------------------------------------


def election_pending(state: GameState) -> bool:
    return (
        state.config.variants.sheriff_enabled
        and state.badge is BadgeStatus.UNDECIDED
        and (state.day == 1 or state.election.postponed)
    )


def election_round(state: GameState) -> int:
    return state.election.round


def signup_options(state: GameState) -> Options:
    """Sign-up is simultaneous; the night's dead still take part (RULES §3)."""
    return {
        s: (Option.RUN.value, Option.PASS.value, *explode_option(state, s))
        for s in state.publicly_alive
    }


def first_exploder(answers: Answers) -> str | None:
    """Several wolves exploding at the same moment: the lowest seat goes first, alone."""
    exploders = sorted(s for s, a in answers.items() if a.option == Option.EXPLODE)
    return exploders[0] if exploders else None


def apply_signup(state: GameState, answers: Answers, events: list[Event]) -> Resolved:
    runners = tuple(sorted(s for s, a in answers.items() if a.option == Option.RUN))
    for seat_id in sorted(s for s, a in answers.items() if a.option != Option.EXPLODE):
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
    exploder = first_exploder(answers)
    if exploder is not None:
        return exploded(state, exploder)
    if runners and len(runners) == len(state.publicly_alive):
        return lose_badge(state, "every player ran", events)
    return settle_candidates(state, runners, events)


def start_election_speeches(state: GameState, candidates: tuple[str, ...]) -> Resolved:
    start = draw(state, "campaign_start", sorted(candidates))
    election = state.election.model_copy(update={"candidates": candidates, "postponed": False})
    update = {"election": election, "speakers": clockwise_from(start, candidates)}
    return state.model_copy(update=update), Outcome.CAMPAIGN


def settle_candidates(
    state: GameState, candidates: tuple[str, ...], events: list[Event]
) -> Resolved:
    """0 candidates: badge lost; 1: elected; more: campaign speeches (RULES §3)."""
    if not candidates:
        return lose_badge(state, "no candidate", events)
    if len(candidates) == 1:
        return elect(state, candidates[0], events)
    return start_election_speeches(state, candidates)


def _result(state: GameState, events: list[Event], **fields: object) -> Resolved:
    """The election's result, filed under the announcement that follows it (as since 0.1.0)."""
    events.append(event(state, EventKind.SHERIFF, Audience.PUBLIC, phase=Step.ANNOUNCE, **fields))
    return state, Outcome.ELECTED


def elect(state: GameState, seat_id: str, events: list[Event]) -> Resolved:
    state = state.model_copy(
        update={
            "sheriff": seat_id,
            "badge": BadgeStatus.HELD,
            "election": Election(signed_up=state.election.signed_up),
            "speakers": (),
        }
    )
    return _result(state, events, target=seat_id, value="elected")


def lose_badge(state: GameState, reason: str, events: list[Event]) -> Resolved:
    state = state.model_copy(update={"badge": BadgeStatus.LOST, "speakers": ()})
    return _result(state, events, value="lost", text=reason)


def withdraw_options(state: GameState) -> Options:
    """Candidates stay or withdraw; anyone may still explode if a wolf (RULES §3, §6)."""
    candidates = state.election.candidates
    options: Options = {}
    for s in state.publicly_alive:
        explode = explode_option(state, s)
        if s in candidates:
            options[s] = (Option.STAY.value, Option.WITHDRAW.value, *explode)
        elif explode:
            options[s] = (Option.NONE.value, *explode)
    return options


def apply_withdraw(state: GameState, answers: Answers, events: list[Event]) -> Resolved:
    leaving = {s for s, a in answers.items() if a.option == Option.WITHDRAW}
    for seat_id in sorted(leaving):
        events.append(event(state, EventKind.WITHDRAW, Audience.PUBLIC, actor=seat_id))
    remaining = tuple(c for c in state.election.candidates if c not in leaving)
    state = state.model_copy(
        update={"election": state.election.model_copy(update={"candidates": remaining})}
    )
    exploder = first_exploder(answers)
    if exploder is not None:
        return exploded(state, exploder)
    if not remaining:
        return lose_badge(state, "every candidate withdrew", events)
    if len(remaining) == 1:
        return elect(state, remaining[0], events)
    return state, Outcome.DONE


def election_vote_options(state: GameState) -> Options:
    """Only players who never signed up vote (RULES §3)."""
    signed = set(state.election.signed_up)
    choices = (*state.election.candidates, Option.ABSTAIN.value)
    return {s: choices for s in state.publicly_alive if s not in signed}


def apply_election_vote(state: GameState, answers: Answers, events: list[Event]) -> Resolved:
    round_ = state.election.round
    ballots = {s: a.option for s, a in answers.items()}
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
    update = {"election": election, "speakers": leaders}
    return state.model_copy(update=update), Outcome.ELECTION_TIE


def swallow_badge(state: GameState, events: list[Event]) -> GameState:
    """A wolf explodes during the election: the badge is lost, or under `badge_swallow =
    double` the first explosion postpones the election to the next day (RULES §3)."""
    election = state.election
    double = state.config.variants.badge_swallow is BadgeSwallow.DOUBLE
    if double and election.explosions == 0:
        election = election.model_copy(update={"explosions": 1, "postponed": True, "round": 1})
        events.append(
            event(
                state,
                EventKind.SHERIFF,
                Audience.PUBLIC,
                value="postponed",
                text="election moves to the next day",
            )
        )
        return state.model_copy(update={"election": election})
    events.append(
        event(
            state,
            EventKind.SHERIFF,
            Audience.PUBLIC,
            value="lost",
            text="a wolf exploded during the election",
        )
    )
    return state.model_copy(
        update={
            "badge": BadgeStatus.LOST,
            "election": election.model_copy(update={"explosions": election.explosions + 1}),
        }
    )


# --- the badge (§4) ---------------------------------------------------------------------


def badge_options(state: GameState) -> Options:
    holder = state.speakers[0]
    return {holder: (*others(state, holder), Option.TEAR.value)}


def apply_badge(state: GameState, answers: Answers, events: list[Event]) -> Resolved:
    """The dead sheriff passes the badge to a living player or tears it."""
    holder = state.chain[0].seat
    assert holder is not None
    state = pop_task(state)
    choice = answers[holder].option
    if choice == Option.TEAR:
        state = state.model_copy(update={"sheriff": None, "badge": BadgeStatus.LOST})
        events.append(event(state, EventKind.SHERIFF, Audience.PUBLIC, actor=holder, value="torn"))
    else:
        state = state.model_copy(update={"sheriff": choice})
        events.append(
            event(
                state,
                EventKind.SHERIFF,
                Audience.PUBLIC,
                actor=holder,
                target=choice,
                value="passed",
            )
        )
    return state, Outcome.CHAIN


def flip_loses_badge(state: GameState, seat_id: str, events: list[Event]) -> GameState:
    """An Idiot sheriff who flips loses the badge unless `idiot_flip_keeps_badge` (§4)."""
    if state.sheriff != seat_id or state.config.variants.idiot_flip_keeps_badge:
        return state
    state = state.model_copy(update={"sheriff": None, "badge": BadgeStatus.LOST})
    events.append(
        event(
            state,
            EventKind.SHERIFF,
            Audience.PUBLIC,
            value="lost",
            text="the sheriff flipped as Idiot",
        )
    )
    return state


# --- speaking order and the weighted ballot (§4) -----------------------------------------


def sheriff_leads(state: GameState) -> bool:
    return state.sheriff is not None and state.seat(state.sheriff).alive


def direction_options(state: GameState) -> Options:
    assert state.sheriff is not None
    return {state.sheriff: (Option.CLOCKWISE.value, Option.COUNTERCLOCKWISE.value)}


def speaking_order(state: GameState, clockwise: bool) -> tuple[str, ...]:
    """From the sheriff's left (or right), the sheriff last."""
    assert state.sheriff is not None
    order = clockwise_from(seat_after(state, state.sheriff), others(state, state.sheriff))
    if not clockwise:
        order = tuple(reversed(order))
    return (*order, state.sheriff)


def apply_direction(state: GameState, answers: Answers, events: list[Event]) -> Resolved:
    """The sheriff's direction orders the day's speakers (queued in `speakers`, the sheriff
    last), whom the discussion opens with (flow.py)."""
    assert state.sheriff is not None
    clockwise = answers[state.sheriff].option == Option.CLOCKWISE
    events.append(
        event(
            state,
            EventKind.DIRECTION,
            Audience.PUBLIC,
            actor=state.sheriff,
            value=Option.CLOCKWISE if clockwise else Option.COUNTERCLOCKWISE,
        )
    )
    order = speaking_order(state, clockwise)
    return state.model_copy(update={"speakers": order}), Outcome.DONE


def ballot_weight(state: GameState, voter: str) -> float:
    return state.config.variants.sheriff_vote_weight if voter == state.sheriff else 1.0
