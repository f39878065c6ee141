"""How the day's discussion picks its speakers (RULES §6; docs/rules.md, "Discussion
protocols").

`round_robin` (the rulebook's): every living player speaks once in the speaking order.
`bidding` (Werewolf Arena): before each speech the players below the day's speech cap bid
0-4 in private; the highest bid speaks. `bid_once`: one bid each at the start of the day
fixes the day's order. Under both bidding protocols a living sheriff does not bid: he sums
up last (RULES §4). Bid ties follow Kaggle's Game Arena: a player named in the last speech
first, then the one with fewer speeches today, then the day's speaking order (the sheriff's
direction, or after the last night's dead), so no draw is ever needed.
"""

import re
from collections.abc import Mapping

from autowerewolf.rules.common import event, exploded
from autowerewolf.rules.decisions import Answers, Option, Options
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.outcome import Outcome, Resolved
from autowerewolf.rules.speeches import record_speech
from autowerewolf.rules.state import Discussion, GameState, Step
from autowerewolf.rules.variants import DiscussionProtocol

BID_OPTIONS = ("0", "1", "2", "3", "4")  # 4: "I was addressed and must answer"
# The exile vote the discussion leads to: everyone at once, or a roll call.
EXILE_VOTE_STEPS = frozenset({Step.EXILE_VOTE, Step.EXILE_ROLL_CALL})


def _protocol(state: GameState) -> DiscussionProtocol:
    return state.config.variants.discussion


def mentions(text: str, names: Mapping[str, str]) -> tuple[str, ...]:
    """The seats a text names, by seat id or display name (`names`: seat -> name), in the
    order they are first named."""
    by_word = {**{name: seat for seat, name in names.items()}, **{seat: seat for seat in names}}
    words = sorted(by_word, key=len, reverse=True)  # "Jules" before "Jul"
    pattern = r"\b(" + "|".join(re.escape(w) for w in words) + r")\b"
    return tuple(dict.fromkeys(by_word[m.group(1)] for m in re.finditer(pattern, text)))


def open_discussion(state: GameState, order: tuple[str, ...], closer: str | None) -> Resolved:
    """Start the day's discussion: `order` is RULES §6's speaking order, `closer` the
    sheriff who speaks last (he ends `order`), if any."""
    if _protocol(state) is DiscussionProtocol.ROUND_ROBIN:
        # `discussion_rounds` rounds in the same order; the sheriff closes each round.
        rounds = state.config.variants.discussion_rounds
        update: dict[str, object] = {"speakers": order * rounds}
        if rounds > 1:
            update["discussion"] = Discussion(order=order)
        return state.model_copy(update=update), Outcome.SPEAKS
    discussion = Discussion(order=tuple(s for s in order if s != closer), closer=closer)
    return next_turn(state.model_copy(update={"discussion": discussion, "speakers": ()}))


def speech_budget(state: GameState) -> int:
    """Discussion speeches allowed today under a bidding protocol, the summary included."""
    turns = state.config.variants.discussion_turns
    return turns if turns is not None else len(state.living)


def _bid_turns(state: GameState) -> int:
    return speech_budget(state) - (1 if state.discussion.closer is not None else 0)


def bidders(state: GameState) -> tuple[str, ...]:
    """Who bids for the next speech: the players below today's speech cap, in day order."""
    once = _protocol(state) is DiscussionProtocol.BID_ONCE
    cap = 1 if once else state.config.variants.speech_cap
    spoken = state.discussion.spoken
    return tuple(s for s in state.discussion.order if spoken.get(s, 0) < cap)


def _speak(state: GameState, queue: tuple[str, ...]) -> Resolved:
    return state.model_copy(update={"speakers": queue}), Outcome.SPEAKS


