"""What one game's probes measured: synthetic votes and the debate metrics drawn from them
(docs/evaluation.md, "Debate and belief metrics").

* `sheriff_influence` (WereWolf-Plus, §3): on a day the sheriff sums up the discussion,
  the share of the other voters whose final (first-round) exile ballot differs from their
  `pre_vote` and names the sheriff's recommendation, taken to be his own ballot.
* `vote_swing` (per speech): after a speech that names another seat (its first named
  seat), the share of voters whose synthetic vote moved onto that seat, among the voters
  polled both before and after it (the target excepted). Credited to the speaker.
* `voting_entropy` (Werewolf Arena, appendix C): H = -sum p log2 p of the synthetic votes
  after each speech (abstentions left out); per speech, credited to the speaker, and per
  day as the series of the day's speeches. `voting_entropy_norm` divides H by log2 of the
  number of seats the voters could name, so that days with fewer living seats compare.

Each seat's contributions are (numerator, denominator) pairs, so a contestant's value is a
ratio of sums and a bootstrap over games can resample them; beside them, the chance level
of each contribution: what voters answering uniformly at random among their legal options
would have given (the entropy's by Monte Carlo, evaluation/chance.py).
"""

import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from autowerewolf.evaluation.chance import random_entropy, share, targets
from autowerewolf.evaluation.debate.beliefs import Contributions, add, add_beliefs
from autowerewolf.players.records import DecisionRecord
from autowerewolf.prompts.probes import PRE_VOTE, SPEECH_VOTES
from autowerewolf.rules.decisions import Option
from autowerewolf.rules.discussion import mentions
from autowerewolf.rules.events import Event, EventKind
from autowerewolf.rules.roles import Role


class SpeechVotes(TypedDict):
    speaker: str
    votes: dict[str, int]  # target (or "abstain") -> synthetic votes after the speech


class DebateRow(TypedDict):
    seats: Contributions
    entropy: dict[str, list[float | None]]  # day -> H after each discussion speech
    # day -> H / log2(seats the voters could name) after each speech, and the expected H
    # of random voters (row version 4)
    entropy_norm: dict[str, list[float | None]]
    entropy_chance: dict[str, list[float | None]]
    series: dict[str, list[SpeechVotes]]  # day -> synthetic votes after each speech


@dataclass
class Poll:
    """One probe round: every polled seat's answer, by seat."""

    key: str
    day: int
    answers: dict[str, DecisionRecord] = field(default_factory=dict)

    @property
    def votes(self) -> dict[str, str | None]:
        answers = self.answers.items()
        return {s: None if r.option == Option.ABSTAIN else r.option for s, r in answers}

    @property
    def after(self) -> str:
        """The seat of the decision the probe accompanied (`...:P07:<probe>`)."""
        return self.key.split(":")[-2]

    @property
    def choices(self) -> dict[str, tuple[str, ...]]:
        """Each polled seat's legal options."""
        return {s: r.options for s, r in self.answers.items()}


def polls(records: Sequence[DecisionRecord], probe: str) -> list[Poll]:
    """The game's rounds of one probe, in the order they were asked."""
    found: dict[str, Poll] = {}
    for r in records:
        if r.purpose == "probe" and r.step == probe:
            found.setdefault(r.key, Poll(r.key, r.day)).answers[r.seat] = r
    return list(found.values())


def entropy(votes: Mapping[str, str | None]) -> float | None:
    """Shannon entropy (bits) of the named targets; None when nobody named anyone."""
    counts = Counter(t for t in votes.values() if t is not None)
    total = sum(counts.values())
    if not total:
        return None
    return -sum(n / total * math.log2(n / total) for n in counts.values())


def names_of(events: Sequence[Event]) -> dict[str, str]:
    """Seat -> display name, from the game's start."""
    start = next(e for e in events if e.kind is EventKind.GAME_START)
    pairs = (part.strip().partition("=") for part in (start.text or "").split(","))
    return {seat: name for seat, _, name in pairs}


def first_rounds(events: Sequence[Event]) -> dict[int, tuple[dict[str, str | None], str | None]]:
    """Per day: the first-round exile ballots (voter -> target) and the sheriff then."""
    sheriff: str | None = None
    days: dict[int, tuple[dict[str, str | None], str | None]] = {}
    for e in events:
        if e.kind is EventKind.SHERIFF:
            sheriff = e.target if e.value in ("elected", "passed") else None
        elif e.kind is EventKind.BALLOT and e.value == "exile" and e.round == 1 and e.actor:
            days.setdefault(e.day, ({}, sheriff))[0][e.actor] = e.target
    return days


