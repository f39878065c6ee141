"""The web app's routes, mounted into the LangGraph server (`http.app` in langgraph.json).

Pages: `/app/` (static, no build step). Data: `/aw/...`, every route authorized by the
caller's token (access.py), every game payload built for one audience (frames.py).
Route handlers carry comments, not docstrings: the server parses docstrings as YAML.
"""

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from sse_starlette import EventSourceResponse
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from autowerewolf.backends.local_server import LocalBackendError
from autowerewolf.errors import USER_ERRORS, one_line
from autowerewolf.rules.state import GameState
from autowerewolf.rules.views import seat_view
from autowerewolf.web import lobby, server_games, tokens
from autowerewolf.web.access import audience_for, claims_of, require_game, require_owner
from autowerewolf.web.auth import COOKIE
from autowerewolf.web.frames import GOD, PUBLIC, all_records, is_seat, me_json, record_detail
from autowerewolf.web.frames import visible_records as records_for
from autowerewolf.web.humans import decision_json
from autowerewolf.web.live import live_messages
from autowerewolf.web.runtime import Runtime
from autowerewolf.web.tokens import Claims

log = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
runtime = Runtime()
CREATE_WAIT_S = 30.0


@contextmanager
def user_errors() -> Iterator[None]:
    """The project's errors are the caller's to fix: one line, 400."""
    try:
        yield
    except ValidationError as err:
        raise HTTPException(400, one_line(err)) from None
    except (*USER_ERRORS, LocalBackendError) as err:  # type: ignore[misc]  # a tuple of classes
        raise HTTPException(400, str(err).strip().splitlines()[0]) from None


async def read(function: Any, *args: Any) -> Any:
    """Database reads block: they run in a worker thread, never on the server's loop."""
    with user_errors():
        return await asyncio.to_thread(function, *args)


async def latest(game_id: str) -> GameState:
    game: GameState | None = await read(runtime.reader.latest, game_id)
    if game is None:
        raise HTTPException(404, f"no game {game_id!r}")
    return game


async def seen_as(request: Request) -> tuple[str, Claims, GameState, str]:
    """The game of the request, who asks, and the audience they asked for and may have."""
    game_id = request.path_params["game"]
    claims = claims_of(request)
    require_game(claims, game_id)
    game = await latest(game_id)
    seats = [s.id for s in game.seats]
    audience = audience_for(claims, game_id, request.query_params.get("audience"), seats)
    return game_id, claims, game, audience


async def saved(game_id: str) -> None:
    """Wait until a new game is set up and saved, so that its page can open."""
    for _ in range(int(CREATE_WAIT_S / 0.05)):
        if await read(runtime.reader.latest, game_id) is not None:
            return
        await asyncio.sleep(0.05)
    raise HTTPException(503, "the server is busy: the game was queued but has not started yet")


def link(kind: tokens.Kind, game_id: str | None = None, seat: str | None = None) -> str:
    return f"/aw/enter?token={tokens.make(kind, game_id, seat)}"


# --- pages and identity --------------------------------------------------------------


async def index(request: Request) -> Response:
    return RedirectResponse("/app/")


async def enter(request: Request) -> Response:
    # A link's landing: the token moves from the URL into an HttpOnly cookie (the server's
    # access log writes query strings, never cookies) and the page opens without it.
    token = request.query_params.get("token")
    claims = tokens.verify(token)
    if claims is None or token is None:
        raise HTTPException(401, "this link is not valid (the server may have restarted)")
    target = f"/app/#/game/{claims.game}" if claims.game else "/app/"
    response = RedirectResponse(target, status_code=303)
    response.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/")
    return response


async def me(request: Request) -> Response:
    claims = claims_of(request)
    return JSONResponse({"kind": claims.kind, "game": claims.game, "seat": claims.seat})


async def choices(request: Request) -> Response:
    require_owner(claims_of(request))
    return JSONResponse(lobby.choices())


# --- the lobby -----------------------------------------------------------------------


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
        entry["server"] = server_games.is_server_game(game_id)
        if claims.is_owner:
            entry.update(seed=row.seed, status=row.status)
        thread = statuses.get(game_id)
        if row.status != "finished" and thread in ("busy", "error"):
            entry["status"] = {"busy": "running", "error": "error"}[thread]
        games.append(entry)
    return JSONResponse(games)


async def create_game(request: Request) -> Response:
    require_owner(claims_of(request))
    with user_errors():
        setup, seating = lobby.parse_form(await request.json())
        humans = lobby.check_game(setup, seating, runtime.players)
    game_id = await server_games.create_game(setup, seating)
    await saved(game_id)
    links = {seat: link("seat", game_id, seat) for seat in humans}
    links["spectator"] = link("spectator", game_id)
    return JSONResponse({"game": game_id, "links": links}, status_code=201)


# --- one game ------------------------------------------------------------------------


