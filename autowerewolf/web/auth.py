"""LangGraph custom auth (`auth.path` in langgraph.json): who may use the server's API.

Authentication reads a token (tokens.py) from `Authorization: Bearer`, else the `aw_token`
cookie set by /aw/enter. Never from the address: the server's access log writes query
strings. The web app's static files and the link landing page (which takes the token from
its link and checks it itself) are open; everything else needs a genuine token.

Authorization of LangGraph's own API (/threads, /runs, /assistants, crons): the owner only.
The raw thread state, history and streams hold every seat's role and private results, so
seat and spectator tokens are refused there; they reach a game only through the app's
routes (app.py), which serve per-seat views. A resource or action without a handler would
be allowed, so one global handler denies by default. Deleting a thread is refused to
everyone: it would delete the game's checkpoints from the game database.
"""

from langgraph_sdk import Auth

from autowerewolf.web.tokens import verify

COOKIE = "aw_token"
# Open without a token: the page and its scripts hold no game data; /aw/enter takes the
# token from its link and checks it itself.
OPEN_PATHS = ("/", "/app", "/aw/enter")
OPEN_PREFIXES = ("/app/",)

auth = Auth()


def token_from(headers: dict[bytes, bytes]) -> str | None:
    bearer = (headers.get(b"authorization") or b"").decode("latin-1")
    if bearer.lower().startswith("bearer "):
        return bearer[7:].strip()
    for part in (headers.get(b"cookie") or b"").decode("latin-1").split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE and value:
            return value
    return None


@auth.authenticate
async def authenticate(headers: dict[bytes, bytes], path: str) -> Auth.types.MinimalUserDict:
    claims = verify(token_from(headers))
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
async def no_thread_deletion(ctx: Auth.types.AuthContext, value: dict[str, object]) -> bool:
    return False


@auth.on
async def owner_only(ctx: Auth.types.AuthContext, value: dict[str, object]) -> bool:
    return "owner" in ctx.permissions
