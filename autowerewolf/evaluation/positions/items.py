"""Decision positions (WereBench's decision evaluation): the day exile votes of the winning
camp, each as a self-contained item a model can be asked again.

An item holds the exact view of the voting seat at that checkpoint (what its prompt was
built from: nothing else), the rendered transcript of that view for readers, and apart
from it an `answer_key` that is never shown to a model: the seat's own vote (the
reference for Vote Alignment), every seat's true role and the living opponents (for
Opponent-role Inference), the winner and the item's provenance. Schema: docs/evaluation.md.
"""

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from autowerewolf.backends.simulated import REASONING as SIMULATED_REASONING
from autowerewolf.errors import SettingsError
from autowerewolf.evaluation.saved import SavedGames, finished_games
from autowerewolf.players.records import DecisionRecord
from autowerewolf.prompts.render import lines
from autowerewolf.rules.engine import pending_decision
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.state import Step
from autowerewolf.rules.views import SeatView, seat_view
from autowerewolf.runner import GameRecord
from autowerewolf.storage.target import source_name

SCHEMA = "autowerewolf.positions/1"


class Source(BaseModel):
    """Where an item comes from. Part of the answer key: a game id may name its seed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    database: str  # file name only
    game_id: str
    ply: int
    key: str  # the decision, e.g. d2:exile_vote:r1
    seat: str
    player: str  # kind of the reference seat's player (llm, simulated, heuristic, human...)
    model: str | None
    agent: str | None
    contestant: str | None


class AnswerKey(BaseModel):
    """Never shown to the model under test: only the scorer reads it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reference_vote: str  # what the winning-camp seat voted
    roles: dict[str, str]  # every seat's true role
    opponents: tuple[str, ...]  # living seats of the other camp (the OI truth)
    winner: str
    mvp: bool  # the reference seat is its camp's MVP (docs/evaluation.md)
    source: Source


