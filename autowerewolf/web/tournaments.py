"""Starting a tournament's games in the web app, so that people play its rated games.

The owner pastes a tournament file (the command line's, docs/evaluation.md) in the lobby.
It is checked as `autowerewolf tournament` checks it, its design is recorded in the
server's database (or compared with the one recorded there: an edited file under the same
name is refused), and its next planned games that have not started yet start as server
games: a human contestant's seats are human seats, with links as any lobby game's.

A planned game's id is a UUID derived from its planned id (`<name>-<index>`), since the
server's games are LangGraph threads: starting the file again continues the tournament.
Each game's seating names its tournament and its contestants, so that `autowerewolf
report DB --tournament NAME` rates a named human beside the other contestants.

The server's LLM seats play on its own `--models`: a file that sets `models` or a
contestant's `model` is refused rather than played on other models than it says.
"""

import asyncio
import uuid
from collections.abc import Awaitable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from autowerewolf.errors import SettingsError
from autowerewolf.evaluation.tournament.config import TournamentConfig, parse_tournament
from autowerewolf.evaluation.tournament.fingerprint import check_design
from autowerewolf.evaluation.tournament.schedule import PlannedGame, plan
from autowerewolf.players.factory import PlayerBuilder
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.storage.stores import open_store
from autowerewolf.storage.target import database
from autowerewolf.web import server_games
from autowerewolf.web.lobby import check_game
from autowerewolf.web.reader import GameReader
from autowerewolf.web.settings import database_path

# The namespace of tournament games' ids (uuid5 of the planned id): a constant, so that a
# planned game keeps its id from one start of the file to the next.
GAME_IDS = uuid.uuid5(uuid.NAMESPACE_URL, "https://autowerewolf/tournament-games")
SOURCE = Path("tournament file")  # how errors name the pasted text
FORM_FIELDS = frozenset({"file", "games", "link_hours"})
# One start at a time: two could pick the same planned games.
_starting = asyncio.Lock()


def server_game_id(planned_id: str) -> str:
    return str(uuid.uuid5(GAME_IDS, planned_id))


@dataclass(frozen=True)
class Wanted:
    config: TournamentConfig
    count: int  # how many of its unstarted games to start


def parse_form(form: object) -> Wanted:
    """`{"file": TEXT, "games": N, "link_hours": H}`; raises SettingsError with one line."""
    if not isinstance(form, dict):
        raise SettingsError("the tournament form must be a JSON object")
    unknown = sorted(set(form) - FORM_FIELDS)
    if unknown:
        raise SettingsError(f"unknown field {unknown[0]!r} in the tournament form")
    text = form.get("file")
    if not isinstance(text, str) or not text.strip():
        raise SettingsError('a tournament starts from {"file": "<the tournament file\'s text>"}')
    count = form.get("games", 1)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise SettingsError("games must be how many of its games to start: 1 or more")
    config = parse_tournament(text, SOURCE)
    overridden = [c.name for c in config.contestants if c.model is not None]
    if config.models is not None or overridden:
        where = "`models`" if config.models is not None else f"{overridden[0]!r}'s `model`"
        raise SettingsError(
            f"{SOURCE}: the server's model seats play on its own --models; remove {where} "
            "(or play the tournament with `autowerewolf tournament`)"
        )
    return Wanted(config, count)


@dataclass(frozen=True)
class TournamentGame:
    game_id: str  # the server's game
    planned: PlannedGame

    def labels(self, humans: list[str]) -> dict[str, Any]:
        """Which planned game it is, and the contestant holding each human seat."""
        names = self.planned.seating.contestants
        return {"planned": self.planned.game_id, "humans": {s: names[s] for s in humans}}


@dataclass(frozen=True)
class Batch:
    config: TournamentConfig
    to_start: list[TournamentGame]
    planned: int  # games the file plans
    started: int  # ... already started before
    finished: frozenset[str]  # ... the planned ids of those finished


def next_games(wanted: Wanted, known: set[str], reader: GameReader) -> Batch:
    """The next planned games to start: none started yet (saved, or known to the server's
    registry `known`). Blocking: call it in a worker thread."""
    games = [TournamentGame(server_game_id(g.game_id), g) for g in plan(wanted.config)]
    known = known | set(reader.ids())
    started = [g for g in games if g.game_id in known]
    finished = set()
    for game in started:
        row = reader.listed(game.game_id)
        if row is not None and row.status == "finished":
            finished.add(game.planned.game_id)
    to_start = [g for g in games if g.game_id not in known][: wanted.count]
    return Batch(wanted.config, to_start, len(games), len(started), frozenset(finished))


def record_design(batch: Batch) -> str | None:
    """Record the tournament's design in the server's database, or check it against the
    record (SettingsError if it changed); a note if the file resized it. Blocking."""
    store = open_store(database(database_path()))
    try:
        return check_design(store, batch.config, set(batch.finished))
    finally:
        store.close()


class StartGame(Protocol):
    """The app's start of one checked game: its id and links once it is saved."""

    def __call__(
        self, setup: GameSetup, seating: Seating, humans: list[str], game_id: str | None
    ) -> Awaitable[dict[str, Any]]: ...


async def start(
    wanted: Wanted, reader: GameReader, players: PlayerBuilder, start_game: StartGame
) -> dict[str, Any]:
    """Start the next games of a tournament, every one checked before any starts."""
    async with _starting:
        known = set(await server_games.thread_statuses())
        batch = await asyncio.to_thread(next_games, wanted, known, reader)
        checked = [
            (g, check_game(g.planned.setup, g.planned.seating, players)) for g in batch.to_start
        ]
        note = await asyncio.to_thread(record_design, batch)  # a file that plays, only
        started = []
        for game, humans in checked:
            made = await start_game(game.planned.setup, game.planned.seating, humans, game.game_id)
            started.append({**made, **game.labels(humans)})
    return {
        "tournament": batch.config.name,
        "planned": batch.planned,
        "started_before": batch.started,
        "finished": len(batch.finished),
        "note": note,
        "started": started,
    }