async def game(request: Request) -> Response:
    # The game's header for one audience: who the caller is, what it may switch to, its
    # own standing if it is a seat, and (owner) the links to hand out.
    game_id, claims, game, audience = await seen_as(request)
    seats = [s.id for s in game.seats]
    row = await read(runtime.reader.row, game_id)
    body: dict[str, Any] = {**row.public(), "audience": audience}
    body["server"] = server_games.is_server_game(game_id)
    if claims.is_owner:
        body["audiences"] = [GOD, PUBLIC, *seats]
        body.update(seed=row.seed, status=row.status)
        if body["server"]:  # command-line games are the owner's to replay
            humans = [s for s, kind in row.seats.items() if kind == "human"]
            body["links"] = {s: link("seat", game_id, s) for s in humans}
            body["links"]["spectator"] = link("spectator", game_id)
    elif claims.kind == "seat":
        body["audiences"] = [claims.seat, PUBLIC]
    else:
        body["audiences"] = [PUBLIC]
    if is_seat(audience):
        body["me"] = me_json(seat_view(game, (), audience))
    return JSONResponse(body)


async def events(request: Request) -> Response:
    game_id, _, _, audience = await seen_as(request)
    last = request.headers.get("last-event-id", "")
    after = int(last) if last.isdigit() else -1
    messages = live_messages(runtime.reader, runtime.box, game_id, audience, after)
    return EventSourceResponse(messages, ping=15)


async def record(request: Request) -> Response:
    # The drill-down of one decision: ref numbers the audience's own records.
    game_id, _, _, audience = await seen_as(request)
    if audience == PUBLIC:
        raise HTTPException(403, "decisions are shown to their own seat and in the god view")
    steps = await read(runtime.reader.steps, game_id)
    visible = records_for(all_records(steps), audience)
    ref = request.path_params["ref"]
    if not 0 <= ref < len(visible):
        raise HTTPException(404, f"no decision {ref} for this audience")
    return JSONResponse(record_detail(visible[ref], ref, audience))


async def decision(request: Request) -> Response:
    # What this seat is asked now, if the game waits for its answer.
    game_id = request.path_params["game"]
    claims = claims_of(request)
    require_game(claims, game_id)
    if claims.kind != "seat" or claims.seat is None:
        raise HTTPException(403, "only a seat's link answers for a seat")
    pending = await server_games.pending_interrupt(game_id)
    if pending is None or claims.seat not in pending["value"]["seats"]:
        return JSONResponse({"decision": None})
    if runtime.box.answered(game_id, pending["id"], claims.seat):
        return JSONResponse({"decision": None, "answered": True})
    record_ = await read(runtime.reader.load, game_id)
    error = (pending["value"].get("errors") or {}).get(claims.seat)
    return JSONResponse(
        {"decision": decision_json(record_.game, record_.events, claims.seat, error)}
    )


async def answer(request: Request) -> Response:
    game_id = request.path_params["game"]
    claims = claims_of(request)
    require_game(claims, game_id)
    if claims.kind != "seat" or claims.seat is None:
        raise HTTPException(403, "only a seat's link answers for a seat")
    try:
        body = await request.json()
    except ValueError:
        raise HTTPException(400, "the answer must be JSON") from None
    return JSONResponse(await runtime.box.answer(game_id, claims.seat, body))


async def resume(request: Request) -> Response:
    # Continue a game the server stopped running (killed mid-game, or adopted).
    game_id = request.path_params["game"]
    require_owner(claims_of(request))
    await latest(game_id)
    if not server_games.is_server_game(game_id):
        raise HTTPException(400, "a command-line game continues with `autowerewolf resume`")
    row = await read(runtime.reader.row, game_id)
    if row.status != "unfinished":
        raise HTTPException(409, f"the game is {row.status}, not unfinished")
    await server_games.adopt([game_id])  # a no-op unless the registry lost the game
    await server_games.resume(game_id)
    return JSONResponse({"resumed": True})


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    runtime.start()
    base = os.environ.get("LANGGRAPH_API_URL", "")
    print(f"owner link (keep it private): {base}{link('owner')}", flush=True)

    async def adopt() -> None:
        # The in-process client answers once the server is serving.
        await asyncio.sleep(0.2)
        adopted = await server_games.adopt(await read(runtime.reader.ids))
        if adopted:
            log.warning("adopted %d saved games into the server's registry", len(adopted))

    task = asyncio.create_task(adopt())
    try:
        yield
    finally:
        task.cancel()
        runtime.close()


routes = [
    Route("/", index),
    Route("/aw/enter", enter),
    Route("/aw/me", me),
    Route("/aw/choices", choices),
    Route("/aw/games", list_games, methods=["GET"]),
    Route("/aw/games", create_game, methods=["POST"]),
    Route("/aw/games/{game}", game),
    Route("/aw/games/{game}/events", events),
    Route("/aw/games/{game}/records/{ref:int}", record),
    Route("/aw/games/{game}/decision", decision),
    Route("/aw/games/{game}/answer", answer, methods=["POST"]),
    Route("/aw/games/{game}/resume", resume, methods=["POST"]),
    Mount("/app", app=StaticFiles(directory=STATIC, html=True)),
]
app = Starlette(routes=routes, lifespan=lifespan)