class PositionItem(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    schema_: str = Field(SCHEMA, alias="schema")
    id: str  # opaque: a hash of the provenance
    view: SeatView  # exactly what the seat could know, with its legal options
    transcript: tuple[str, ...]  # the view's events as rendered for that seat
    answer_key: AnswerKey

    @property
    def round(self) -> int:
        key = self.view.decision_key or ""
        return int(key.rsplit(":r", 1)[1]) if ":r" in key else 1


SIMULATED = "simulated"  # an LLM seat answered by the simulated backend (a test model)
ANY_KIND = "all"  # as a reference kind: every kind of player
# Whose votes are references by default: not random play, nor the simulated model's.
NOT_REFERENCES = frozenset({"random", SIMULATED})


def player_kind(record: DecisionRecord) -> str:
    """The kind of player behind a ballot; an LLM seat on the simulated backend (whose
    records carry its fixed reasoning line) is `simulated`, not a model's judgement."""
    if record.player == "llm" and record.reasoning == SIMULATED_REASONING:
        return SIMULATED
    return record.player


@dataclass
class Kept:
    """How many winning-camp ballots each filter kept, in the order they apply."""

    ballots: int = 0
    steps: list[tuple[str, int]] = field(default_factory=list)
    dropped_kinds: Counter[str] = field(default_factory=Counter)  # by --reference

    def keep(self, name: str, passed: bool) -> bool:
        for i, (step, count) in enumerate(self.steps):
            if step == name:
                self.steps[i] = (step, count + passed)
                return passed
        self.steps.append((name, int(passed)))
        return passed


@dataclass(frozen=True)
class Filters:
    """Which votes become items; an empty set means any. `references`: the kinds of player
    whose ballots count as references (None: every kind but random and simulated; "all":
    every kind)."""

    boards: frozenset[str] = frozenset()
    camps: frozenset[str] = frozenset()
    days: frozenset[int] = frozenset()
    references: frozenset[str] | None = None
    mvp_only: bool = False

    def keep(self, board: str, camp: str, record: DecisionRecord, kept: Kept) -> bool:
        kind = player_kind(record)
        if self.references is None:
            reference = kind not in NOT_REFERENCES
        else:
            reference = ANY_KIND in self.references or kind in self.references
        if not reference:
            kept.dropped_kinds[kind] += 1
        return (
            kept.keep("--reference", reference)
            and kept.keep("--board", not self.boards or board in self.boards)
            and kept.keep("--camp", not self.camps or camp in self.camps)
            and kept.keep("--day", not self.days or record.day in self.days)
        )


def exile_ballots(records: Iterable[DecisionRecord]) -> list[DecisionRecord]:
    return [r for r in records if r.purpose == "decision" and r.step == Step.EXILE_VOTE]


def mvp_seat(record: GameRecord) -> str | None:
    """The winning camp's most valuable voter: most ballots for an opponent who was exiled
    that day, then most ballots at opponents, then the latest death (alive counts as
    after the last day), then the lowest seat id. None for a draw."""
    game = record.game
    if game.winner is None:
        return None
    camp = {s.id: s.camp for s in game.seats}
    exiled = {
        (e.day, e.target)
        for e in record.events
        if e.kind is EventKind.EXILE and e.target is not None
    }
    decisive: Counter[str] = Counter()
    aimed: Counter[str] = Counter()
    for ballot in exile_ballots(record.records):
        if camp.get(ballot.option) not in (None, camp[ballot.seat]):
            aimed[ballot.seat] += 1
            decisive[ballot.seat] += (ballot.day, ballot.option) in exiled
    winners = [s for s in game.seats if s.camp is game.winner]
    best = max(
        winners,
        key=lambda s: (
            decisive[s.id],
            aimed[s.id],
            s.death_day if s.death_day is not None else game.day + 1,
            -int(s.id[1:]),
        ),
    )
    return best.id


def item_id(database: str, game_id: str, ply: int, seat: str) -> str:
    digest = hashlib.blake2b(f"{database}:{game_id}:{ply}:{seat}".encode(), digest_size=8)
    return digest.hexdigest()


def game_items(
    database: str, games: SavedGames, record: GameRecord, filters: Filters, kept: Kept
) -> list[PositionItem]:
    """The items of one finished game, in the order of its checkpoints; `kept` counts
    what each filter let through."""
    game = record.game
    if game.winner is None:
        return []
    mvp = mvp_seat(record)
    camps = {s.id: s.camp for s in game.seats}
    wanted: dict[str, list[DecisionRecord]] = {}
    for ballot in exile_ballots(record.records):
        if camps[ballot.seat] is not game.winner:
            continue
        kept.ballots += 1
        if filters.keep(game.config.board, game.winner.value, ballot, kept) and kept.keep(
            "--mvp", not filters.mvp_only or ballot.seat == mvp
        ):
            wanted.setdefault(ballot.key, []).append(ballot)
    roles = {s.id: s.role.value for s in game.seats}
    items = []
    for config, state in games.states(record.game_id):
        decision = pending_decision(state)
        if decision is None or decision.key not in wanted:
            continue
        events = games.values_at(config).get("events", [])
        for ballot in wanted.pop(decision.key):
            view = seat_view(state, events, ballot.seat, decision)
            living = [p.seat for p in view.players if p.alive and p.seat != ballot.seat]
            source = Source(
                database=database,
                game_id=record.game_id,
                ply=state.ply,
                key=decision.key,
                seat=ballot.seat,
                player=player_kind(ballot),
                model=ballot.model,
                agent=ballot.agent,
                contestant=record.seating.contestants.get(ballot.seat),
            )
            key = AnswerKey(
                reference_vote=ballot.option,
                roles=roles,
                opponents=tuple(s for s in living if camps[s] is not view.camp),
                winner=game.winner.value,
                mvp=ballot.seat == mvp,
                source=source,
            )
            items.append(
                PositionItem(
                    id=item_id(database, record.game_id, state.ply, ballot.seat),
                    view=view,
                    transcript=tuple(lines(view.events, view.seat)),
                    answer_key=key,
                )
            )
    return items


def build_items(source: Path, filters: Filters, kept: Kept | None = None) -> Iterator[PositionItem]:
    """Items from every finished game of a database or a folder of databases."""
    kept = kept or Kept()
    for db, games, record in finished_games(source):
        yield from game_items(source_name(db), games, record, filters, kept)


def write_items(items: Iterable[PositionItem], out: Path) -> int:
    out.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with out.open("w", encoding="utf-8") as f:
        for item in items:
            f.write(item.model_dump_json(by_alias=True) + "\n")
            count += 1
    return count


def read_items(path: Path) -> list[PositionItem]:
    if not path.is_file():
        raise SettingsError(f"no items file at {path}")
    items = []
    with path.open(encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                if data.get("schema") != SCHEMA:
                    raise SettingsError(
                        f"{path}:{number}: schema {data.get('schema')!r} is not {SCHEMA!r}"
                    )
                items.append(PositionItem.model_validate(data))
            except (json.JSONDecodeError, ValidationError, AttributeError) as err:
                raise SettingsError(f"{path}:{number}: not a position item ({err})") from None
    return items
