"""The web app's routes by which the owner controls one game: resume it, branch it at a step,
take a link back.
Route handlers carry comments, not docstrings: the server parses docstrings as YAML.
"""

import uuid

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from autowerewolf.seeding import is_server_game
from autowerewolf.web import server_games, tokens
from autowerewolf.web.access import claims_of, require_owner
from autowerewolf.web.handling import latest, read, runtime
from autowerewolf.web.links import book, link


async def resume(request: Request) -> Response:
    # Continue a game the server stopped running (killed mid-game, or adopted).
    game_id = request.path_params["game"]
    require_owner(claims_of(request))
    await latest(game_id)
    if not is_server_game(game_id):
        raise HTTPException(400, "a command-line game continues with `autowerewolf resume`")
    row = await read(runtime.reader.row, game_id)
    waiting = row.status == "waiting" and await server_games.pending_interrupt(game_id) is None
    if row.status != "unfinished" and not waiting:
        raise HTTPException(409, f"the game is {row.status}, not stopped")
    await server_games.adopt([game_id])  # a no-op unless the registry lost the game
    await server_games.resume(game_id)
    return JSONResponse({"resumed": True})


async def fork_game(request: Request) -> Response:
    # The owner branches a game at a step of its replay (the command line's `fork`): a new
    # game the server runs from that step on, the original untouched.
    game_id = request.path_params["game"]
    require_owner(claims_of(request))
    try:
        ply = (await request.json())["ply"]
    except (ValueError, KeyError, TypeError):
        raise HTTPException(400, 'a branch starts from {"ply": STEP}') from None
    if isinstance(ply, bool) or not isinstance(ply, int) or ply < 0:
        raise HTTPException(400, "ply must be a step number")
    await latest(game_id)
    branch = str(uuid.uuid4())
    await read(server_games.fork_into_database, game_id, ply, branch)
    await server_games.adopt([branch])
    await server_games.resume(branch)
    return JSONResponse({"game": branch}, status_code=201)


async def revoke_link(request: Request) -> Response:
    # The owner takes a seat's (or the spectators') link back and gets a new one.
    game_id, holder = request.path_params["game"], request.path_params["holder"]
    require_owner(claims_of(request))
    await latest(game_id)
    row = await read(runtime.reader.row, game_id)
    humans = [s for s, kind in row.seats.items() if kind == "human"]
    if holder != "spectator" and holder not in humans:
        raise HTTPException(
            404, f"{holder!r} has no link: links are for human seats and spectators"
        )
    await read(book().revoke, game_id, holder)  # the book is a file: not on the loop
    kind: tokens.Kind = "spectator" if holder == "spectator" else "seat"
    seat = None if holder == "spectator" else holder
    return JSONResponse({"holder": holder, "link": await read(link, kind, game_id, seat)})
