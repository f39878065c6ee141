"""With a seat's or a spectator's token, nothing reveals another seat's role, private result
or reasoning: LangGraph's own API refuses them (401/403, or an error event in the body of a
stream that answered 200), the app's routes refuse other audiences and other games, and
every payload they do get passes the leak scan."""

import json
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from autowerewolf.rules.state import GameState
from autowerewolf.web.reader import GameReader
from tests.fixed import HEX_SECRET
from tests.security.attacker import seeds_with_names
from tests.web.conftest import Server, sse_payloads, token_of
from tests.web.leaks import leaks, parse_payloads

HUMANS = ("P03", "P05")
# A fixed secret deals the same game every run: one where both human seats decide often.
FORM = {
    "board": "12-A",
    "seed": 21,
    "secret": HEX_SECRET,
    "default": "random",
    "seats": {"P01": "llm", "P02": "llm", "P03": "human", "P05": "human"},
}


@pytest.fixture(scope="module")
def played(server: Server) -> Iterator[dict[str, Any]]:
    """A game with two human seats and two LLM seats, probed while it waits for a human
    and then answered through the app's routes until it ends; every payload each seat and
    a spectator received along the way."""
    made = server.create(FORM)
    game = str(made["game"])
    links = dict(made["links"])  # type: ignore[arg-type]
    seat_tokens = {s: token_of(links[s]) for s in HUMANS}
    spectator = token_of(links["spectator"])
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
    with server.client(token) as client:
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
        (seat, "POST", "/aw/tournaments"),
        (spectator, "POST", "/aw/tournaments"),
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


def test_a_link_becomes_a_session_of_its_own_beside_the_others(
    server: Server, played: dict[str, Any]
) -> None:
    seat, game = played["seats"]["P03"], played["game"]
    started = httpx.post(f"{server.url}/aw/session", json={"token": seat})
    assert started.status_code == 200
    assert started.json()["session"] == f"seat.{game}.P03"
    cookie = started.headers["set-cookie"].lower()
    assert cookie.startswith(f"aw.seat.{game}.p03=".lower()) and seat.lower() in cookie
    assert "httponly" in cookie and "samesite=strict" in cookie and "max-age=" in cookie
    for bad in ("seat.x.P03.1.0.bad", seat[:-2] + "xx", "", None):
        assert httpx.post(f"{server.url}/aw/session", json={"token": bad}).status_code == 401
    # An owner's and a seat's session in one browser: each request names the one it uses,
    # and a cookie that is not named is never used.
    jar = {"aw.owner": server.owner, f"aw.seat.{game}.P03": seat}
    with httpx.Client(base_url=server.url, cookies=jar) as browser:
        assert browser.get("/aw/me").status_code == 401
        as_owner = browser.get("/aw/me", headers={"X-AW-Session": "owner"}).json()
        as_seat = browser.get("/aw/me", headers={"X-AW-Session": f"seat.{game}.P03"}).json()
        assert (as_owner["kind"], as_seat["kind"], as_seat["seat"]) == ("owner", "seat", "P03")
        held = {s["session"] for s in browser.get("/aw/sessions").json()}
        assert held == {"owner", f"seat.{game}.P03"}
        # The address never names a session, for reading or for writing.
        assert browser.get(f"/aw/me?session=seat.{game}.P03").status_code == 401
        assert browser.post("/aw/games/x/resume?session=owner", json={}).status_code == 401
    # A token in the address is ignored anywhere (the access log writes addresses).
    assert httpx.get(f"{server.url}/aw/me?token={seat}").status_code == 401
    # No other site's page may call the API with the cookie.
    foreign = httpx.options(
        f"{server.url}/aw/me",
        headers={"Origin": "http://evil.example", "Access-Control-Request-Method": "GET"},
    )
    assert "access-control-allow-origin" not in foreign.headers


