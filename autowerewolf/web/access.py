"""Who may see what through the app's routes.

The app's routes reach the graph with the in-process client, which skips LangGraph's auth,
so every route decides here from the caller's token: the owner may see any game from any
audience; a seat token sees its own game as its seat or as the public; a spectator token
sees its game as the public.
"""

from starlette.exceptions import HTTPException
from starlette.requests import Request

from autowerewolf.web.frames import GOD, PUBLIC
from autowerewolf.web.links import authenticated
from autowerewolf.web.sessions import token_from
from autowerewolf.web.tokens import Claims


def claims_of(request: Request) -> Claims:
    # LangGraph's auth middleware (http.enable_custom_route_auth) has already refused bad
    # tokens on our routes; reading the token again keeps the routes correct without it.
    headers = dict(request.scope.get("headers", []))
    claims = authenticated(token_from(headers))
    if claims is None:
        raise HTTPException(401, "missing or invalid token")
    return claims


def require_owner(claims: Claims) -> None:
    if not claims.is_owner:
        raise HTTPException(403, "only the server's owner may do this")


def require_game(claims: Claims, game_id: str) -> None:
    if not claims.is_owner and claims.game != game_id:
        raise HTTPException(403, "this token is for another game")


def audience_for(claims: Claims, game_id: str, requested: str | None, seats: list[str]) -> str:
    """The audience the caller asked for, if its token allows it; by default the widest it
    may see."""
    require_game(claims, game_id)
    if claims.is_owner:
        audience = requested or GOD
        if audience not in (GOD, PUBLIC, *seats):
            raise HTTPException(400, f"audience must be god, public or a seat of {seats}")
        return audience
    if claims.kind == "seat":
        if requested in (None, "", claims.seat):
            return str(claims.seat)
        if requested == PUBLIC:
            return PUBLIC
        raise HTTPException(403, "a seat's link shows its own seat or the public view")
    if requested in (None, "", PUBLIC):
        return PUBLIC
    raise HTTPException(403, "a spectator's link shows the public view")
