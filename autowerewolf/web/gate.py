"""The gate in front of the whole server: every request from outside passes here first.

The LangGraph server mounts routes of its own beside our app and its API, some outside its
auth (the in-memory runtime's `/internal/...` and `/deploy`, `/metrics`, `/docs` ...). So
the gate decides by path, for every route, before anything else runs:

- our pages and data (`/`, `/app/...`, `/aw/...`): passed on; each route checks its caller
  (access.py);
- LangGraph's API (`/threads`, `/runs`, `/assistants`) and its descriptions (`/info`,
  `/openapi.json`, `/metrics`): the owner only;
- `/ok` (a health check that says nothing): open;
- anything else, now or in a future LangGraph release: 404.

It also refuses what a page of another site could send with the user's cookies
(docs/security.md): a state-changing request whose `Origin` or `Sec-Fetch-Site` says it
came from elsewhere, or whose body is not JSON (forms and `text/plain` need no CORS
preflight), and any request whose `Host` is not the loopback name it serves (a name that
only resolves to 127.0.0.1 is another site). It takes tokens out of every query string, so
that no log line ever holds one. The server's own in-process client (root path `/noauth`)
passes untouched: it only runs code of ours that has already authorized its user.
"""

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qsl, urlencode

from autowerewolf.web.links import authenticated
from autowerewolf.web.sessions import SAFE_METHODS, token_from

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

OPEN_PATHS = ("/", "/app", "/ok")
OPEN_PREFIXES = ("/app/",)
APP_PREFIX = "/aw/"
OWNER_PREFIXES = ("/threads", "/runs", "/assistants", "/info", "/openapi.json", "/metrics")
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
SCRUBBED_PARAMS = ("token",)


def route_class(path: str) -> str:
    """open, app, owner or closed."""
    if path in OPEN_PATHS or path.startswith(OPEN_PREFIXES):
        return "open"
    if path.startswith(APP_PREFIX):
        return "app"
    if any(path == p or path.startswith(p + "/") for p in OWNER_PREFIXES):
        return "owner"
    return "closed"


def scrubbed(query_string: bytes) -> bytes:
    """The query string without tokens (the access log writes query strings)."""
    if not query_string:
        return query_string
    pairs = parse_qsl(query_string.decode("latin-1"), keep_blank_values=True)
    kept = [(k, v) for k, v in pairs if k.lower() not in SCRUBBED_PARAMS]
    return query_string if len(kept) == len(pairs) else urlencode(kept).encode("latin-1")


def _is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and "+json" in media)


def _has_body(headers: dict[bytes, bytes]) -> bool:
    length = headers.get(b"content-length", b"").strip()
    return b"transfer-encoding" in headers or length not in (b"", b"0")


def cross_site_refusal(
    method: str, headers: dict[bytes, bytes], scheme: str, exposed: bool
) -> tuple[int, str] | None:
    """Why a request must be refused as coming from another site, or None."""
    host = headers.get(b"host", b"").decode("latin-1").lower()
    hostname = host if host.endswith("]") else host.rsplit(":", 1)[0]
    if not exposed and hostname not in LOOPBACK_NAMES:
        return 421, f"this server answers to {', '.join(LOOPBACK_NAMES)} only"
    if method in SAFE_METHODS or method == "OPTIONS":
        return None
    fetch_site = headers.get(b"sec-fetch-site", b"").decode("latin-1").lower()
    if fetch_site and fetch_site not in ("same-origin", "none"):
        return 403, "a request from another site (or another port) is refused"
    origin = headers.get(b"origin", b"").decode("latin-1").lower()
    if origin and origin != f"{scheme}://{host}":
        return 403, "a request from another origin is refused"
    content_type = headers.get(b"content-type", b"").decode("latin-1")
    if _has_body(headers) and not _is_json(content_type):
        return 415, "the body must be JSON (Content-Type: application/json)"
    return None


class Gate:
    """ASGI middleware; `exposed` (serve --expose) answers any Host name."""

    def __init__(self, app: ASGIApp, exposed: bool = False) -> None:
        self.app = app
        self.exposed = exposed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        inside = str(scope.get("root_path", "")).startswith("/noauth")
        if scope["type"] not in ("http", "websocket") or inside:
            await self.app(scope, receive, send)
            return
        scope["query_string"] = scrubbed(scope.get("query_string", b""))
        if scope["type"] == "websocket":  # the app has none; LangGraph's are the owner's API
            await send({"type": "websocket.close", "code": 1008})
            return
        refusal = self.refusal(scope)
        if refusal is not None:
            await _respond(send, *refusal)
            return
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        headers = dict(scope.get("headers", []))
        method = str(scope.get("method", "GET")).upper()
        kind = route_class(str(scope.get("path", "")))
        if kind == "closed":
            return 404, "not found"
        scheme = str(scope.get("scheme", "http"))
        refusal = cross_site_refusal(method, headers, scheme, self.exposed)
        if refusal is not None or kind != "owner":
            return refusal
        claims = authenticated(token_from(headers))
        if claims is None:
            return 401, "missing or invalid token"
        if not claims.is_owner:
            return 403, "LangGraph's API is the server owner's only"
        return None


async def _respond(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
