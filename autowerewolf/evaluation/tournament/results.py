"""The `results` table: one JSON row per finished game, next to the checkpoints (in the
same SQLite file or PostgreSQL database).

Restoring a game through LangGraph costs ~10-20 ms, so reports read these rows instead,
one at a time. Finished games that have no row (played by `play`/`batch`, or whose
process died between the last step and the row write) are extracted from their
checkpoints as a fallback, also one at a time.

Only the tournament command (a writer of its own database) writes rows; the games of a
tournament the web app plays (a human contestant's) have none, and a report over one
tournament finds them by the tournament their seating names. Reports open every database
read-only and never add the table or rows to it: a report over games played by `play`
re-extracts them from their checkpoints each time.
"""

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import cast

from autowerewolf.errors import StoreError
from autowerewolf.evaluation.games.facts import GameRow, game_row
from autowerewolf.evaluation.tournament.config import SCAFFOLD, Price
from autowerewolf.evaluation.tournament.fingerprint import Recorded, recorded_all
from autowerewolf.runner import GameRecord
from autowerewolf.storage.stores import Store, open_store, own_table, thread_ids
from autowerewolf.storage.target import Database, Postgres, database


def connect(db: Database | str, *, create: bool = False) -> Store:
    """A writer's store (the tournament's), with the `results` table."""
    store = open_store(database(db), create=create)
    own_table(store, "results")
    return store


def row_of(record: GameRecord, prices: Mapping[str, Price] | None = None) -> GameRow:
    return game_row(
        record.game_id,
        record.events,
        record.records,
        record.seating,
        prices,
        seed=record.game.config.seed,
    )


def save_row(store: Store, row: GameRow, tournament: str | None) -> None:
    store.execute(
        "INSERT INTO results (game_id, tournament, row) VALUES (?, ?, ?) ON CONFLICT (game_id) "
        "DO UPDATE SET tournament = excluded.tournament, row = excluded.row",
        (row["game_id"], tournament, json.dumps(row, separators=(",", ":"))),
    )


def finished_ids(store: Store, tournament: str | None = None) -> set[str]:
    if "results" not in store.tables():
        return set()
    if tournament is None:
        return {r[0] for r in store.query("SELECT game_id FROM results")}
    query = "SELECT game_id FROM results WHERE tournament = ?"
    return {r[0] for r in store.query(query, (tournament,))}


def _stored_rows(store: Store, tournament: str | None) -> Iterator[GameRow]:
    if "results" not in store.tables():
        return
    # Without a name: every game but the scaffold baselines' (schedule.py), which are
    # asked for by their own name.
    query = "SELECT row FROM results WHERE tournament IS NULL OR tournament NOT LIKE ?"
    params: tuple[str, ...] = (f"%{SCAFFOLD}",)
    if tournament is not None:
        query = "SELECT row FROM results WHERE tournament = ?"
        params = (tournament,)
    # Fetched whole: rows are a few KB each, and a cursor would keep the database busy.
    for (text,) in store.query(query + " ORDER BY game_id", params):
        row = json.loads(text)
        # A damaged row must fail here, as one line, not deep inside the report's arithmetic.
        if not isinstance(row, dict) or not GameRow.__required_keys__ <= row.keys():
            raise ValueError("a row is not a game result")
        yield cast(GameRow, row)


def iter_rows(db: Database, tournament: str | None = None) -> Iterator[GameRow]:
    """Every finished game of `db` as a row, in game-id order (read-only)."""
    store = open_store(db, readonly=True)
    try:
        try:
            yield from _stored_rows(store, tournament)
        except ValueError as err:
            # json.JSONDecodeError and UnicodeDecodeError are ValueErrors.
            first = str(err).splitlines()[0]
            raise StoreError(f"{db} has a damaged result row ({first})") from None
        missing = sorted(set(thread_ids(store)) - finished_ids(store))
    except store.errors as err:
        first = (str(err).strip().splitlines() or [type(err).__name__])[0]
        raise StoreError(f"{db} is not a usable game database ({first})") from None
    finally:
        store.close()
    if missing:
        yield from _from_checkpoints(db, missing, tournament)


def _from_checkpoints(
    db: Database, game_ids: list[str], tournament: str | None
) -> Iterator[GameRow]:
    """The finished games among `game_ids` (of `tournament` only, if given: the web app's
    tournament games have no row), as rows."""
    # Imported here: building the game graph is only worth it when some rows are missing.
    from autowerewolf.runner import Games

    games = Games(db, readonly=True)
    try:
        for game_id in game_ids:
            record = games.peek(game_id)
            if record is None or record.status != "finished":
                continue
            held = record.seating.tournament or ""
            if tournament is not None and held != tournament:
                continue
            if tournament is None and held.endswith(SCAFFOLD):
                continue
            try:
                row = row_of(record)
            except (ValueError, KeyError, TypeError) as err:
                # The checkpoints decoded, but the transcript does not add up to a game.
                raise StoreError(f"game {game_id!r} in {db} is damaged ({err!r})") from None
            yield row
    finally:
        games.close()


def _recorded(dbs: list[Database]) -> tuple[dict[str, Recorded], set[str]]:
    """The tournaments recorded in `dbs` with their settings, and every tournament their
    result rows name (read-only)."""
    found: dict[str, Recorded] = {}
    named: set[str] = set()
    for db in dbs:
        store = open_store(db, readonly=True)
        try:
            found.update(recorded_all(store))
            if "results" in store.tables():
                query = "SELECT DISTINCT tournament FROM results WHERE tournament IS NOT NULL"
                named |= {r[0] for r in store.query(query) if not r[0].endswith(SCAFFOLD)}
        except store.errors as err:
            raise StoreError(f"{db} is not a usable game database ({err})") from None
        finally:
            store.close()
    return found, named


def tournament_names(dbs: list[Database]) -> list[str]:
    """Every tournament of `dbs`: recorded ones (the web app's too) and those that rows
    name, sorted."""
    found, named = _recorded(dbs)
    return sorted(found.keys() | named)


def tournament_settings(dbs: list[Database], name: str | None) -> tuple[str, Recorded] | None:
    """The recorded tournament a report covers: `name`, or the one tournament recorded in
    the one database (read-only); None otherwise."""
    found, _ = _recorded(dbs)
    if name is not None and name in found:
        chosen = name
    elif name is None and len(found) == 1 and len(dbs) == 1:
        (chosen,) = found
    else:
        return None
    return chosen, found[chosen]


def databases(source: str | Path) -> list[Database]:
    """A database file or Postgres URL, or every `*.db` in a directory."""
    path = database(source)
    if isinstance(path, Postgres):
        return [path]
    if path.is_dir():
        found = sorted(path.glob("*.db"))
        if not found:
            raise StoreError(f"no *.db game database in {path}")
        return list(found)
    if not path.is_file():
        raise StoreError(f"no game database at {path}")
    return [path]
