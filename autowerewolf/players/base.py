"""The player interface, for our players and for plug-in agents.

A player is asked one question at a time and sees only its seat's view: its role, its
private results, the public facts, the events it may see, and its own legal options. It
gets a seed of its own (derived from the player seed, never the game's seed, from which
the deal could be recomputed) and its own earlier decision records (its reasoning and any
notes it kept), which live in the game's checkpoints so a resumed or forked game continues
with the same memory. It never gets the game state, the configuration or another seat's
records. See docs/architecture.md ("Players").

The asynchronous runner (`batch`, `tournament`) awaits `adecide` when a player has one;
a player with `decide` only is run in a worker thread there, so it may block.
"""

import asyncio
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from autowerewolf.players.records import DecisionRecord, Purpose
from autowerewolf.rules.decisions import Action
from autowerewolf.rules.views import SeatView


@dataclass(frozen=True)
class DecisionRequest:
    """One question to one seat.

    A game decision (`purpose == "decision"`): `view.step` is the rules' step, `view.options`
    the seat's legal options, `view.decision_key` the decision's key. A probe (`"probe"`)
    has the same shape: `view.step` is the probe's name, `view.options` its choices (empty
    for a free-form probe such as role estimates, answered in the record's `data`); its
    answer is recorded and never applied or shown to any player.
    """

    view: SeatView  # what the seat may know, with its legal options and the question's key
    seed: int  # the seat's own seed, for any randomness the player needs
    history: tuple[DecisionRecord, ...] = field(default=())  # the seat's own earlier records
    purpose: Purpose = "decision"

    @property
    def seat(self) -> str:
        return self.view.seat

    @property
    def step(self) -> str:
        assert self.view.step is not None, "a request always names its step"
        return self.view.step

    @property
    def key(self) -> str:
        assert self.view.decision_key is not None, "a request always names its decision"
        return self.view.decision_key

    @property
    def options(self) -> tuple[str, ...]:
        return self.view.options


@dataclass(frozen=True)
class Answer:
    """The chosen action, the record of how it was chosen, and any further records the player
    wants kept with the game (a module's intermediate output: estimates, a strategy...)."""

    action: Action
    record: DecisionRecord
    notes: tuple[DecisionRecord, ...] = ()


@runtime_checkable
class Player(Protocol):
    """Anything with a `kind` and a `decide` method can sit at the table."""

    kind: str

    def decide(self, request: DecisionRequest) -> Answer: ...


@runtime_checkable
class AsyncPlayer(Player, Protocol):
    """A player that can also be awaited: it waits (on a model) without holding a thread."""

    async def adecide(self, request: DecisionRequest) -> Answer: ...


class DecidesAtOnce:
    """For players that never wait (no I/O): awaiting one just runs `decide`, which is
    cheaper than a worker thread."""

    def decide(self, request: DecisionRequest) -> Answer:
        raise NotImplementedError

    async def adecide(self, request: DecisionRequest) -> Answer:
        return self.decide(request)


async def decide_async(player: Player, request: DecisionRequest) -> Answer:
    if isinstance(player, AsyncPlayer):
        return await player.adecide(request)
    return await asyncio.to_thread(player.decide, request)


def plain_record(
    request: DecisionRequest, kind: str, action: Action, **extra: object
) -> DecisionRecord:
    return DecisionRecord(
        seat=request.seat,
        player=kind,
        purpose=request.purpose,
        day=request.view.day,
        step=request.step,
        key=request.key,
        options=request.options,
        option=action.option,
        text=action.text,
        **extra,
    )
