"""The web app, mounted into the LangGraph server (`http.app` in langgraph.json): its route
table, its start and stop, and the owner's view of every route the server answers.

Pages: `/app/` (static, no build step). Data: `/aw/...`, every route authorized by the
caller's token (access.py), every game payload built for one audience (frames.py). The
handlers live by concern: pages and identity (identity_routes.py), the lobby
(lobby_routes.py), one game as its audience sees and plays it (game_routes.py), the owner's
controls of one game (control_routes.py).
Route handlers carry comments, not docstrings: the server parses docstrings as YAML.
"""

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from autowerewolf.web import (
    control_routes,
    game_routes,
    identity_routes,
    lobby_routes,
    server_games,
)
from autowerewolf.web.access import claims_of, require_owner
from autowerewolf.web.gate import Gate
from autowerewolf.web.handling import read, runtime
from autowerewolf.web.headers import SecurityHeaders
from autowerewolf.web.links import entry, owner_token
from autowerewolf.web.settings import is_exposed

log = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
DEADLINE_CHECK_S = 1.0  # how often the human seats' deadlines are checked
ADOPT_EVERY_S = 5.0  # how soon a game another process saves (a CLI fork) becomes a thread


def route_table(routes: list[BaseRoute], prefix: str = "") -> list[dict[str, Any]]:
    """Every route the server answers, mounts opened up."""
    table: list[dict[str, Any]] = []
    for route in routes:
        path = prefix + str(getattr(route, "path", ""))
        inner = getattr(route, "routes", None)
        if isinstance(route, Mount) and inner:
            table += route_table(list(inner), path)
        else:
            methods = sorted(getattr(route, "methods", None) or ["*"])
            table.append(
                {"path": path or "/", "methods": methods, "mount": isinstance(route, Mount)}
            )
    return table


async def routes_of_server(request: Request) -> Response:
    # The owner's (and the security tests') view of the whole route table, LangGraph's too.
    require_owner(claims_of(request))
    return JSONResponse(route_table(list(request.app.routes)))


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    runtime.start()
    base = os.environ.get("LANGGRAPH_API_URL", "")
    print(f"owner link (keep it private): {base}{entry(owner_token())}", flush=True)

    async def adopt() -> None:
        # The in-process client answers once the server is serving.
        await asyncio.sleep(0.2)
        ids = await read(runtime.reader.ids)
        adopted = await server_games.adopt(ids)
        if adopted:
            log.warning("adopted %d saved games into the server's registry", len(adopted))
        # A game the last server left waiting for a human asks again: its human seats get
        # their question back (the registry that held it died with that server). A game it
        # left mid-run waits for the owner's Resume (it may run on paid models).
        for game_id in await server_games.waiting_unheard(ids, runtime.reader):
            await server_games.resume(game_id)
        # Another process may save a server game at any time (`autowerewolf fork` of one
        # gives its branch a UUID): LangGraph's API answers for it once it is a thread.
        # Only ids not seen before are looked up in the registry.
        seen = set(ids)
        while True:
            await asyncio.sleep(ADOPT_EVERY_S)
            try:
                new = [i for i in await read(runtime.reader.ids) if i not in seen]
                if new:
                    await server_games.adopt(new)
                    seen.update(new)
            except Exception:
                log.exception("adopting the games saved by other processes failed; trying again")

    async def keep_deadlines() -> None:
        # A human seat's deadline passes whether or not anyone is looking (humans.py).
        while True:
            await asyncio.sleep(DEADLINE_CHECK_S)
            try:
                await runtime.box.expire_overdue(await server_games.waiting_for_humans())
            except Exception:
                log.exception("checking the human seats' deadlines failed; checking again")

    tasks = [asyncio.create_task(adopt()), asyncio.create_task(keep_deadlines())]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        runtime.close()


routes = [
    Route("/", identity_routes.index),
    Route("/aw/session", identity_routes.open_session, methods=["POST"]),
    Route("/aw/sessions", identity_routes.list_sessions),
    Route("/aw/me", identity_routes.me),
    Route("/aw/routes", routes_of_server),
    Route("/aw/choices", lobby_routes.choices),
    Route("/aw/games", lobby_routes.list_games, methods=["GET"]),
    Route("/aw/games", lobby_routes.create_game, methods=["POST"]),
    Route("/aw/tournaments", lobby_routes.start_tournament, methods=["POST"]),
    Route("/aw/games/{game}", game_routes.game),
    Route("/aw/games/{game}/events", game_routes.events),
    Route("/aw/games/{game}/records/{ref:int}", game_routes.record),
    Route("/aw/games/{game}/decision", game_routes.decision, methods=["GET", "POST"]),
    Route("/aw/games/{game}/answer", game_routes.answer, methods=["POST"]),
    Route("/aw/games/{game}/resume", control_routes.resume, methods=["POST"]),
    Route("/aw/games/{game}/links/{holder}/revoke", control_routes.revoke_link, methods=["POST"]),
    Route("/aw/games/{game}/fork", control_routes.fork_game, methods=["POST"]),
    Mount("/app", app=StaticFiles(directory=STATIC, html=True)),
]
# The security headers, then the gate, are the server's outermost middleware (LangGraph puts
# an app's middleware first), so they see every request and every answer, LangGraph's too.
app = Starlette(
    routes=routes,
    lifespan=lifespan,
    middleware=[Middleware(SecurityHeaders), Middleware(Gate, exposed=is_exposed())],
)
