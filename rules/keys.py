"""The grammar of the game's keys, written once: decision keys, probe keys and draw keys.

    decision key := <phase><day> ":" <step> [ ":" <part> ]
        phase    := "n" (a night decision) | "d" (by day; chain decisions included)
        part     := "r" <round>            a simultaneous decision's round (`d1:exile_vote:r2`)
                  | <seat>                 one seat's turn of a sequential decision
                                           (`n1:wolves:P03`, `d1:exile_roll_call:P05`)
                  | "t" <turn> ":" <seat>  a seat's speech that may come twice a day
                                           (`d1:discussion:t3:P05`: the day's third)
    probe key    := <decision key> ":" <probe>     (`d2:discussion:P07:pre_vote`)
    draw key     := <phase><day> ":" <draw> [ ":r" <round> ]   (`d2:exile_no_vote:r2`)

Numbers are written without leading zeros, seats as `P01`..`P99`. The engine formats every
key it produces with this module (`engine.decision_key`), scripts and preflight parse them
with it, and agents and evaluation read them with it. Whether a key names a step of the
table, in the shape that step is keyed by, is the table's fact: `steps.check_key`; scripts
call `engine.parse_decision_key`, which does both.
"""

import re
from dataclasses import dataclass


class BadKey(ValueError):
    """Text that is not a key of this grammar; the message says why, in one line."""


_NUMBER = r"[1-9]\d{0,3}"
_SEAT = r"P\d\d"
_NAME = r"[a-z][a-z0-9_]*"
_DECISION = re.compile(
    rf"(?P<phase>[nd])(?P<day>{_NUMBER}):(?P<step>{_NAME})"
    rf"(?::(?:r(?P<round>{_NUMBER})|t(?P<turn>{_NUMBER}):(?P<tseat>{_SEAT})|(?P<seat>{_SEAT})))?"
)
_PROBE = re.compile(rf"(?P<decision>.+):(?P<probe>{_NAME})")
_DRAW = re.compile(
    rf"(?P<phase>[nd])(?P<day>{_NUMBER}):(?P<name>{_NAME})(?::r(?P<round>{_NUMBER}))?"
)


def _int(text: str | None) -> int | None:
    return None if text is None else int(text)


@dataclass(frozen=True)
class DecisionKey:
    """One decision of one game. `str(key)` formats it; `parse_key` reads it back."""

    night: bool  # n<day> (a night decision) or d<day>
    day: int
    step: str
    round: int | None = None  # a simultaneous decision's round
    seat: str | None = None  # the seat whose turn it is, for a sequential decision
    turn: int | None = None  # the day's n-th speech, where a seat may speak twice a day

    def __post_init__(self) -> None:
        if self.day < 1:
            raise BadKey(f"a key's day is 1 or more, not {self.day}")
        if self.round is not None and (self.seat is not None or self.turn is not None):
            raise BadKey("a key names a round or a seat, not both")
        if self.turn is not None and self.seat is None:
            raise BadKey("a key with a turn names its seat too")

    def __str__(self) -> str:
        text = f"{'n' if self.night else 'd'}{self.day}:{self.step}"
        if self.round is not None:
            return f"{text}:r{self.round}"
        if self.turn is not None:
            return f"{text}:t{self.turn}:{self.seat}"
        if self.seat is not None:
            return f"{text}:{self.seat}"
        return text


@dataclass(frozen=True)
class DrawKey:
    """One of the moderator's draws (docs/scripts.md, "Draws")."""

    night: bool
    day: int
    name: str
    round: int | None = None  # a PK revote's draw (`:r2`)

    def __str__(self) -> str:
        text = f"{'n' if self.night else 'd'}{self.day}:{self.name}"
        return text if self.round is None else f"{text}:r{self.round}"


def parse_key(text: str) -> DecisionKey:
    """The decision key `text`, by the grammar alone (steps.check_key checks it against the
    step table)."""
    found = _DECISION.fullmatch(text)
    if found is None:
        raise BadKey(
            f"{text!r} is not a decision key (n<night>:<step>[:<seat>] or "
            "d<day>:<step>[:<seat>|:r<round>|:t<turn>:<seat>]; see docs/scripts.md)"
        )
    return DecisionKey(
        night=found["phase"] == "n",
        day=int(found["day"]),
        step=found["step"],
        round=_int(found["round"]),
        seat=found["seat"] or found["tseat"],
        turn=_int(found["turn"]),
    )


def probe_key(decision: str | DecisionKey, probe: str) -> str:
    """The key of probe `probe` asked around `decision` (nodes/probes.py)."""
    return f"{decision}:{probe}"


def parse_probe_key(text: str) -> tuple[DecisionKey, str]:
    """The decision a probe accompanied, and the probe's name."""
    found = _PROBE.fullmatch(text)
    if found is None:
        raise BadKey(f"{text!r} is not a probe key (<decision key>:<probe>)")
    return parse_key(found["decision"]), found["probe"]


def draw_key(night: bool, day: int, name: str, round_: int | None = None) -> str:
    return str(DrawKey(night, day, name, round_))


def parse_draw_key(text: str) -> DrawKey:
    found = _DRAW.fullmatch(text)
    if found is None:
        raise BadKey(f"{text!r} is not a draw key (n<night>:<draw> or d<day>:<draw>[:r<round>])")
    return DrawKey(
        night=found["phase"] == "n",
        day=int(found["day"]),
        name=found["name"],
        round=_int(found["round"]),
    )
