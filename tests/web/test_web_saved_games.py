"""Games the command line wrote into the server's database: a game with a command-line id
is listed and replayed from every audience but never run or changed; a server game that
stopped mid-way (its server was killed) is adopted at startup and its owner resumes it
from the page, continuing exactly as an uninterrupted game."""

import json
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.random_play import play_random_game
from autowerewolf.runner import Games
from tests.fixed import SECRET
from tests.web.browser import open_tab, wait_finished
from tests.web.conftest import Server, running_server, sse_payloads
from tests.web.leaks import leaks, parse_payloads

pytestmark = [pytest.mark.slow, pytest.mark.webslow]


class Crash(Exception):
    pass


def _crash_after(ply: int) -> Any:
    def progress(game: Any, events: Any) -> None:
        if game.ply >= ply:
            raise Crash

    return progress


def test_command_line_games_are_replayed_and_a_stopped_game_resumed(
    tmp_path: Path, browser: Any
) -> None:
    db = tmp_path / "games.db"
    games = Games(db, create=True)
    cli_game = games.start("cli-7", GameSetup(secret=SECRET, seed=7), Seating())
    stopped = str(uuid.uuid4())
    with pytest.raises(Crash):
        games.start(stopped, GameSetup(secret=SECRET, seed=8), Seating(), _crash_after(10))
    assert games.load(stopped).status == "unfinished"
    cli_checkpoints = _checkpoints(games, "cli-7")
    games.close()

    with running_server(tmp_path, db) as server, server.client(server.owner) as owner:
        listed = {g["game"]: g for g in owner.get("/aw/games").json()}
        assert listed["cli-7"]["server"] is False and listed["cli-7"]["status"] == "finished"
        assert listed[stopped]["status"] == "unfinished"
        assert "links" not in owner.get("/aw/games/cli-7").json()
        _replays_from_every_audience(server, owner, cli_game.events, cli_game.game)
        refused = owner.post("/aw/games/cli-7/resume")
        assert refused.status_code == 400 and "autowerewolf resume" in refused.json()["detail"]

        tab = open_tab(browser, server, f"/app/#/enter/{server.owner}")
        tab.page.goto(f"{server.url}/app/#/game/{stopped}")
        tab.page.click("#resume")
        wait_finished(tab.page)
        tab.close()

    games = Games(db)
    try:
        expected_state, expected_events = play_random_game(GameSetup(secret=SECRET, seed=8).build())
        resumed = games.load(stopped)
        assert resumed.events == expected_events and resumed.game == expected_state
        assert _checkpoints(games, "cli-7") == cli_checkpoints  # never written
    finally:
        games.close()


def _checkpoints(games: Games, game_id: str) -> int:
    return len(list(games.store.saver.list(Games.run_config(game_id))))


def _replays_from_every_audience(
    server: Server, owner: httpx.Client, events: list[Any], truth: Any
) -> None:
    god = [json.loads(p) for p in sse_payloads(owner, "/aw/games/cli-7/events")]
    frames = [p for p in god if "events" in p]
    assert sum(len(f["events"]) for f in frames) == len(events)
    assert god[-1] == {"status": "finished"} and frames[-1]["over"]
    for audience in ("public", "P03"):
        seen = sse_payloads(owner, f"/aw/games/cli-7/events?audience={audience}")
        assert leaks(parse_payloads(seen), truth, audience) == [], audience
