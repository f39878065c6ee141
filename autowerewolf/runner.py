"""Playing, resuming, inspecting and forking games saved in a database (SQLite or
PostgreSQL), one game at a time; `autowerewolf.batch` runs many at once."""

import logging
import re
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.runnables import RunnableConfig
from langgraph.types import Command, StateSnapshot

from autowerewolf.errors import GameError, StoreError
from autowerewolf.forking import forked_seating
from autowerewolf.graph.builder import RECURSION_LIMIT, build_graph
from autowerewolf.graph.context import GameContext
from autowerewolf.integrity import checked_game, checked_values
from autowerewolf.players.asker import human_action
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import PlayerKind, Seating
from autowerewolf.preflight import CheckedGame, check_game
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.events import Event
from autowerewolf.rules.state import GameState
from autowerewolf.storage.stores import open_store, thread_ids
from autowerewolf.storage.target import Database, database

GameStatus = Literal["finished", "waiting", "unfinished"]
# Ids appear in commands, file names and URLs: letters, digits and . _ : - only.
GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,99}")
ProgressHook = Callable[[GameState, list[Event]], None]
# Every seat of a 12-player vote may think at once.
MAX_CONCURRENCY = 16
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameRecord:
    """A saved game as read back from the database at one checkpoint."""

    game_id: str
    status: GameStatus
    game: GameState
    events: list[Event]
    records: list[DecisionRecord]
    seating: Seating
    interrupts: list[dict[str, Any]] = field(default_factory=list)


def status_of(snapshot: StateSnapshot) -> GameStatus:
    if snapshot.interrupts:
        return "waiting"
    # A crash after a task's writes can leave `next` empty while tasks remain (notes/langgraph.md).
    if snapshot.tasks or snapshot.next:
        return "unfinished"
    return "finished"


def record_of(game_id: str, snapshot: StateSnapshot) -> GameRecord:
    values = checked_values(snapshot.values)
    return GameRecord(
        game_id=game_id,
        status=status_of(snapshot),
        game=values["game"],
        events=values["events"],
        records=values["records"],
        seating=values["seating"],
        interrupts=[{"id": i.id, **i.value} for i in snapshot.interrupts],
    )


