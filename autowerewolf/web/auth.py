"""LangGraph custom auth (`auth.path` in langgraph.json): who may use the server's API.

The gate (gate.py) has already refused what is closed, cross-site or not the owner's on
LangGraph's API; this is the LangGraph server's own check, on its API and (with
`enable_custom_route_auth`) on our routes. Authentication reads a token (tokens.py, links.py)
from `Authorization: Bearer`, else from the session cookie the request names in its
`X-AW-Session` header (sessions.py); never from the address. The web app's static files and
the routes that start or list a browser's sessions are open; everything else needs a
genuine, unexpired, unrevoked token.

Authorization of LangGraph's own API (/threads, /runs, /assistants, crons): the owner only.
The raw thread state, history and streams hold every seat's role and private results, so
seat and spectator tokens are refused there; they reach a game only through the app's
routes (app.py), which serve per-seat views. A resource or action without a handler would
be allowed, so one global handler denies by default. Deleting a thread is refused to
everyone: it would delete the game's checkpoints from the game database; so is updating
the state of a thread that holds a game (a fork is a thread of its own).
"""

import asyncio
from collections.abc import Mapping
from typing import Any

from langgraph_sdk import Auth

from autowerewolf.web.links import authenticated
from autowerewolf.web.sessions import token_from

# Open without a token: the page and its scripts hold no game data; /aw/session takes a
# link's token from its body and checks it itself; /aw/sessions lists the browser's own.
OPEN_PATHS = ("/", "/app", "/ok", "/aw/session", "/aw/sessions")
OPEN_PREFIXES = ("/app/",)

auth = Auth()


@auth.authenticate
async def authenticate(headers: dict[bytes, bytes], path: str) -> Mapping[str, Any]:
    claims = authenticated(token_from(headers))
    if claims is None:
        if path in OPEN_PATHS or path.startswith(OPEN_PREFIXES):
            return {"identity": "anonymous", "permissions": [], "kind": "anonymous"}
        raise Auth.exceptions.HTTPException(status_code=401, detail="missing or invalid token")
    return {
        "identity": f"{claims.kind}:{claims.game or '*'}:{claims.seat or '*'}",
        "permissions": [claims.kind],
        "kind": claims.kind,
        "game": claims.game,
        "seat": claims.seat,
    }


@auth.on.threads.delete
async def no_thread_deletion(ctx: Auth.types.AuthContext, value: Auth.types.ThreadsDelete) -> bool:
    return False


@auth.on.threads.update
async def no_rewrite_of_a_game(
    ctx: Auth.types.AuthContext, value: Auth.types.ThreadsUpdate
) -> bool:
    """A thread that holds a game keeps its history: a state update at a past checkpoint
    (Studio's way to fork) would make the game's newest state the fork's. A fork is a new
    thread: `POST /aw/games/GAME/fork`, or `update_state` on a thread of its own."""
    if "owner" not in ctx.permissions:
        return False
    # Imported here: the server loads this module before the app that opens the database.
    from autowerewolf.web.handling import runtime

    holds_game = await asyncio.to_thread(runtime.reader.head, str(value["thread_id"]))
    if holds_game is not None:
        raise Auth.exceptions.HTTPException(
            status_code=409,
            detail="this thread holds a game, whose history is kept: fork it with "
            "POST /aw/games/GAME/fork, or update the state of a new thread",
        )
    return True


@auth.on
async def owner_only(ctx: Auth.types.AuthContext, value: dict[str, object]) -> bool:
    return "owner" in ctx.permissions
