"""The day (RULES §5-§7): the dawn announcement, the discussion, the exile vote and its PK,
the exile and the Idiot's flip."""

from autowerewolf.rules import chain, discussion, night, sheriff
from autowerewolf.rules.common import clockwise_from, event, seat_after
from autowerewolf.rules.deaths import kill, push_chain
from autowerewolf.rules.decisions import Answers, Option, Options
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.rng import pick
from autowerewolf.rules.roles import Role
from autowerewolf.rules.state import Cause, GameState, Step, Vote
from autowerewolf.rules.tally import publish_ballots, publish_result, tally


def apply_announce(state: GameState, events: list[Event]) -> GameState:
    """Deaths by seat only, in seat order; then their death chain (RULES §5, §7)."""
    dead = state.unannounced
    reveal = state.config.variants.reveal_role_on_death
    events.append(
        event(
            state,
            EventKind.DEATHS_ANNOUNCED,
            Audience.PUBLIC,
            targets=dead,
            value="deaths" if dead else "peaceful_night",
            text=", ".join(f"{s}={state.seat(s).role}" for s in dead) if reveal else None,
        )
    )
    after = Step.DISCUSSION if not state.day_cancelled else Step.WOLVES
    state = state.model_copy(
        update={"unannounced": (), "dawn_deaths": dead, "after_chain": after, "speakers": ()}
    )
    return chain.run_chain(push_chain(state, dead), events)


def default_speaking_order(state: GameState) -> tuple[str, ...]:
    """No sheriff: start after the lowest-seat player who died last night, else a seeded seat
    (RULES §6)."""
    living = state.living
    if state.dawn_deaths:
        start = seat_after(state, min(state.dawn_deaths))
    else:
        start = pick(state.config.seed, f"d{state.day}:speaking_start", living)
    return clockwise_from(start, living)


def start_discussion(state: GameState) -> GameState:
    if sheriff.sheriff_leads(state):
        return state.model_copy(update={"step": Step.SHERIFF_DIRECTION})
    return discussion.open_discussion(state, default_speaking_order(state), closer=None)


def exile_voters(state: GameState) -> tuple[str, ...]:
    """Living players with a vote; in a PK the tied players do not vote (RULES §6)."""
    return tuple(
        s.id
        for s in state.seats
        if s.alive and not s.idiot_flipped and s.id not in state.vote.candidates
    )


def exile_round(state: GameState) -> int:
    return state.vote.round


def first_round_options(state: GameState) -> Options:
    """A first-round exile ballot: any living player but oneself and a flipped Idiot, or
    abstain; every living player but a flipped Idiot votes (RULES §6). Also what a probe's
    synthetic vote may name."""
    targets = tuple(s.id for s in state.seats if s.alive and not s.idiot_flipped)
    return {v: (*(t for t in targets if t != v), Option.ABSTAIN.value) for v in targets}


def exile_vote_options(state: GameState) -> Options:
    """The first round's options; in a PK only the tied, voted on by the others (RULES §6)."""
    if state.vote.candidates:
        pk = (*state.vote.candidates, Option.ABSTAIN.value)
        return {v: pk for v in exile_voters(state)}
    return first_round_options(state)


def apply_exile_vote(state: GameState, answers: Answers, events: list[Event]) -> GameState:
    round_ = state.vote.round
    ballots = {s: a.option for s, a in answers.items()}
    weights = {s: sheriff.ballot_weight(state, s) for s in ballots}
    publish_ballots(state, ballots, weights, "exile", round_, events)
    leaders, totals = tally(ballots, weights)
    majority_needed = state.config.variants.exile_needs_majority
    if len(leaders) == 1 and majority_needed and totals[leaders[0]] * 2 <= sum(totals.values()):
        leaders = ()
    publish_result(state, leaders, totals, "exile", round_, events)
    if len(leaders) == 1:
        return exile(state, leaders[0], events)
    if len(leaders) > 1 and round_ == 1:
        vote = Vote(round=2, candidates=leaders)
        return state.model_copy(
            update={"vote": vote, "step": Step.EXILE_PK_SPEECH, "speakers": leaders}
        )
    reason = "tie again" if leaders else "no majority" if totals else "everyone abstained"
    events.append(event(state, EventKind.EXILE, Audience.PUBLIC, value="nobody", text=reason))
    return night.fall_night(state, events)


def exile(state: GameState, seat_id: str, events: list[Event]) -> GameState:
    seat = state.seat(seat_id)
    if seat.role is Role.IDIOT and not seat.idiot_flipped:
        return flip_idiot(state, seat_id, events)
    reveal = state.config.variants.reveal_role_on_death
    events.append(
        event(
            state,
            EventKind.EXILE,
            Audience.PUBLIC,
            target=seat_id,
            value="exiled",
            text=f"role={seat.role}" if reveal else None,
        )
    )
    state = kill(state, seat_id, Cause.EXILE, events)
    state = state.model_copy(update={"after_chain": Step.WOLVES, "speakers": ()})
    return chain.run_chain(push_chain(state, (seat_id,)), events)


def flip_idiot(state: GameState, seat_id: str, events: list[Event]) -> GameState:
    """The hidden Idiot survives his exile, revealed and voteless; the day ends (RULES §7)."""
    state = state.replace_seat(seat_id, revealed=True, idiot_flipped=True)
    events.append(
        event(state, EventKind.IDIOT_FLIP, Audience.PUBLIC, actor=seat_id, value=Role.IDIOT)
    )
    state = sheriff.flip_loses_badge(state, seat_id, events)
    return night.fall_night(state, events)
