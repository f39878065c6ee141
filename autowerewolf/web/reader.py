"""Reading saved games for the web app, read-only, from the game database: the games this
server plays and those the command line wrote, alike.

Blocking (sqlite3): call it from `def` routes or `asyncio.to_thread`, never on the event loop.
"""

import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langgraph.checkpoint.sqlite import SqliteSaver

from autowerewolf.errors import GameError, StoreError
from autowerewolf.graph.builder import build_graph
from autowerewolf.graph.context import GameContext
from autowerewolf.graph.state import events_of, game_of, records_of
from autowerewolf.players.records import DecisionRecord
from autowerewolf.rules.events import Event
from autowerewolf.rules.state import GameState
from autowerewolf.runner import GameRecord, Games, GameStatus
from autowerewolf.storage.stores import SqliteStore
from autowerewolf.store import BUSY_TIMEOUT_S, serializer

KEPT_GAMES = 16  # games whose newest record, and finished games whose steps, stay in memory


@dataclass(frozen=True)
class Step:
    """What one step of a game produced: the game after it, and what it added."""

    game: GameState
    events: tuple[Event, ...]
    records: tuple[DecisionRecord, ...]
    saved_at: str | None  # when the checkpoint holding this step was written (ISO time)


@dataclass(frozen=True)
class GameRow:
    """A game as the lobby lists it."""

    game_id: str
    board: str
    seed: int
    status: GameStatus
    day: int
    steps: int
    winner: str | None
    win_reason: str | None
    seats: dict[str, str]  # player kind per seat
    started: str | None = None  # when its first checkpoint was written (ISO time)

    def public(self) -> dict[str, Any]:
        """What anyone allowed to see the game may read: no seed (it recomputes the deal),
        and not that it waits for a human (a human asked at night holds a night role)."""
        return {
            "game": self.game_id,
            "board": self.board,
            "status": "running" if self.status == "waiting" else self.status,
            "day": self.day,
            "winner": self.winner,
            "win_reason": self.win_reason,
            "seats": self.seats,
            "started": self.started,
        }


class LiveReadStore(SqliteStore):
    """A read-only store on a database the server keeps writing: a plain read-only
    connection that waits for the writer, never the immutable read of a file at rest."""

    def __init__(self, db: Path) -> None:
        if not db.is_file():
            raise StoreError(f"no game database at {db}")
        conn = sqlite3.connect(
            f"file:{db}?mode=ro", uri=True, check_same_thread=False, timeout=BUSY_TIMEOUT_S
        )
        self.db, self.readonly = db, True
        self.saver = SqliteSaver(conn, serde=serializer())
        # The server created the tables; setup() would try to write.
        self.saver.is_setup = True


class ReadOnlyGames(Games):
    """The runner's view of a database (load, ids, status) on a read-only connection, so
    the web app can never change a saved game behind the server's back."""

    def __init__(self, db: Path) -> None:
        self.store = LiveReadStore(db)
        self.db = db
        self.graph = build_graph().compile(checkpointer=self.store.saver)
        self.context = GameContext()


