"""Which token a request carries: an `Authorization: Bearer` header (API clients), or one of
the browser's session cookies, named by the request.

Each link opened in a browser becomes a session of its own, in an HttpOnly cookie named
after its holder (`aw.owner`, `aw.seat.GAME.P03`, `aw.spectator.GAME`), so the owner's
session and seats' or spectators' sessions of other games live side by side and opening one
link never replaces another's cookie. Every request of the page, its event streams too,
names its session in the `X-AW-Session` header, and nothing else names one: never the
address, which any page can put in a link, an `<img>` or a `<script>`. A cookie is never
used unless the request names it, and a page of another site cannot name one (a custom
header needs a CORS preflight, which the server refuses), so it cannot act or read with the
user's cookies.
"""

from collections.abc import Mapping

from starlette.requests import cookie_parser

COOKIE_PREFIX = "aw."
SESSION_HEADER = b"x-aw-session"
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


def named_session(headers: Mapping[bytes, bytes]) -> str:
    return (headers.get(SESSION_HEADER) or b"").decode("latin-1").strip()


def token_from(headers: Mapping[bytes, bytes]) -> str | None:
    bearer = (headers.get(b"authorization") or b"").decode("latin-1")
    if bearer.lower().startswith("bearer "):
        return bearer[7:].strip() or None
    session = named_session(headers)
    return session_cookies(headers).get(session) if session else None
