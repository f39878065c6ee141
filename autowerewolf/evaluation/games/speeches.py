"""Speeches and wolf messages out of character, judged from a saved game (docs/agents.md,
"A second look"; prompts/second_look.py): an apology or a refusal, a copy of the prompt (a
run of COPY_RUN_WORDS words of the rules, roles, decisions or strategies, or of the
record's own prompt), or structured acts (`data["acts"]`) against what the seat knew on
the record's day: its Seer results and its Witch's saves, read from the game's events. An
answer resting on grounds (prompts/grounds.py) is judged by its acts alone.

The report's result rows (facts.py) and the embedded-model benchmark's table
(benchmarks/embedded_models.py) both judge with `out_of_character`.
"""

from collections.abc import Mapping, Sequence

from autowerewolf.players.records import DecisionRecord
from autowerewolf.prompts.second_look import speech_out_of_character
from autowerewolf.rules.events import Event, EventKind
from autowerewolf.rules.roles import Role


def known_then(events: Sequence[Event], seat: str, day: int) -> tuple[dict[str, str], list[str]]:
    """What `seat` had seen by `day`: its Seer results (checked seat -> camp) and the seats
    its Witch saved."""
    mine = [e for e in events if e.seat == seat and e.day <= day]
    checks = {e.target: e.value or "" for e in mine if e.kind is EventKind.SEER_RESULT and e.target}
    saved = [e.target for e in mine if e.kind is EventKind.WITCH_CURE and e.target]
    return checks, saved


def out_of_character(events: Sequence[Event], role: Role, record: DecisionRecord) -> bool:
    """Whether a saved speech or message of a seat holding `role` was out of character,
    given the game's `events` (False for a record without text)."""
    checks, saved = known_then(events, record.seat, record.day)
    return speech_out_of_character(record, role, checks, saved)


def judged(record: DecisionRecord) -> bool:
    """Whether a record counts: an LLM seat's decision with text (a speech, a wolf message,
    last words...). Rule-based and human seats are not judged: a random player writes
    nothing, so the rate has no chance level."""
    return record.player == "llm" and record.purpose == "decision" and bool(record.text)


def speech_tallies(
    events: Sequence[Event], records: Sequence[DecisionRecord], roles: Mapping[str, Role]
) -> dict[str, list[int]]:
    """Seat -> [its judged texts out of character, its judged texts], for the seats with
    any."""
    tallies: dict[str, list[int]] = {}
    for record in records:
        if judged(record):
            cell = tallies.setdefault(record.seat, [0, 0])
            cell[0] += int(out_of_character(events, roles[record.seat], record))
            cell[1] += 1
    return tallies
