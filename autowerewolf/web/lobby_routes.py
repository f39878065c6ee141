"""The web app's lobby routes: the owner's choices for a new game, the games the caller may
see, a new game the server runs, and the next games of a tournament file.
Route handlers carry comments, not docstrings: the server parses docstrings as YAML.
"""

import asyncio
from functools import partial
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.seeding import is_server_game
from autowerewolf.web import lobby, server_games, tournaments
from autowerewolf.web.access import claims_of, require_owner
from autowerewolf.web.handling import read, runtime, user_errors
from autowerewolf.web.links import book, links_of

CREATE_WAIT_S = 30.0


async def saved(game_id: str) -> None:
    """Wait until a new game is set up and saved, so that its page can open."""
    for _ in range(int(CREATE_WAIT_S / 0.05)):
        if await read(runtime.reader.latest, game_id) is not None:
            return
        await asyncio.sleep(0.05)
    raise HTTPException(503, "the server is busy: the game was queued but has not started yet")


async def choices(request: Request) -> Response:
    require_owner(claims_of(request))
    return JSONResponse(lobby.choices())


async def list_games(request: Request) -> Response:
    claims = claims_of(request)
    ids = await read(runtime.reader.ids)
    if not claims.is_owner:
        ids = [i for i in ids if i == claims.game]
    statuses = await server_games.thread_statuses()
    games = []
    for game_id in ids:
        row = await read(runtime.reader.listed, game_id)
        if row is None:  # starting: listed once its first step is saved
            continue
        entry = row.public()
        entry["server"] = is_server_game(game_id)
        if claims.is_owner:  # a 63-bit seed as text: JavaScript's numbers hold 53 bits
            entry.update(seed=str(row.seed), status=row.status)
        thread = statuses.get(game_id)
        if row.status != "finished" and thread in ("busy", "error"):
            entry["status"] = {"busy": "running", "error": "error"}[thread]
        games.append(entry)
    return JSONResponse(games)


async def start_game(
    setup: GameSetup, seating: Seating, humans: list[str], game_id: str | None, lifetime_s: int
) -> dict[str, Any]:
    """A checked game, started and saved: its id and its links."""
    game_id = await server_games.create_game(setup, seating, game_id)
    await read(book().set_lifetime, game_id, lifetime_s)
    await saved(game_id)
    return {"game": game_id, "links": await read(links_of, game_id, humans)}


async def create_game(request: Request) -> Response:
    require_owner(claims_of(request))
    with user_errors():
        form = await request.json()
        setup, seating = lobby.parse_form(form)
        lifetime_s = lobby.link_lifetime(form)
        humans = lobby.check_game(setup, seating, runtime.players)
    # A fresh secret repeats no other game's: only a secret the owner typed is looked up.
    warning = await read(reused_deal, setup) if form.get("secret") is not None else None
    made = await start_game(setup, seating, humans, None, lifetime_s)
    return JSONResponse({**made, "warnings": [warning] if warning else []}, 201)


def reused_deal(setup: GameSetup) -> str | None:
    reader = runtime.reader
    return lobby.reuse_warning(setup, ((i, reader.latest(i)) for i in reader.ids()))


async def start_tournament(request: Request) -> Response:
    # The next games of a tournament file the owner pasted (tournaments.py): a human
    # contestant's seats get links, and `report --tournament NAME` rates it by name.
    require_owner(claims_of(request))
    try:
        form = await request.json()
    except ValueError:
        raise HTTPException(400, 'a tournament starts from {"file": TEXT} in JSON') from None
    with user_errors():
        wanted, lifetime_s = tournaments.parse_form(form), lobby.link_lifetime(form)
        made = await tournaments.start(
            wanted, runtime.reader, runtime.players, partial(start_game, lifetime_s=lifetime_s)
        )
    return JSONResponse(made, 201 if made["started"] else 200)
