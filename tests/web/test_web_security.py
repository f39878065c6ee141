"""With a seat's or a spectator's token, nothing reveals another seat's role, private result
or reasoning: LangGraph's own API refuses them (401/403, or an error event in the body of a
stream that answered 200), the app's routes refuse other audiences and other games, and
every payload they do get passes the leak scan."""

import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from autowerewolf.rules.state import GameState
from autowerewolf.web.reader import GameReader
from tests.web.conftest import Server
from tests.web.leaks import leaks, parse_payloads

HUMANS = ("P03", "P05")
FORM = {
    "board": "12-A",
    "seed": 21,
    "default": "random",
    "seats": {"P01": "llm", "P02": "llm", "P03": "human", "P05": "human"},
}


def sse_payloads(client: httpx.Client, path: str, until_end: bool = True) -> list[str]:
    """The data of every message of one of the app's event streams."""
    payloads = []
    with client.stream("GET", path, timeout=120) as response:
        assert response.status_code == 200, response.read()
        for line in response.iter_lines():
            if line.startswith("data:"):
                payloads.append(line[5:].strip())
            if line.startswith("event: end") or (not until_end and line.startswith("event: ready")):
                break
    return payloads


@pytest.fixture(scope="module")
def played(server: Server) -> Iterator[dict[str, Any]]:
    """A game with two human seats and two LLM seats, probed while it waits for a human
    and then answered through the app's routes until it ends; every payload each seat and
    a spectator received along the way."""
    made = server.create(FORM)
    game = str(made["game"])
    links = dict(made["links"])  # type: ignore[arg-type]
    seat_tokens = {s: links[s].split("token=")[1] for s in HUMANS}
    spectator = links["spectator"].split("token=")[1]
    server.wait_status(game, "waiting")
    with server.client(server.owner) as owner:
        runs = owner.get(f"/threads/{game}/runs").json()
        checkpoint = owner.get(f"/threads/{game}/state").json()["checkpoint"]["checkpoint_id"]
        assistant = owner.post("/assistants/search", json={}).json()[0]["assistant_id"]
    yield {"game": game, "run": runs[0]["run_id"], "checkpoint": checkpoint,
           "assistant": assistant, "seats": seat_tokens, "spectator": spectator}  # fmt: skip


def test_raw_langgraph_api_is_closed_to_seats_and_spectators(
    server: Server, played: dict[str, Any]
) -> None:
    game, run, checkpoint = played["game"], played["run"], played["checkpoint"]
    assistant = played["assistant"]
    other_game = str(uuid.uuid4())
    who = {
        "none": None,
        "forged": played["seats"]["P03"][:-4] + "AAAA",
        "seat": played["seats"]["P03"],
        "spectator": played["spectator"],
        "other game's seat": server.token("seat", other_game, "P03"),
        "owner": server.owner,
    }
    body = {"assistant_id": "werewolf", "input": None}
    probes: list[tuple[str, str, object]] = [
        ("GET", f"/threads/{game}", None),
        ("GET", f"/threads/{game}/state", None),
        ("GET", f"/threads/{game}/state/{checkpoint}", None),
        ("GET", f"/threads/{game}/history", None),
        ("POST", f"/threads/{game}/history", {"limit": 5}),
        ("POST", "/threads/search", {}),
        ("POST", "/threads", {}),
        ("PATCH", f"/threads/{game}", {"metadata": {"x": 1}}),
        ("POST", f"/threads/{game}/state", {"values": {}}),
        ("POST", f"/threads/{game}/copy", None),
        ("GET", f"/threads/{game}/runs", None),
        ("GET", f"/threads/{game}/runs/{run}", None),
        ("GET", f"/threads/{game}/runs/{run}/join", None),
        ("POST", f"/threads/{game}/runs", body),
        ("POST", f"/threads/{game}/runs/wait", body),
        ("POST", "/runs/wait", {"assistant_id": "werewolf", "input": {}}),
        ("POST", "/assistants/search", {}),
        ("GET", f"/assistants/{assistant}", None),
        ("GET", f"/assistants/{assistant}/graph", None),
        ("GET", f"/assistants/{assistant}/schemas", None),
        ("POST", "/runs/crons/search", {}),
    ]
    streams = [
        ("GET", f"/threads/{game}/stream", None),
        ("GET", f"/threads/{game}/runs/{run}/stream", None),
        ("POST", f"/threads/{game}/runs/stream", body),
        ("POST", "/runs/stream", {"assistant_id": "werewolf", "input": {}}),
    ]
    calls = [
        (method, path, payload, name, token, (method, path, payload) in streams)
        for method, path, payload in probes + streams
        for name, token in who.items()
        # The owner may write and stream; only the owner's reads are checked.
        if name != "owner" or (method == "GET" and (method, path, payload) not in streams)
    ]
    with ThreadPoolExecutor(max_workers=8) as pool:
        codes = list(pool.map(lambda c: _status(server, *c[:3], c[4], stream=c[5]), calls))
    failures = []
    for (method, path, _, name, _, _), code in zip(calls, codes, strict=True):
        allowed = {"owner": {200}, "none": {401}, "forged": {401}}.get(name, {403})
        if code not in allowed:
            failures.append(f"{method} {path} as {name}: {code}")
    # Studio's header does not stand in for a token; deleting a game is refused to all.
    studio = httpx.get(f"{server.url}/threads/{game}/state", headers={"x-auth-scheme": "langsmith"})
    if studio.status_code != 401:
        failures.append(f"studio header: {studio.status_code}")
    for name in ("seat", "owner"):
        deleted = _status(server, "DELETE", f"/threads/{game}", None, who[name])
        if deleted != 403:
            failures.append(f"DELETE thread as {name}: {deleted}")
    assert failures == []


