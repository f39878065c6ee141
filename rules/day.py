"""Announcements, discussion and the exile vote (RULES §4-§6)."""

from collections.abc import Mapping

from autowerewolf.rules.common import event
from autowerewolf.rules.deaths import kill, push_chain
from autowerewolf.rules.decisions import Action, Option
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.roles import Role
from autowerewolf.rules.state import BadgeStatus, Cause, GameState, Step, Vote
from autowerewolf.rules.tally import publish_ballots, publish_result, tally
from autowerewolf.rules.transitions import fall_night, run_chain, sheriff_speaking_order


def apply_announce(state: GameState, events: list[Event]) -> GameState:
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
    return run_chain(push_chain(state, dead), events)


def apply_direction(
    state: GameState, actions: Mapping[str, Action], events: list[Event]
) -> GameState:
    assert state.sheriff is not None
    clockwise = actions[state.sheriff].option == Option.CLOCKWISE
    events.append(
        event(
            state,
            EventKind.DIRECTION,
            Audience.PUBLIC,
            actor=state.sheriff,
            value=Option.CLOCKWISE if clockwise else Option.COUNTERCLOCKWISE,
        )
    )
    return state.model_copy(
        update={"step": Step.DISCUSSION, "speakers": sheriff_speaking_order(state, clockwise)}
    )


def exile_voters(state: GameState) -> tuple[str, ...]:
    """Living players with a vote; in a PK the tied players do not vote (RULES §6)."""
    return tuple(
        s.id
        for s in state.seats
        if s.alive and not s.idiot_flipped and s.id not in state.vote.candidates
    )


def ballot_weight(state: GameState, voter: str) -> float:
    return state.config.variants.sheriff_vote_weight if voter == state.sheriff else 1.0


def apply_exile_vote(
    state: GameState, actions: Mapping[str, Action], events: list[Event]
) -> GameState:
    round_ = state.vote.round
    ballots = {s: a.option for s, a in actions.items()}
    weights = {s: ballot_weight(state, s) for s in ballots}
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
    return fall_night(state, events)


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
    return run_chain(push_chain(state, (seat_id,)), events)


def flip_idiot(state: GameState, seat_id: str, events: list[Event]) -> GameState:
    """The hidden Idiot survives his exile, revealed and voteless; the day ends (RULES §7)."""
    state = state.replace_seat(seat_id, revealed=True, idiot_flipped=True)
    events.append(
        event(state, EventKind.IDIOT_FLIP, Audience.PUBLIC, actor=seat_id, value=Role.IDIOT)
    )
    if state.sheriff == seat_id and not state.config.variants.idiot_flip_keeps_badge:
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
    return fall_night(state, events)