def _sheriff_influence(
    seats: Contributions, events: Sequence[Event], records: Sequence[DecisionRecord]
) -> None:
    finals = first_rounds(events)
    ballot_options = {
        (r.seat, r.day): r.options
        for r in records
        if r.purpose == "decision" and r.step == "exile_vote" and r.key.endswith(":r1")
    }
    for poll in polls(records, PRE_VOTE):
        ballots, sheriff = finals.get(poll.day, ({}, None))
        recommended = ballots.get(sheriff) if sheriff is not None else None
        if sheriff is None or poll.after != sheriff or recommended is None:
            continue  # no summary by a sheriff, or no recommendation to follow
        before = poll.votes
        voters = [v for v in ballots if v != sheriff and v in before]
        moved = sum(before[v] != ballots[v] and ballots[v] == recommended for v in voters)
        # A random final ballot follows the sheriff with 1/options, when that is a change.
        odds = [
            share(ballot_options.get((v, poll.day)), {recommended})
            if before[v] != recommended
            else 0.0
            for v in voters
        ]
        chance = None if None in odds else sum(o or 0.0 for o in odds)
        add(seats, sheriff, "sheriff_influence", moved, len(voters), chance)


def _speech_metrics(
    seats: Contributions, row: DebateRow, events: Sequence[Event], records: Sequence[DecisionRecord]
) -> None:
    speeches = {r.key: r for r in records if r.purpose == "decision" and r.step == "discussion"}
    names = names_of(events)
    previous: dict[int, Poll] = {}
    for poll in polls(records, SPEECH_VOTES):
        speaker, votes = poll.after, poll.votes
        day = str(poll.day)
        h = entropy(votes)
        nameable = len({t for opts in poll.choices.values() for t in targets(opts)})
        norm = h / math.log2(nameable) if h is not None and nameable > 1 else None
        row["entropy"].setdefault(day, []).append(h)
        row["entropy_norm"].setdefault(day, []).append(norm)
        tally = Counter(t or "abstain" for t in votes.values())
        row["series"].setdefault(day, []).append(SpeechVotes(speaker=speaker, votes=dict(tally)))
        odds = random_entropy(list(poll.choices.values()), poll.key) if h is not None else None
        row["entropy_chance"].setdefault(day, []).append(odds)
        if h is not None:
            add(seats, speaker, "voting_entropy", h, chance=odds)
            if norm is not None:
                norm_odds = None if odds is None else odds / math.log2(nameable)
                add(seats, speaker, "voting_entropy_norm", norm, chance=norm_odds)
        before = previous.get(poll.day)
        previous[poll.day] = poll
        speech = speeches.get(poll.key.rsplit(":", 1)[0])
        named = [s for s in mentions(speech.text, names) if s != speaker] if speech else []
        if before is None or not named:
            continue
        target = named[0]
        voters = [v for v in votes if v in before.votes and v != target]
        if voters:
            swung = sum(before.votes[v] != target and votes[v] == target for v in voters)
            # A random voter moves onto the target with 1/options, if it was elsewhere.
            moves = [
                share(poll.choices[v], {target}) if before.votes[v] != target else 0.0
                for v in voters
            ]
            chance = None if None in moves else sum(m or 0.0 for m in moves) / len(voters)
            add(seats, speaker, "vote_swing", swung / len(voters), chance=chance)


def debate_row(
    events: Sequence[Event], records: Sequence[DecisionRecord], roles: Mapping[str, Role]
) -> DebateRow | None:
    """The game's debate and belief measurements; None for a game played without probes."""
    if not any(r.purpose == "probe" for r in records):
        return None
    row = DebateRow(seats={}, entropy={}, entropy_norm={}, entropy_chance={}, series={})
    _sheriff_influence(row["seats"], events, records)
    _speech_metrics(row["seats"], row, events, records)
    add_beliefs(row["seats"], records, roles)
    return row


def speech_shares(series: Sequence[SpeechVotes]) -> tuple[list[str], dict[str, list[float]]]:
    """For a day's plot: the speakers in order, and each target's share after each speech."""
    targets = sorted({t for point in series for t in point["votes"]})
    shares: dict[str, list[float]] = defaultdict(list)
    for point in series:
        total = sum(point["votes"].values()) or 1
        for t in targets:
            shares[t].append(point["votes"].get(t, 0) / total)
    return [p["speaker"] for p in series], dict(shares)
