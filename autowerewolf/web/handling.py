"""What every route handler of the web app shares: the server's runtime, database reads off
the server's loop, the project's errors as the caller's to fix, and the game a request asks
about with the audience its caller asked for and may have."""

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pydantic import ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request

from autowerewolf.backends.local_extra import LocalBackendError
from autowerewolf.errors import USER_ERRORS, one_line
from autowerewolf.rules.state import GameState
from autowerewolf.web.access import audience_for, claims_of, require_game
from autowerewolf.web.runtime import Runtime
from autowerewolf.web.tokens import Claims

runtime = Runtime()


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
