"""Every route the running server answers, asked by every kind of caller that is not its
owner (docs/security.md): no token, a spectator's, a seat's, a tampered one, one of another
game, an expired one and a revoked one, each sent as a Bearer header and as a browser's
session cookie. The route table comes from the server itself, so a route LangGraph adds in
a new release is attacked too. No answer may carry what its caller must not know, and no
request may change anything: afterwards the game still waits for its human seats, and they
still play it. No token, sent anywhere, reaches the server's log."""

import re
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from autowerewolf.rules.state import GameState
from autowerewolf.web.auth import OPEN_PATHS
from autowerewolf.web.gate import route_class
from autowerewolf.web.reader import GameReader
from tests.web.conftest import Server, token_of
from tests.web.leaks import leaks, parse_payloads

FORM = {"board": "12-A", "default": "random", "seats": {"P03": "human", "P05": "human"}}
# Where a route answers with game data to a caller other than the owner, and for which
# audience the answer must pass the leak scan. Everything else must refuse.
STREAM_BYTES = 20_000
# A seat's question, asked with a POST that starts the seat's own answer time: a read of
# what the caller may see, leak-scanned like a GET.
READ_BY_POST = "/decision"


@dataclass(frozen=True)
class Caller:
    name: str
    token: str | None
    audience: str  # what the caller may see of this game: a seat, or public
    genuine: bool  # a live token (the app's routes may answer it)
    of_this_game: bool = True  # may read this game at all


@dataclass(frozen=True)
class Probe:
    method: str
    path: str
    caller: Caller
    transport: str  # bearer or cookie


@pytest.fixture(scope="module")
def table(server: Server) -> Iterator[dict[str, Any]]:
    made = server.create(FORM)
    game, links = str(made["game"]), dict(made["links"])  # type: ignore[arg-type]
    server.wait_status(game, "waiting")
    with server.client(server.owner) as owner:
        run = owner.get(f"/threads/{game}/runs").json()[0]["run_id"]
        checkpoint = owner.get(f"/threads/{game}/state").json()["checkpoint"]["checkpoint_id"]
        assistant = owner.post("/assistants/search", json={}).json()[0]["assistant_id"]
        routes = owner.get("/aw/routes").json()
        revoked = token_of(links["P05"])
        renewed = owner.post(f"/aw/games/{game}/links/P05/revoke", json={})
        assert renewed.status_code == 200, renewed.text
        threads_before = owner.post("/threads/count", json={}).json()
    seat = token_of(links["P03"])
    tampered = seat[:-3] + ("AAA" if not seat.endswith("AAA") else "BBB")
    callers = [
        Caller("none", None, "public", False),
        Caller("spectator", token_of(links["spectator"]), "public", True),
        Caller("seat", seat, "P03", True),
        Caller("tampered", tampered, "public", False),
        Caller("other game", server.token("seat", str(uuid.uuid4()), "P03"), "public", True, False),
        Caller("expired", server.token("seat", game, "P03", expires_in_s=-5), "public", False),
        Caller("revoked", revoked, "public", False),
        Caller("new P05", token_of(renewed.json()["link"]), "P05", True),
    ]  # fmt: skip
    values = {
        "thread_id": game, "game": game, "run_id": run, "checkpoint_id": checkpoint,
        "assistant_id": assistant, "ref:int": "0", "holder": "P03", "operation_id": "op",
        "cron_id": str(uuid.uuid4()), "namespace": "ns",
    }  # fmt: skip
    yield {"game": game, "routes": routes, "callers": callers, "values": values,
           "threads_before": threads_before, "seat": seat}  # fmt: skip


def concrete(path: str, values: dict[str, str]) -> str:
    filled = re.sub(r"\{([^}]+)\}", lambda m: values[m.group(1)], path)
    return filled + "/index.html" if filled == "/app" else filled


def probes(table: dict[str, Any]) -> list[Probe]:
    found = []
    for route in table["routes"]:
        path = concrete(route["path"], table["values"])
        methods = ["GET", "POST"] if route["methods"] == ["*"] else route["methods"]
        for method in (m for m in methods if m != "HEAD"):
            for caller in table["callers"]:
                for transport in ("bearer", "cookie") if caller.token else ("bearer",):
                    found.append(Probe(method, path, caller, transport))
    return found


