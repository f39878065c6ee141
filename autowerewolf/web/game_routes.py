"""The web app's routes of one game as its audience sees and plays it: the game's header,
its live events, the drill-down of one decision, and a human seat's question and answer.
Route handlers carry comments, not docstrings: the server parses docstrings as YAML.
"""

from typing import Any

from sse_starlette import EventSourceResponse
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from autowerewolf.rules.views import seat_view
from autowerewolf.seeding import is_server_game
from autowerewolf.web import server_games
from autowerewolf.web.access import claims_of, require_game
from autowerewolf.web.frames import GOD, PUBLIC, all_records, is_seat, me_json, record_detail
from autowerewolf.web.frames import visible_records as records_for
from autowerewolf.web.handling import read, runtime, seen_as, user_errors
from autowerewolf.web.humans import question_of
from autowerewolf.web.links import links_of
from autowerewolf.web.live import live_messages


async def game(request: Request) -> Response:
    # The game's header for one audience: who the caller is, what it may switch to, its
    # own standing if it is a seat, and (owner) the links to hand out.
    game_id, claims, game, audience = await seen_as(request)
    seats = [s.id for s in game.seats]
    row = await read(runtime.reader.row, game_id)
    body: dict[str, Any] = {**row.public(), "audience": audience}
    body["server"] = is_server_game(game_id)
    if claims.is_owner:
        body["audiences"] = [GOD, PUBLIC, *seats]
        body.update(seed=row.seed, status=row.status)
        if body["server"]:  # command-line games are the owner's to replay
            humans = [s for s, kind in row.seats.items() if kind == "human"]
            body["links"] = await read(links_of, game_id, humans)
    elif claims.kind == "seat":
        body["audiences"] = [claims.seat, PUBLIC]
    else:
        body["audiences"] = [PUBLIC]
    if is_seat(audience):  # its own events too: how it died is told in them
        events = (await read(runtime.reader.load, game_id)).events
        body["me"] = me_json(seat_view(game, events, audience))
    return JSONResponse(body)


async def events(request: Request) -> Response:
    game_id, claims, _, audience = await seen_as(request)
    last = request.headers.get("last-event-id", "")
    after = int(last) if last.isdigit() else -1
    own = claims.kind == "seat" and claims.seat == audience  # the seat's own page
    messages = live_messages(runtime.reader, runtime.box, game_id, audience, after, own)
    return EventSourceResponse(messages, ping=15)


async def record(request: Request) -> Response:
    # The drill-down of one decision: ref numbers the audience's own records.
    game_id, _, _, audience = await seen_as(request)
    if audience == PUBLIC:
        raise HTTPException(403, "decisions are shown to their own seat and in the god view")
    steps = await read(runtime.reader.steps, game_id)
    visible = records_for(all_records(steps), audience)
    ref = request.path_params["ref"]
    if not 0 <= ref < len(visible):
        raise HTTPException(404, f"no decision {ref} for this audience")
    return JSONResponse(record_detail(visible[ref], ref, audience))


def answering_seat(request: Request) -> tuple[str, str]:
    """The game of the request and the seat whose link asks: only a seat answers for a seat."""
    game_id = request.path_params["game"]
    claims = claims_of(request)
    require_game(claims, game_id)
    if claims.kind != "seat" or claims.seat is None:
        raise HTTPException(403, "only a seat's link answers for a seat")
    return game_id, claims.seat


async def decision(request: Request) -> Response:
    # What this seat is asked now, if the game waits for its answer. A GET only reads it; a
    # POST says the seat's page shows it now, which starts the seat's answer time (no GET
    # changes anything: another site's <img> can send one with the user's cookies).
    game_id, seat = answering_seat(request)
    pending = await server_games.pending_interrupt(game_id)
    if pending is None or seat not in pending["value"]["seats"]:
        return JSONResponse({"decision": None})
    if runtime.box.answered(game_id, pending["id"], seat):
        return JSONResponse({"decision": None, "answered": True})
    shown = request.method == "POST"
    if shown and await _names_the_question(request, pending):
        # The page has the question from its stream: its time starts; nothing to read.
        runtime.box.shown(game_id, pending["id"], seat)
        return JSONResponse({"shown": pending["value"]["key"]})
    with user_errors():
        asked = await question_of(runtime.reader, runtime.box, game_id, pending, seat, shown)
    return JSONResponse({"decision": asked})


async def _names_the_question(request: Request, pending: dict[str, Any]) -> bool:
    """Whether a POST's body is `{"key": K}` with K the key of the pending question."""
    try:
        body = await request.json()
    except ValueError:  # no body, or not JSON: the plain request for the question
        return False
    return isinstance(body, dict) and body.get("key") == pending["value"]["key"]


async def answer(request: Request) -> Response:
    game_id, seat = answering_seat(request)
    try:
        body = await request.json()
    except ValueError:
        raise HTTPException(400, "the answer must be JSON") from None
    return JSONResponse(await runtime.box.answer(game_id, seat, body))
