"""The headers every answer of the server carries, whichever part of it answers (our pages,
data and streams, LangGraph's API, the gate's refusals, an error page):

- no page of another site may frame ours (`frame-ancestors 'none'`, and `X-Frame-Options`
  for browsers that predate it): a framed app under a decoy button would click for its user;
- no answer is read as another type than it says (`nosniff`), so JSON included by a
  `<script>` or `<img>` of another site is refused rather than run or shown;
- no address of ours, which may name a game, travels to another site (`no-referrer`);
- no other site's page may load an answer of ours as a resource (`Cross-Origin-Resource-
  Policy`), which keeps its bytes out of that page's process.

One middleware, outermost, sets them on every response start, replacing any the app set. A
failure no handler caught is answered here, with them, before Starlette's error handler
(outside every middleware) logs it.
"""

import json

from autowerewolf.web.gate import ASGIApp, Message, Receive, Scope, Send

SECURITY_HEADERS: dict[bytes, bytes] = {
    b"content-security-policy": b"frame-ancestors 'none'",
    b"x-frame-options": b"DENY",
    b"x-content-type-options": b"nosniff",
    b"referrer-policy": b"no-referrer",
    b"cross-origin-resource-policy": b"same-origin",
}


def with_security_headers(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    kept = [(name, value) for name, value in headers if name.lower() not in SECURITY_HEADERS]
    return kept + list(SECURITY_HEADERS.items())


class SecurityHeaders:
    """ASGI middleware: the security headers on every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        started = False

        async def send_secured(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = with_security_headers(list(message.get("headers", [])))
            await send(message)

        try:
            await self.app(scope, receive, send_secured)
        except Exception:
            if not started:
                await _internal_error(send_secured)
            raise


async def _internal_error(send: Send) -> None:
    body = json.dumps({"detail": "internal server error"}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    await send({"type": "http.response.start", "status": 500, "headers": headers})
    await send({"type": "http.response.body", "body": body})