class GameReader:
    """Thread-safe reads of one database. A finished game never changes: its lobby row and
    the steps of the last few opened are kept."""

    def __init__(self, db: Path) -> None:
        self.games = ReadOnlyGames(db)
        self._rows: dict[str, GameRow] = {}
        self._steps: OrderedDict[str, list[Step]] = OrderedDict()
        # The newest record read of each game, by the checkpoint it was read at: a seat's
        # page asks its header and its question together at each turn, and a record costs
        # a read of the whole game.
        self._records: OrderedDict[str, tuple[tuple[str, int] | None, GameRecord | None]] = (
            OrderedDict()
        )
        self._reading: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()

    def close(self) -> None:
        self.games.close()

    def ids(self) -> list[str]:
        return self.games.ids()

    def load(self, game_id: str) -> GameRecord:
        record = self.peek(game_id)
        if record is None:
            raise GameError(f"no game {game_id!r} in this database")
        return record

    def peek(self, game_id: str) -> GameRecord | None:
        """`Games.peek`, read once per new checkpoint (requests that ask at once share it)."""
        with self._lock:
            reading = self._reading.setdefault(game_id, threading.Lock())
        with reading:
            head = self.head(game_id)
            with self._lock:
                cached = self._records.get(game_id)
            if cached is not None and cached[0] == head:
                return cached[1]
            record = self.games.peek(game_id)
            with self._lock:
                self._records[game_id] = (head, record)
                self._records.move_to_end(game_id)
                if len(self._records) > KEPT_GAMES:
                    self._records.popitem(last=False)
            return record

    def row(self, game_id: str) -> GameRow:
        row = self.listed(game_id)
        if row is None:
            raise GameError(f"no game {game_id!r} in this database")
        return row

    def listed(self, game_id: str) -> GameRow | None:
        """The game's lobby row; None while it has no step saved (it is starting, or it was
        stopped as it began)."""
        with self._lock:
            cached = self._rows.get(game_id)
        if cached is not None:
            return cached
        record = self.peek(game_id)
        if record is None:
            return None
        game = record.game
        row = GameRow(
            game_id=game_id,
            board=game.config.board,
            seed=game.config.seed,
            status=record.status,
            day=game.day,
            steps=game.ply,
            winner=game.winner.value if game.winner else None,
            win_reason=game.win_reason,
            seats={s.id: record.seating.kind_of(s.id) for s in game.seats},
            started=self.started(game_id),
        )
        if row.status == "finished":
            with self._lock:
                self._rows[game_id] = row
        return row

    def started(self, game_id: str) -> str | None:
        """When the game's first checkpoint was written (checkpoint ids grow with time)."""
        saver = self.games.store.saver
        if not isinstance(saver, SqliteSaver):
            return None
        with saver.cursor() as cursor:
            cursor.execute(
                "SELECT checkpoint_id FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ''"
                " ORDER BY checkpoint_id LIMIT 1",
                (game_id,),
            )
            first = cursor.fetchone()
        if first is None:
            return None
        config = Games.run_config(game_id)
        config["configurable"]["checkpoint_id"] = first[0]
        found = saver.get_tuple(config)
        return str(found.checkpoint["ts"]) if found is not None else None

    def latest(self, game_id: str) -> GameState | None:
        """The game at its newest checkpoint (None before its first step), without the
        transcript: cheap."""
        newest = self.games.store.saver.get_tuple(Games.run_config(game_id))
        if newest is None or "game" not in newest.checkpoint["channel_values"]:
            return None
        return game_of(newest.checkpoint["channel_values"])

    def head(self, game_id: str) -> tuple[str, int] | None:
        """The newest checkpoint and how many writes it has: a cheap "did anything
        change?" for games run by another process."""
        latest = self.games.store.saver.get_tuple(Games.run_config(game_id))
        if latest is None:
            return None
        return latest.checkpoint["id"], len(latest.pending_writes or ())

    def steps(self, game_id: str) -> list[Step]:
        """Every step of the game, oldest first."""
        with self._lock:
            if game_id in self._steps:
                self._steps.move_to_end(game_id)
                return self._steps[game_id]
        steps = self._read_steps(game_id)
        if steps and steps[-1].game.is_over:
            with self._lock:
                self._steps[game_id] = steps
                if len(self._steps) > KEPT_GAMES:
                    self._steps.popitem(last=False)
        return steps

    def _read_steps(self, game_id: str) -> list[Step]:
        """Every step of the game, read from the database.

        Read from the checkpoint list and the writes each step left on it: a delta channel
        stores only what a step added, so this is linear in the game's length. (Rebuilding
        the full state of every checkpoint, as `Games.history` does, is quadratic: 4 s
        instead of 0.1 s for a 76-step game.)
        """
        saver = self.games.store.saver
        config = Games.run_config(game_id)
        tuples = list(saver.list({"configurable": config["configurable"]}))[::-1]
        if not tuples:
            raise GameError(f"no game {game_id!r} in this database")
        steps: list[Step] = []
        # A fork's first checkpoint already holds the game it was copied from.
        first = self.games.graph.get_state(tuples[0].config).values
        if "game" in first:
            steps.append(
                Step(
                    game=game_of(first),
                    events=tuple(events_of(first)),
                    records=tuple(records_of(first)),
                    saved_at=tuples[0].checkpoint["ts"],
                )
            )
        for index, checkpoint in enumerate(tuples):
            writes: dict[str, list[Any]] = {}
            for _task, channel, value in checkpoint.pending_writes or ():
                writes.setdefault(channel, []).append(value)
            if "game" not in writes:
                continue  # an interrupted or still running step, or the final node
            after = tuples[index + 1].checkpoint["ts"] if index + 1 < len(tuples) else None
            # Values written through the API arrive as plain JSON: the helpers parse them.
            written = {
                "game": writes["game"][-1],
                "events": [e for batch in writes.get("events", ()) for e in batch],
                "records": [r for batch in writes.get("records", ()) for r in batch],
            }
            steps.append(
                Step(
                    game=game_of(written),
                    events=tuple(events_of(written)),
                    records=tuple(records_of(written)),
                    saved_at=after,
                )
            )
        return steps
