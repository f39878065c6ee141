"""The day (RULES §5-§7): the dawn announcement, the speaking order, the exile vote and its
PK, the exile and the Idiot's flip. Opening the discussion and the vote is the flow's
(flow.py); the discussion's protocols are discussion.py's."""

from collections.abc import Mapping

from autowerewolf.rules import sheriff
from autowerewolf.rules.common import clockwise_from, draw, event, seat_after
from autowerewolf.rules.deaths import death_announcement, kill, push_chain
from autowerewolf.rules.decisions import Answers, Option, Options
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.outcome import Outcome, Resolved
from autowerewolf.rules.roles import Role
from autowerewolf.rules.state import Cause, GameState, Step, Vote
from autowerewolf.rules.tally import publish_ballots, publish_result, tally
from autowerewolf.rules.variants import AllAbstain, ExileTie, SpeakingStart


def apply_announce(state: GameState, events: list[Event]) -> Resolved:
    """Deaths by seat only, in seat order; then their death chain (RULES §5, §7)."""
    dead = state.unannounced
    events.append(death_announcement(state))
    after = Step.DISCUSSION if not state.day_cancelled else Step.WOLVES
    state = state.model_copy(
        update={"unannounced": (), "dawn_deaths": dead, "after_chain": after, "speakers": ()}
    )
    return push_chain(state, dead), Outcome.CHAIN


def default_speaking_order(state: GameState) -> tuple[str, ...]:
    """No sheriff: start after the lowest-seat player who died last night, else a seeded seat
    (RULES §6); under `speaking_start=random_seat` from a seeded seat, living or dead, every
    day (docs/rules.md §6)."""
    living = state.living
    if state.config.variants.speaking_start is SpeakingStart.RANDOM_SEAT:
        start = draw(state, "speaking_start", tuple(s.id for s in state.seats))
    elif state.dawn_deaths:
        start = seat_after(state, min(state.dawn_deaths))
    else:
        start = draw(state, "speaking_start", living)
    return clockwise_from(start, living)


def exile_voters(state: GameState) -> tuple[str, ...]:
    """Living players with a vote; in a PK the tied players do not vote (RULES §6)."""
    return tuple(
        s.id
        for s in state.seats
        if s.alive and not s.idiot_flipped and s.id not in state.vote.candidates
    )


def exile_round(state: GameState) -> int:
    return state.vote.round


def exile_targets(state: GameState) -> tuple[str, ...]:
    """Who a first-round ballot may name: the living, but not a flipped Idiot (RULES §6)."""
    return tuple(s.id for s in state.seats if s.alive and not s.idiot_flipped)


def first_round_options(state: GameState) -> Options:
    """A first-round exile ballot: any living player but oneself (unless `exile_self_vote`)
    and a flipped Idiot, or abstain; every living player but a flipped Idiot votes
    (RULES §6). Also what a probe's synthetic vote may name."""
    targets = exile_targets(state)
    self_vote = state.config.variants.exile_self_vote
    return {
        v: (*(t for t in targets if self_vote or t != v), Option.ABSTAIN.value) for v in targets
    }


def roll_call_options(state: GameState) -> Options:
    voter = state.speakers[0]
    return {voter: first_round_options(state)[voter]}


def apply_roll_call(state: GameState, answers: Answers, events: list[Event]) -> Resolved:
    """A roll call's ballot is public as soon as it is cast; the last one settles the vote."""
    voter = state.speakers[0]
    ballot = {voter: answers[voter].option}
    weight = {voter: sheriff.ballot_weight(state, voter)}
    publish_ballots(state, ballot, weight, "exile", state.vote.round, events)
    ballots = {**state.vote.ballots, **ballot}
    rest = state.speakers[1:]
    if rest:
        vote = state.vote.model_copy(update={"ballots": ballots})
        return state.model_copy(update={"vote": vote, "speakers": rest}), Outcome.NEXT_SEAT
    weights = {v: sheriff.ballot_weight(state, v) for v in ballots}
    state = state.model_copy(update={"speakers": ()})
    return settle_exile_vote(state, ballots, weights, events)


def exile_vote_options(state: GameState) -> Options:
    """The first round's options; in a PK only the tied, voted on by the others (RULES §6)."""
    if state.vote.candidates:
        pk = (*state.vote.candidates, Option.ABSTAIN.value)
        return {v: pk for v in exile_voters(state)}
    return first_round_options(state)


def apply_exile_vote(state: GameState, answers: Answers, events: list[Event]) -> Resolved:
    ballots = {s: a.option for s, a in answers.items()}
    weights = {s: sheriff.ballot_weight(state, s) for s in ballots}
    publish_ballots(state, ballots, weights, "exile", state.vote.round, events)
    return settle_exile_vote(state, ballots, weights, events)


def settle_exile_vote(
    state: GameState, ballots: Mapping[str, str], weights: Mapping[str, float], events: list[Event]
) -> Resolved:
    """The highest weighted total is exiled (RULES §6); a tie goes to a PK, a seeded draw or
    nobody (`exile_tie`); if everyone abstains nobody is exiled, or a seeded draw among those
    who could be voted for (`exile_all_abstain`)."""
    round_ = state.vote.round
    rules = state.config.variants
    leaders, totals = tally(ballots, weights)
    if (
        len(leaders) == 1
        and rules.exile_needs_majority
        and totals[leaders[0]] * 2 <= sum(totals.values())
    ):
        leaders = ()
    publish_result(state, leaders, totals, "exile", round_, events)
    if len(leaders) == 1:
        return exile(state, leaders[0], events)
    if len(leaders) > 1 and rules.exile_tie is ExileTie.DRAW:
        return exile(state, draw(state, "exile_tie", leaders), events, leaders)
    if len(leaders) > 1 and rules.exile_tie is ExileTie.PK and round_ == 1:
        vote = Vote(round=2, candidates=leaders)
        return state.model_copy(update={"vote": vote, "speakers": leaders}), Outcome.EXILE_TIE
    if not totals and rules.exile_all_abstain is AllAbstain.DRAW:
        pool = state.vote.candidates or exile_targets(state)
        drawn = draw(state, "exile_no_vote", pool, round_ if round_ > 1 else None)
        return exile(state, drawn, events, pool)
    if leaders:
        reason = "tie again" if round_ > 1 else "tie"
    else:
        reason = "no majority" if totals else "everyone abstained"
    events.append(event(state, EventKind.EXILE, Audience.PUBLIC, value="nobody", text=reason))
    return state, Outcome.DAY_OVER


def exile(
    state: GameState, seat_id: str, events: list[Event], drawn_among: tuple[str, ...] = ()
) -> Resolved:
    """`seat_id` is exiled: `drawn_among` names the players a draw picked him among."""
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
            targets=drawn_among,
            value="exiled",
            text=f"role={seat.role}" if reveal else None,
        )
    )
    state = kill(state, seat_id, Cause.EXILE, events)
    state = state.model_copy(update={"after_chain": Step.WOLVES, "speakers": ()})
    return push_chain(state, (seat_id,)), Outcome.CHAIN


def flip_idiot(state: GameState, seat_id: str, events: list[Event]) -> Resolved:
    """The hidden Idiot survives his exile, revealed and voteless; the day ends (RULES §7)."""
    state = state.replace_seat(seat_id, revealed=True, idiot_flipped=True)
    events.append(
        event(state, EventKind.IDIOT_FLIP, Audience.PUBLIC, actor=seat_id, value=Role.IDIOT)
    )
    return sheriff.flip_loses_badge(state, seat_id, events), Outcome.DAY_OVER
