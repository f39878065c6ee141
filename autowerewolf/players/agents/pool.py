"""The experience pool (WereWolf-Plus, section 3.1): a SQLite file of its own beside the
game database (never inside it), holding each `experience` seat's situations at exile votes
with what it did and how its side fared; retrieval by BM25 similarity (`bm25s`) among the
situations of the same role, then the most rewarded first.

A pool is written only after a game has ended (`harvest`), and only if it is not frozen:
a frozen pool (the default inside tournaments) keeps games independent of each other.
Readers open it read-only. Similarity: BM25 was measured against the all-MiniLM-L6-v2
sentence embedding (benchmarks/experience_similarity.py; docs/agents.md)."""

import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autowerewolf.players.records import DecisionRecord
from autowerewolf.prompts.experience import EXPERIENCE, action_text, outcome_text
from autowerewolf.rules.events import Event, EventKind
from autowerewolf.rules.roles import camp_of
from autowerewolf.storage.target import Database

SCHEMA = """
CREATE TABLE IF NOT EXISTS experiences (
    game_id TEXT NOT NULL,
    seat TEXT NOT NULL,
    key TEXT NOT NULL,
    role TEXT NOT NULL,
    situation TEXT NOT NULL,
    action TEXT NOT NULL,
    outcome TEXT NOT NULL,
    reward REAL NOT NULL,
    PRIMARY KEY (game_id, seat, key)
)
"""
TOP_K = 3
# Scores are scaled by the best match: a situation at least half as similar as the best
# one is a candidate (WereWolf-Plus filters cosine similarities at 0.5).
THRESHOLD = 0.5


@dataclass(frozen=True)
class Experience:
    situation: str
    action: str
    outcome: str
    reward: float  # +1 the seat's side won, -1 it lost, 0 no winner


# Games kept in PostgreSQL have no folder: their default pool is here, in the current one.
POSTGRES_POOL = Path("autowerewolf-experience.db")


def default_pool(db: Database) -> Path:
    """The default pool file of a game database: beside a SQLite file, never inside it."""
    return db.with_name(f"{db.stem}-experience.db") if isinstance(db, Path) else POSTGRES_POOL


@dataclass(frozen=True)
class PoolConfig:
    """Where a game's experience pool is, and whether games may add to it."""

    path: Path
    frozen: bool = False


def pool_config(db: Database, path: Path | None = None, frozen: bool = False) -> PoolConfig:
    """The pool a game database's `experience` seats read: `path`, else its default one."""
    return PoolConfig(path or default_pool(db), frozen)


class ExperiencePool:
    """Live access to a pool file; shared by the seats of a process."""

    def __init__(self, config: PoolConfig) -> None:
        self.config = config
        self._lock = threading.Lock()

    def _rows(self, role: str) -> list[Experience]:
        if not self.config.path.exists():
            return []
        conn = sqlite3.connect(f"file:{self.config.path}?mode=ro", uri=True)
        try:
            query = (
                "SELECT situation, action, outcome, reward FROM experiences "
                "WHERE role = ? ORDER BY game_id, seat, key"
            )
            return [Experience(*row) for row in conn.execute(query, (role,))]
        except sqlite3.OperationalError:  # no table yet
            return []
        finally:
            conn.close()

    def retrieve(self, role: str, situation: str, k: int = TOP_K) -> list[tuple[Experience, float]]:
        """The `k` most rewarded among the situations most similar to `situation`."""
        # Imported here: numpy and scipy take a while to load, and only experience seats
        # need them (the CLI starts without them).
        import bm25s

        with self._lock:
            rows = self._rows(role)
            if not rows:
                return []
            retriever = bm25s.BM25()
            retriever.index(
                bm25s.tokenize([r.situation for r in rows], show_progress=False),
                show_progress=False,
            )
            docs, scores = retriever.retrieve(
                bm25s.tokenize([situation], show_progress=False),
                k=len(rows),
                show_progress=False,
            )
        found = [(int(d), float(s)) for d, s in zip(docs[0], scores[0], strict=True)]
        best = max((s for _, s in found), default=0.0)
        if best <= 0:
            return []
        candidates = [(rows[d], s / best) for d, s in found if s / best >= THRESHOLD]
        candidates.sort(key=lambda c: (-c[0].reward, -c[1], c[0].situation))
        return candidates[:k]

    def add(self, game_id: str, rows: Sequence[tuple[str, str, str, Experience]]) -> int:
        """Store (seat, key, role, experience) rows of one finished game; a frozen pool
        refuses. Returns how many were stored (a game stored twice adds nothing)."""
        if self.config.frozen:
            raise PermissionError(f"experience pool {self.config.path} is frozen")
        if not rows:
            return 0
        self.config.path.parent.mkdir(parents=True, exist_ok=True)
        with self._lock:
            conn = sqlite3.connect(self.config.path)
            try:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute(SCHEMA)
                with conn:
                    before = conn.total_changes
                    conn.executemany(
                        "INSERT OR IGNORE INTO experiences VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        [
                            (game_id, seat, key, role, e.situation, e.action, e.outcome, e.reward)
                            for seat, key, role, e in rows
                        ],
                    )
                    return conn.total_changes - before
            finally:
                conn.close()


def _roles(events: Sequence[Event]) -> dict[str, str]:
    for e in events:
        if e.kind is EventKind.DEAL and e.text:
            pairs = (part.strip().partition("=") for part in e.text.split(","))
            return {seat: role for seat, _, role in pairs}
    return {}


def experiences_of(
    events: Sequence[Event], records: Sequence[DecisionRecord]
) -> list[tuple[str, str, str, Experience]]:
    """A finished game's experiences: each retrieval note's situation, with the seat's
    ballot at that vote and its side's result. Roles are known after the game only."""
    roles = _roles(events)
    over = next((e for e in events if e.kind is EventKind.GAME_OVER), None)
    winner = over.value if over is not None and over.value != "draw" else None
    ballots = {(r.seat, r.key): r.option for r in records if r.purpose == "decision"}
    rows = []
    for note in records:
        if note.purpose != "note" or note.step != EXPERIENCE or not note.data:
            continue
        role = roles.get(note.seat)
        ballot = ballots.get((note.seat, note.key))
        if role is None or ballot is None:
            continue
        camp = camp_of(role).value
        target_role = roles.get(ballot)
        own = target_role is not None and camp_of(target_role).value == camp
        reward = 0.0 if winner is None else (1.0 if winner == camp else -1.0)
        experience = Experience(
            situation=str(note.data["situation"]),
            action=action_text(target_role, own),
            outcome=outcome_text(reward > 0),
            reward=reward,
        )
        rows.append((note.seat, note.key, role, experience))
    return rows


def harvest(
    pool: ExperiencePool, game_id: str, events: Sequence[Event], records: Sequence[DecisionRecord]
) -> int:
    """Add a finished game's experiences to an unfrozen pool; 0 for a frozen one."""
    if pool.config.frozen:
        return 0
    return pool.add(game_id, experiences_of(events, records))


def retrieval_data(situation: str, found: Sequence[tuple[Experience, float]]) -> dict[str, Any]:
    """A retrieval note's `data`."""
    return {
        "situation": situation,
        "similarity": "bm25",
        "retrieved": [
            {
                "situation": e.situation,
                "action": e.action,
                "outcome": e.outcome,
                "reward": e.reward,
                "score": round(score, 3),
            }
            for e, score in found
        ],
    }