def _status(
    server: Server, method: str, path: str, body: object, token: str | None, stream: bool = False
) -> int:
    """The status, reading a stream's first messages: a denied thread stream answers 200
    and sends its 403 as an error event."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with httpx.Client(base_url=server.url, headers=headers, timeout=30) as client:
        if not stream:
            return client.request(method, path, json=body).status_code
        with client.stream(method, path, json=body, timeout=5) as response:
            if response.status_code != 200:
                return response.status_code
            seen = b""
            try:
                for chunk in response.iter_bytes():
                    seen += chunk
                    if b"event: error" in seen or len(seen) > 4000:
                        break
            except httpx.ReadTimeout:
                pass
            if b"event: error" in seen and b"403" in seen and b"werewolf" not in seen:
                return 403
            return 200


def test_app_routes_refuse_other_audiences_games_and_owner_actions(
    server: Server, played: dict[str, Any]
) -> None:
    game = played["game"]
    seat, spectator = played["seats"]["P03"], played["spectator"]
    other = server.token("seat", str(uuid.uuid4()), "P03")
    refused = [
        (seat, "GET", f"/aw/games/{game}?audience=god"),
        (seat, "GET", f"/aw/games/{game}?audience=P05"),
        (seat, "GET", f"/aw/games/{game}/events?audience=god"),
        (seat, "GET", f"/aw/games/{game}/events?audience=P05"),
        (seat, "GET", f"/aw/games/{game}/records/0?audience=god"),
        (seat, "GET", "/aw/choices"),
        (seat, "POST", "/aw/games"),
        (seat, "POST", f"/aw/games/{game}/resume"),
        (spectator, "GET", f"/aw/games/{game}?audience=P03"),
        (spectator, "GET", f"/aw/games/{game}/events?audience=god"),
        (spectator, "GET", f"/aw/games/{game}/records/0"),
        (spectator, "GET", f"/aw/games/{game}/decision"),
        (spectator, "POST", f"/aw/games/{game}/answer"),
        (other, "GET", f"/aw/games/{game}"),
        (other, "GET", f"/aw/games/{game}/events"),
        (other, "POST", f"/aw/games/{game}/answer"),
    ]
    failures = []
    for token, method, path in refused:
        with server.client(token) as client:
            response = client.request(method, path, json={})
        if response.status_code != 403:
            failures.append(f"{method} {path}: {response.status_code}")
    assert failures == []
    with server.client(seat) as client:
        assert [g["game"] for g in client.get("/aw/games").json()] == [game]
    assert httpx.get(f"{server.url}/aw/games").status_code == 401


def test_a_link_moves_its_token_into_a_private_cookie(
    server: Server, played: dict[str, Any]
) -> None:
    seat = played["seats"]["P03"]
    landing = httpx.get(f"{server.url}/aw/enter?token={seat}")
    assert landing.status_code == 303
    assert landing.headers["location"] == f"/app/#/game/{played['game']}"
    cookie = landing.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and seat.lower() in cookie
    assert httpx.get(f"{server.url}/aw/enter?token=seat.x.P03.bad").status_code == 401
    # Anywhere else a token in the address is ignored (the access log writes addresses).
    assert httpx.get(f"{server.url}/aw/me?token={seat}").status_code == 401
    with httpx.Client(base_url=server.url, cookies={"aw_token": seat}) as browser_like:
        assert browser_like.get("/aw/me").json() == {
            "kind": "seat", "game": played["game"], "seat": "P03"
        }  # fmt: skip
    # No other site's page may call the API with the cookie.
    foreign = httpx.options(
        f"{server.url}/aw/me",
        headers={"Origin": "http://evil.example", "Access-Control-Request-Method": "GET"},
    )
    assert "access-control-allow-origin" not in foreign.headers


def test_every_payload_a_seat_or_spectator_gets_passes_the_leak_scan(
    server: Server, played: dict[str, Any]
) -> None:
    game = played["game"]
    received: dict[str, list[str]] = {s: [] for s in HUMANS} | {"public": []}
    clients = {s: server.client(t) for s, t in played["seats"].items()}
    spectator = server.client(played["spectator"])
    try:
        answered = _play_to_the_end(server, game, clients, received)
        assert answered >= 4
        for seat, client in clients.items():
            for path in ("/aw/games", f"/aw/games/{game}", f"/aw/games/{game}?audience=public"):
                received[seat].append(client.get(path).text)
            received[seat] += sse_payloads(client, f"/aw/games/{game}/events")
            received[seat] += sse_payloads(client, f"/aw/games/{game}/events?audience=public")
            ref = 0
            while (detail := client.get(f"/aw/games/{game}/records/{ref}")).status_code == 200:
                received[seat].append(detail.text)
                ref += 1
            assert ref >= 2, seat  # its own decisions, and only those
        received["public"] += [spectator.get(f"/aw/games/{game}").text]
        received["public"] += sse_payloads(spectator, f"/aw/games/{game}/events")
    finally:
        for client in [*clients.values(), spectator]:
            client.close()
    truth = _truth(server, game)
    reader = GameReader(server.db)
    try:  # the server's own models (--models) played its LLM seats
        models = {r.model for r in reader.load(game).records if r.player == "llm"}
    finally:
        reader.close()
    assert models == {"fake"}
    for audience, texts in received.items():
        assert leaks(parse_payloads(texts), truth, audience) == [], audience
    # The god view has what the others must not: the scan would have caught it.
    with server.client(server.owner) as owner:
        god = sse_payloads(owner, f"/aw/games/{game}/events")
        detail = owner.get(f"/aw/games/{game}/records/0").json()
    assert leaks(parse_payloads(god), truth, "P03") != []
    assert "reasoning" in detail and "raw" in detail


def _play_to_the_end(
    server: Server, game: str, clients: dict[str, httpx.Client], received: dict[str, list[str]]
) -> int:
    """Each human seat answers its first legal option through the app until the game ends;
    a wrong answer first gets one clear error."""
    answered, deadline = 0, time.monotonic() + 180
    with server.client(server.owner) as owner:
        while owner.get(f"/aw/games/{game}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the game did not finish"
            for seat, client in clients.items():
                response = client.get(f"/aw/games/{game}/decision")
                received[seat].append(response.text)
                decision = response.json()["decision"]
                if decision is None:
                    continue
                if answered == 0:
                    bad = client.post(f"/aw/games/{game}/answer", json={"option": "P99"})
                    assert bad.status_code == 400 and "not legal" in bad.json()["detail"]
                option = decision["options"][0]["option"]
                text = f"{seat} has a feeling." if decision["text"] else ""
                reply = client.post(
                    f"/aw/games/{game}/answer", json={"option": option, "text": text}
                )
                assert reply.status_code == 200, reply.text
                received[seat].append(reply.text)
                answered += 1
            time.sleep(0.05)
    return answered


def _truth(server: Server, game: str) -> GameState:
    reader = GameReader(server.db)
    try:
        return reader.load(game).game
    finally:
        reader.close()