def next_turn(state: GameState) -> Resolved:
    """After a speech (or at the start): a bid for the next speech, the closer's summary, or
    the exile vote. `bid_once` bids only at the start of the day."""
    d = state.discussion
    if _protocol(state) is DiscussionProtocol.BIDDING or d.turn == 0:
        candidates = bidders(state) if d.turn < _bid_turns(state) else ()
        if len(candidates) > 1:
            return state.model_copy(update={"speakers": ()}), Outcome.BIDS
        if candidates:  # nobody to outbid: no question to ask
            return _speak(state, candidates)
    if d.closer is not None and d.closer not in d.spoken:
        return _speak(state, (d.closer,))
    return state, Outcome.DEBATE_OVER


def bid_options(state: GameState) -> Options:
    return {seat: BID_OPTIONS for seat in bidders(state)}


def bid_round(state: GameState) -> int:
    """Bids are keyed by the speech they are for: r1 before the day's first speech."""
    return state.discussion.turn + 1


def speech_turn(state: GameState) -> int | None:
    """Under bidding, or round robin over several rounds, a player may speak twice a day:
    his speeches are keyed by turn too."""
    if _protocol(state) is DiscussionProtocol.ROUND_ROBIN:
        rounds = state.config.variants.discussion_rounds
        if rounds == 1:
            return None
        return len(state.discussion.order) * rounds - len(state.speakers) + 1
    return state.discussion.turn + 1


def rank(state: GameState, bids: Mapping[str, int]) -> tuple[str, ...]:
    """Highest bid first; ties: named in the last speech, then fewer speeches today, then
    the day's speaking order."""
    d = state.discussion

    def priority(seat: str) -> tuple[int, bool, int, int]:
        return (-bids[seat], seat not in d.named, d.spoken.get(seat, 0), d.order.index(seat))

    return tuple(sorted(bids, key=priority))


def apply_bids(state: GameState, answers: Answers, events: list[Event]) -> Resolved:
    """Each bid is told to its bidder only; the winner (bidding) or the ranking (bid_once)
    speaks."""
    bids = {seat: int(a.option) for seat, a in answers.items()}
    for seat in sorted(bids):
        events.append(
            event(
                state,
                EventKind.BID,
                Audience.SEAT,
                seat=seat,
                actor=seat,
                value=str(bids[seat]),
                round=bid_round(state),
            )
        )
    ranking = rank(state, bids)
    once = _protocol(state) is DiscussionProtocol.BID_ONCE
    return _speak(state, ranking[: _bid_turns(state)] if once else ranking[:1])


def after_speech(state: GameState, speaker: str, text: str) -> Resolved:
    """What the discussion does after `speaker` said `text`."""
    if _protocol(state) is DiscussionProtocol.ROUND_ROBIN:
        rest = state.speakers[1:]
        if rest:
            return state.model_copy(update={"speakers": rest}), Outcome.NEXT_SEAT
        return state.model_copy(update={"speakers": ()}), Outcome.DEBATE_OVER
    d = state.discussion
    named = mentions(text, {s.id: s.name for s in state.seats})
    discussion = d.model_copy(
        update={
            "turn": d.turn + 1,
            "spoken": {**d.spoken, speaker: d.spoken.get(speaker, 0) + 1},
            "named": tuple(s for s in named if s != speaker),
        }
    )
    state = state.model_copy(update={"discussion": discussion, "speakers": state.speakers[1:]})
    return (state, Outcome.NEXT_SEAT) if state.speakers else next_turn(state)


def apply_speech(state: GameState, answers: Answers, events: list[Event]) -> Resolved:
    speaker = state.speakers[0]
    action = answers[speaker]
    if action.option == Option.EXPLODE:
        return exploded(state, speaker)
    if action.option == Option.DUEL:
        return state, Outcome.DUEL  # the Knight names his opponent next (knight.py)
    record_speech(state, speaker, "discussion", action.text, events)
    return after_speech(state, speaker, action.text)


def last_speech_pending(state: GameState) -> bool:
    """Whether the pending discussion speech is the day's last: the sheriff's summary, or
    the last speech without a sheriff (a plain speech now would end the discussion)."""
    if state.step != Step.DISCUSSION:
        return False
    return after_speech(state, state.speakers[0], "")[1] is Outcome.DEBATE_OVER