class Games:
    """The games of one database (a SQLite file or a PostgreSQL database).

    `readonly`: open the database read-only (readers never change it). The writing methods
    (`start`, `resume`, `fork`) then reopen it for writing when they are called, after the
    reads that check the request, so a refused request or a damaged game writes nothing.
    """

    def __init__(
        self,
        db: Database | str,
        *,
        create: bool = False,
        readonly: bool = False,
        context: GameContext | None = None,
    ):
        self.store = open_store(database(db), create=create, readonly=readonly)
        self.db = self.store.db
        self.graph = build_graph().compile(checkpointer=self.store.saver)
        self.context = context or GameContext()

    @property
    def readonly(self) -> bool:
        return self.store.readonly

    def writable(self) -> None:
        if self.readonly:
            self.store.writable()
            self.graph = build_graph().compile(checkpointer=self.store.saver)

    @contextmanager
    def _reading(
        self, game_id: str | None = None, newer: int = 0, ply: int | None = None
    ) -> Iterator[None]:
        """Whatever breaks while decoding a stored game becomes one line for the user.

        A damaged payload can fail anywhere in LangGraph's or pydantic's decoding, with any
        exception type, so everything is caught; the traceback goes to the log."""
        try:
            yield
        except (GameError, StoreError):
            raise
        except self.store.errors as err:
            first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            raise StoreError(f"{self.db} is not a usable game database ({first})") from None
        except Exception as err:
            log.warning("cannot read game %r in %s", game_id, self.db, exc_info=True)
            if game_id is None:
                raise StoreError(f"{self.db} is not a usable game database") from None
            where = f"at step {ply}" if ply is not None else self._damaged_step(game_id, newer)
            raise GameError(
                f"game {game_id!r} is damaged {where} ({type(err).__name__}); "
                "it cannot be read or resumed"
            ) from None

    def _damaged_step(self, game_id: str, newer: int) -> str:
        """Where the unreadable checkpoint (`newer` checkpoints before the latest) is: after
        the step held by the checkpoint just before it, when that one can be read."""
        query = (
            "SELECT checkpoint_id FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = '' "
            "ORDER BY checkpoint_id DESC LIMIT 1 OFFSET ?"
        )
        try:
            ((older_id,),) = self.store.query(query, (game_id, newer + 1))
            config = self.run_config(game_id)
            config["configurable"] |= {"checkpoint_ns": "", "checkpoint_id": older_id}
            return f"after step {checked_game(self.graph.get_state(config).values).ply}"
        except Exception:
            return "at a checkpoint with no readable step before it"

    def close(self) -> None:
        self.store.close()

    @staticmethod
    def run_config(game_id: str) -> RunnableConfig:
        return {
            "configurable": {"thread_id": game_id},
            "recursion_limit": RECURSION_LIMIT,
            "max_concurrency": MAX_CONCURRENCY,
        }

    def ids(self) -> list[str]:
        with self._reading():
            return thread_ids(self.store)

    def _snapshot(self, game_id: str) -> StateSnapshot:
        with self._reading(game_id):
            snapshot = self.graph.get_state(self.run_config(game_id))
        if snapshot.metadata is None or "game" not in snapshot.values:
            raise GameError(f"no game {game_id!r} in this database")
        return snapshot

    def peek(self, game_id: str) -> GameRecord | None:
        """The game's latest record, or None if it has no step saved: it does not exist, or
        it was stopped as it began (only its input is saved; `resume` begins it)."""
        with self._reading(game_id):
            snapshot = self.graph.get_state(self.run_config(game_id))
            if snapshot.metadata is None or "game" not in snapshot.values:
                return None
            return record_of(game_id, snapshot)

    def load(self, game_id: str) -> GameRecord:
        record = self.peek(game_id)
        if record is None:
            raise GameError(f"no game {game_id!r} in this database")
        return record

    def exists(self, game_id: str) -> bool:
        with self._reading(game_id):
            return self.graph.get_state(self.run_config(game_id)).metadata is not None

    def start(
        self, game_id: str, setup: GameSetup, seating: Seating, progress: ProgressHook | None = None
    ) -> GameRecord:
        # A bad game fails here, before anything is saved.
        return self.start_checked(game_id, check_game(setup, seating), progress)

    def start_checked(
        self, game_id: str, game: CheckedGame, progress: ProgressHook | None = None
    ) -> GameRecord:
        """Start a game `check_game` has already validated (the command line's `play`)."""
        check_game_id(game_id)
        if self.exists(game_id):
            raise GameError(f"game {game_id!r} already exists; use resume or another --game-id")
        return self._run(game_id, {"setup": game.setup, "seating": game.seating}, progress)

    def resume(
        self,
        game_id: str,
        answers: dict[str, Any] | None = None,
        progress: ProgressHook | None = None,
    ) -> GameRecord:
        record = self.peek(game_id)
        if record is None and self.exists(game_id) and not answers:
            return self._run(game_id, None, progress)  # stopped as it began: begin it
        record = self.load(game_id)
        if answers:
            _check_answers(record, answers)
        if record.status == "finished":
            return record
        if record.status == "waiting":
            if not answers:
                seats = ", ".join(s for i in record.interrupts for s in i["seats"])
                raise GameError(
                    f"game {game_id!r} waits for human seat(s) {seats}: pass their answers"
                )
            return self._run(game_id, Command(resume=answers), progress)
        return self._run(game_id, None, progress)

    def _run(self, game_id: str, payload: Any, progress: ProgressHook | None) -> GameRecord:
        self.writable()
        stream = self.graph.stream(
            payload,
            self.run_config(game_id),
            context=self.context,
            durability="sync",
            stream_mode="updates",
        )
        for update in stream:
            for node_update in update.values():
                if progress is not None and isinstance(node_update, dict) and "game" in node_update:
                    progress(node_update["game"], node_update.get("events", []))
        return self.load(game_id)

    def history(self, game_id: str) -> Iterator[StateSnapshot]:
        """Checkpoints with a game in them, oldest first."""
        self._snapshot(game_id)
        snapshots: list[StateSnapshot] = []
        history = self.graph.get_state_history(self.run_config(game_id))
        while True:
            with self._reading(game_id, newer=len(snapshots)):
                snapshot = next(history, None)
                if snapshot is not None and "game" in snapshot.values:
                    checked_game(snapshot.values)
            if snapshot is None:
                break
            snapshots.append(snapshot)
        return (s for s in reversed(snapshots) if "game" in s.values)

    def at_ply(self, game_id: str, ply: int) -> GameRecord:
        snapshot = self._snapshot_at(game_id, ply)
        with self._reading(game_id, ply=ply):
            return record_of(game_id, snapshot)

    def _snapshot_at(self, game_id: str, ply: int) -> StateSnapshot:
        """The first checkpoint holding step `ply`. Found through the checkpointer's list,
        whose tuples carry the plain channels (the game) without rebuilding the appended
        transcript of every checkpoint on the way; only the one found is read whole."""
        self._snapshot(game_id)
        checkpoints = self.graph.checkpointer.list(self.run_config(game_id))  # type: ignore[union-attr]
        first: str | None = None
        last: int | None = None
        newer = 0
        failed: Exception | None = None
        try:
            while True:
                try:
                    found = next(checkpoints, None)
                    values = None if found is None else found.checkpoint["channel_values"]
                    game = checked_game(values) if values and "game" in values else None
                except Exception as err:  # reported below, once the saver's lock is free
                    failed = err
                    break
                if found is None:
                    break
                newer += 1
                if game is None:
                    continue
                last = game.ply if last is None else last
                if game.ply < ply:
                    break
                if game.ply == ply:
                    first = found.config["configurable"]["checkpoint_id"]
        finally:
            if isinstance(checkpoints, Generator):  # it holds the saver's lock until closed
                checkpoints.close()
        if failed is not None:
            with self._reading(game_id, newer=newer):
                raise failed
        if first is None:
            raise GameError(f"game {game_id!r} has no step {ply} (steps 0..{last})")
        config = self.run_config(game_id)
        config["configurable"] = {**config["configurable"], "checkpoint_id": first}
        with self._reading(game_id, ply=ply):
            return self.graph.get_state(config)

    def fork(
        self,
        game_id: str,
        ply: int,
        new_id: str,
        overrides: dict[str, str] | None = None,
        player_seed: int | None = None,
        into: "Games | None" = None,
        seats: dict[str, PlayerKind] | None = None,
    ) -> GameRecord:
        """A new game continuing from step `ply` of `game_id`; the original is not touched.

        `overrides` maps seats to the answer they give to the decision pending at that step;
        `seats` changes the kind of player at some seats. The new game is written `into`
        another database when given (the source may then be opened read-only).
        """
        check_game_id(new_id)
        target = into or self
        if target.exists(new_id):
            raise GameError(f"game {new_id!r} already exists; choose another --new-id")
        source = self._snapshot_at(game_id, ply)
        record = record_of(game_id, source)
        seating = forked_seating(record.game, record.seating, overrides or {}, player_seed)
        if seats:
            seating = seating.model_copy(update={"seats": {**seating.seats, **seats}})
        # The fork must resume at the same node: re-apply the state as the node that wrote it.
        if ply == 0:
            as_node = "setup"
        else:
            with self._reading(game_id):
                parent = (
                    self.graph.get_state(source.parent_config) if source.parent_config else None
                )
            as_node = parent.next[0] if parent and parent.next else "setup"
        values = {
            "setup": source.values.get("setup") or GameSetup(),
            "seating": seating,
            "game": record.game,
            "events": record.events,
            "records": record.records,
        }
        target.writable()
        target.graph.update_state(target.run_config(new_id), values, as_node=as_node)
        return target.load(new_id)


def check_game_id(game_id: str) -> None:
    if not GAME_ID.fullmatch(game_id):
        raise GameError(
            f"game id {game_id[:40]!r} is not allowed: 1-100 letters, digits or . _ : - "
            "(starting with a letter or digit)"
        )


def _check_answers(record: GameRecord, answers: dict[str, Any]) -> None:
    """Answers for waiting human seats must name a waiting seat and one of its options."""
    waiting = {seat: prompt for i in record.interrupts for seat, prompt in i["seats"].items()}
    if not waiting:
        raise GameError(f"game {record.game_id!r} is not waiting for any answer")
    strangers = sorted(set(answers) - set(waiting))
    if strangers:
        raise GameError(
            f"{strangers[0]} is not waiting for an answer (waiting: {', '.join(waiting)})"
        )
    missing = sorted(set(waiting) - set(answers))
    if missing:
        raise GameError(f"every waiting seat answers at once: missing {', '.join(missing)}")
    for seat, answer in answers.items():
        try:  # read as the graph will read it (players/asker.py)
            human_action(waiting[seat]["options"], answer)
        except ValueError as err:
            raise GameError(f"{seat}: {err}") from None