def test_a_page_of_another_port_cannot_act_with_the_owners_cookie(server: Server) -> None:
    form = {"board": "8-arena", "default": "random"}
    other = "http://127.0.0.1:1"  # another port of this machine: the same site
    with server.client(server.owner) as owner:
        games_before = len(owner.get("/aw/games").json())
        threads_before = owner.post("/threads/count", json={}).json()
    attempts = [
        # What a cross-site form or no-cors fetch can send: a simple body, no custom header.
        ("/aw/games", {"Content-Type": "text/plain", "Origin": other}, False),
        ("/aw/tournaments", {"Content-Type": "text/plain", "Origin": other}, False),
        ("/aw/games", {"Content-Type": "text/plain"}, False),
        ("/aw/games", {"Content-Type": "application/x-www-form-urlencoded"}, False),
        ("/aw/games", {"Content-Type": "text/plain", "Sec-Fetch-Site": "same-site"}, False),
        ("/aw/games", {"Content-Type": "application/json"}, False),  # a cookie not named
        # Even naming the session (which a browser would preflight and refuse):
        ("/aw/games", {"Content-Type": "application/json", "Origin": other}, True),
        ("/threads", {"Content-Type": "application/json", "Origin": other}, True),
        ("/internal/truncate", {"Content-Type": "text/plain"}, True),
    ]
    with httpx.Client(base_url=server.url, cookies={"aw.owner": server.owner}) as browser:
        for path, headers, named in attempts:
            sent = {**headers, **({"X-AW-Session": "owner"} if named else {})}
            response = browser.post(path, content=json.dumps(form), headers=sent)
            assert response.status_code in (401, 403, 404, 415), (path, headers, response.text)
        # The owner's own page (same origin, its session named) still works.
        made = browser.post(
            "/aw/games", json=form, headers={"X-AW-Session": "owner", "Origin": server.url}
        )
        assert made.status_code == 201, made.text
    with server.client(server.owner) as owner:
        server.wait_status(made.json()["game"], "finished")
        assert len(owner.get("/aw/games").json()) == games_before + 1
        assert owner.post("/threads/count", json={}).json() == threads_before + 1


def test_the_owner_revokes_a_seats_link_and_hands_out_a_new_one(
    server: Server, played: dict[str, Any]
) -> None:
    game = played["game"]
    made = server.create({**FORM, "seed": 5})
    fresh = str(made["game"])
    old = token_of(dict(made["links"])["P03"])  # type: ignore[arg-type]
    with server.client(old) as holder:
        assert holder.get("/aw/me").status_code == 200
    with server.client(server.owner) as owner:
        renewed = owner.post(f"/aw/games/{fresh}/links/P03/revoke", json={})
        assert renewed.status_code == 200
        new = token_of(renewed.json()["link"])
        assert owner.get(f"/aw/games/{fresh}").json()["links"]["P03"] == renewed.json()["link"]
        for holder in ("P01", "god", "P99"):  # not human seats of the game
            refused = owner.post(f"/aw/games/{fresh}/links/{holder}/revoke", json={})
            assert refused.status_code == 404
    for path in ("/aw/me", f"/aw/games/{fresh}", f"/aw/games/{fresh}/decision"):
        with server.client(old) as holder:
            assert holder.get(path).status_code == 401, path
    with server.client(new) as holder:
        assert holder.get("/aw/me").json()["seat"] == "P03"
    with server.client(played["seats"]["P03"]) as other_game_seat:  # another game untouched
        assert other_game_seat.get(f"/aw/games/{game}").status_code == 200
        refused = other_game_seat.post(f"/aw/games/{fresh}/links/P03/revoke", json={})
        assert refused.status_code == 403
    expired = server.token("seat", fresh, "P03", expires_in_s=-1)
    with server.client(expired) as holder:
        assert holder.get("/aw/me").status_code == 401


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
                    bad = client.post(
                        f"/aw/games/{game}/answer", json={"key": decision["key"], "option": "P99"}
                    )
                    assert bad.status_code == 400 and "not legal" in bad.json()["detail"]
                option = decision["options"][0]["option"]
                text = f"{seat} has a feeling." if decision["text"] else ""
                reply = client.post(
                    f"/aw/games/{game}/answer",
                    json={"key": decision["key"], "option": option, "text": text},
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


def test_a_lobby_game_cannot_be_found_from_its_public_names(server: Server) -> None:
    """A hand-typed lobby seed: the spectator's public transcript names every seat, and no
    seed of 0-10^5 drawn alone gives those names (docs/security.md)."""
    made = server.create({"seed": 1000, "default": "random", "board": "8-arena"})
    game = str(made["game"])
    server.wait_status(game, "finished")
    spectator = token_of(dict(made["links"])["spectator"])  # type: ignore[arg-type]
    with server.client(spectator) as watcher:
        frames = [json.loads(p) for p in sse_payloads(watcher, f"/aw/games/{game}/events")]
    start = next(e for f in frames for e in f.get("events", []) if e["kind"] == "game_start")
    names = [pair.split("=", 1)[1] for pair in start["line"].split(": ", 1)[1].split(", ")]
    assert len(names) == 8
    assert seeds_with_names(names, range(100_000)) == []


def test_the_lobby_lists_when_each_game_started_and_only_the_owner_sees_seeds(
    server: Server, played: dict[str, Any]
) -> None:
    with server.client(server.owner) as owner:
        listed = {g["game"]: g for g in owner.get("/aw/games").json()}
    mine = listed[played["game"]]
    assert mine["started"] and mine["started"][:4] == time.strftime("%Y")
    assert isinstance(mine["seed"], str) and int(mine["seed"]) == FORM["seed"]
    with server.client(played["spectator"]) as spectator:
        (seen,) = spectator.get("/aw/games").json()
    assert "seed" not in seen and seen["started"] == mine["started"]
