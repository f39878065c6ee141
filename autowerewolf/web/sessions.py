"""Which token a request carries: an `Authorization: Bearer` header (API clients), or one of
the browser's session cookies, named by the request.

Each link opened in a browser becomes a session of its own, in an HttpOnly cookie named
after its holder (`aw.owner`, `aw.seat.GAME.P03`, `aw.spectator.GAME`), so the owner's
session and seats' or spectators' sessions of other games live side by side and opening one
link never replaces another's cookie. A page names its session in the `X-AW-Session`
header; an event stream, which cannot send headers, names it in the `session` query
parameter, for reads only. A cookie is never used unless the request names it: a page of
another site cannot name one (a custom header needs a CORS preflight, which the server
refuses), so it cannot act with the user's cookies.
"""

from collections.abc import Mapping

from starlette.requests import cookie_parser

COOKIE_PREFIX = "aw."
SESSION_HEADER = b"x-aw-session"
SESSION_PARAM = "session"
SAFE_METHODS = ("GET", "HEAD")


def cookie_name(session: str) -> str:
    return COOKIE_PREFIX + session


def session_cookies(headers: Mapping[bytes, bytes]) -> dict[str, str]:
    """Every session cookie of the request: session name -> token."""
    cookies = cookie_parser((headers.get(b"cookie") or b"").decode("latin-1"))
    return {
        name[len(COOKIE_PREFIX) :]: value
        for name, value in cookies.items()
        if name.startswith(COOKIE_PREFIX) and value
    }


def named_session(headers: Mapping[bytes, bytes], query: Mapping[str, str], method: str) -> str:
    session = (headers.get(SESSION_HEADER) or b"").decode("latin-1").strip()
    if not session and method.upper() in SAFE_METHODS:
        session = query.get(SESSION_PARAM, "")
    return session


def token_from(
    headers: Mapping[bytes, bytes], query: Mapping[str, str] | None = None, method: str = "GET"
) -> str | None:
    bearer = (headers.get(b"authorization") or b"").decode("latin-1")
    if bearer.lower().startswith("bearer "):
        return bearer[7:].strip() or None
    session = named_session(headers, query or {}, method)
    return session_cookies(headers).get(session) if session else None