def ask(server: Server, probe: Probe) -> tuple[int, str]:
    headers = {"Content-Type": "application/json"}
    cookies = {}
    if probe.caller.token and probe.transport == "bearer":
        headers["Authorization"] = f"Bearer {probe.caller.token}"
    elif probe.caller.token:  # as the browser's page sends it
        session = ".".join(p for p in probe.caller.token.split(".")[:3] if p != "-")
        cookies[f"aw.{session}"] = probe.caller.token
        headers["X-AW-Session"] = session
    body = None if probe.method in ("GET", "DELETE") else "{}"
    with (
        # A client per request, so no cookie carries over; plain HTTP on 127.0.0.1 has no
        # TLS to verify, and loading the CA bundle cost 40 ms of CPU per client.
        httpx.Client(base_url=server.url, cookies=cookies, timeout=30, verify=False) as client,
        client.stream(probe.method, probe.path, headers=headers, content=body) as response,
    ):
        seen = b""
        try:
            for chunk in response.iter_bytes():
                seen += chunk
                if len(seen) > STREAM_BYTES or b"event: ready" in seen:
                    break
        except httpx.ReadTimeout:
            pass
        return response.status_code, seen.decode(errors="replace")


def sse_or_json(text: str) -> list[Any]:
    if "data:" in text and text.lstrip().startswith(("event:", "id:", "data:", ":")):
        return parse_payloads(
            line[5:].strip() for line in text.splitlines() if line.startswith("data:")
        )
    return parse_payloads([text])


def judge(probe: Probe, status: int, text: str, truth: GameState, game: str) -> list[str]:
    where = f"{probe.method} {probe.path} as {probe.caller.name} ({probe.transport}): {status}"
    if not 200 <= status < 300:
        return []
    if game in probe.path and not probe.caller.of_this_game:
        return [f"{where}: another game's token read this game"]
    kind = "open" if probe.path in OPEN_PATHS else route_class(probe.path)
    if kind == "open":
        return [f"{where}: an open route answered a write"] if probe.method != "GET" else []
    if kind != "app" or not probe.caller.genuine:
        return [f"{where}: answered"]
    if probe.method != "GET" and not probe.path.endswith(READ_BY_POST):
        return [f"{where}: changed state"]
    return [f"{where}: {leak}" for leak in leaks(sse_or_json(text), truth, probe.caller.audience)]


def test_every_route_refuses_or_answers_without_a_leak(
    server: Server, table: dict[str, Any]
) -> None:
    every = probes(table)
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(lambda p: ask(server, p), every))
    reader = GameReader(server.db)
    try:
        truth = reader.load(table["game"]).game
    finally:
        reader.close()
    game = table["game"]
    failures = [
        f for p, (s, t) in zip(every, answers, strict=True) for f in judge(p, s, t, truth, game)
    ]
    assert failures == []
    answered = sum(200 <= s < 300 for s, _ in answers)
    print(f"\n{len(table['routes'])} routes, {len(every)} requests, {answered} answered, 0 leaks")
    # Routes outside LangGraph's auth, asked without a token, are closed (404) or refused.
    for path in ("/internal/truncate", "/internal/debug/thread/x", "/deploy", "/docs"):
        assert httpx.post(server.url + path).status_code == 404
        assert httpx.get(server.url + path).status_code == 404
    for path in ("/metrics", "/info", "/openapi.json"):
        assert httpx.get(server.url + path).status_code == 401
    # Nothing changed: the same threads, the game still waits, and its seats still play.
    with server.client(server.owner) as owner:
        assert owner.post("/threads/count", json={}).json() == table["threads_before"]
        assert owner.get(f"/aw/games/{table['game']}").json()["status"] == "waiting"
    decisions = []
    for caller in (c for c in table["callers"] if c.name in ("seat", "new P05")):
        with server.client(caller.token) as seat:
            decisions.append(seat.get(f"/aw/games/{table['game']}/decision").json()["decision"])
    assert any(d is not None for d in decisions)


def test_no_token_reaches_the_servers_log(server: Server, table: dict[str, Any]) -> None:
    game, seat = table["game"], table["seat"]
    for path in (f"/aw/games/{game}", "/threads/search", "/nowhere", "/aw/me"):
        httpx.get(f"{server.url}{path}?token={seat}&audience=P03")
    httpx.get(f"{server.url}/aw/me", headers={"Authorization": f"Bearer {seat}x"})
    # `serve` prints the owner's link for the owner (its standard output), and nothing else.
    lines = server.log.read_text(errors="replace").splitlines()
    log = "\n".join(line for line in lines if not line.startswith("owner link (keep it private)"))
    held = [c.token for c in table["callers"] if c.token] + [server.owner]
    signatures = {token.rsplit(".", 1)[1] for token in held}
    assert [s for s in signatures if s in log] == []
