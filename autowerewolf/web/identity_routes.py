"""The web app's routes of pages and identity: the app's page, a link's token becoming a
session of the browser, the sessions a browser holds, and who the caller is.
Route handlers carry comments, not docstrings: the server parses docstrings as YAML.
"""

import time
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from autowerewolf.web.access import claims_of
from autowerewolf.web.links import authenticated
from autowerewolf.web.sessions import cookie_name, session_cookies
from autowerewolf.web.tokens import Claims


def claims_json(claims: Claims) -> dict[str, Any]:
    return {
        "session": claims.session,
        "kind": claims.kind,
        "game": claims.game,
        "seat": claims.seat,
        "expires": claims.expires,
    }


async def index(request: Request) -> Response:
    return RedirectResponse("/app/")


async def open_session(request: Request) -> Response:
    # A link's token becomes a session of this browser: an HttpOnly cookie of its own (pages
    # cannot read it; logs never hold it), beside the browser's other sessions.
    try:
        body = await request.json()
    except ValueError:
        raise HTTPException(400, 'a session starts from {"token": ...}') from None
    token = body.get("token") if isinstance(body, dict) else None
    claims = authenticated(token if isinstance(token, str) else None)
    if claims is None or not isinstance(token, str):
        raise HTTPException(401, "this link is not valid: expired, revoked, or of another server")
    response = JSONResponse(claims_json(claims))
    response.set_cookie(
        cookie_name(claims.session), token, max_age=max(0, claims.expires - int(time.time())),
        httponly=True, samesite="strict", path="/",
    )  # fmt: skip
    return response


async def list_sessions(request: Request) -> Response:
    # The sessions this browser holds (a new tab picks one); their tokens stay in cookies.
    cookies = session_cookies(dict(request.scope.get("headers", [])))
    held = [authenticated(token) for token in cookies.values()]
    return JSONResponse([claims_json(c) for c in held if c is not None])


async def me(request: Request) -> Response:
    return JSONResponse(claims_json(claims_of(request)))
