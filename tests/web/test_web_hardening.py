"""What a page of another site can do with a user's cookies, short of framing the app
(test_web_framing.py), request by request against the running server: every answer carries
the security headers, no GET changes anything or reads with a session named in the address,
a seat's answer time starts only with an explicit POST, and Studio's UI, a page of another
origin, is refused (docs/security.md, docs/architecture.md)."""

import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from langgraph_sdk import get_sync_client

from autowerewolf.web.auth import OPEN_PATHS, OPEN_PREFIXES
from autowerewolf.web.frames import all_records
from autowerewolf.web.gate import route_class
from autowerewolf.web.headers import SECURITY_HEADERS
from autowerewolf.web.reader import GameReader
from tests.fixed import HEX_SECRET
from tests.web.conftest import Server
from tests.web.walk import Table, owner_picture, waiting_game

pytestmark = pytest.mark.slow

FOREIGN = "http://127.0.0.1:1"  # another port of this machine: the same site, another origin
STUDIO = "https://smith.langchain.com"
# What a browser sends with an <img> or <script> of another site's page.
CROSS_SITE = {"Origin": FOREIGN, "Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "no-cors"}
NO_ORIGIN = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Dest": "image"}
# A fixed deal that plays the same every run: P03, a villager, is asked again after its
# first answer (with a fresh secret it might die before its second question).
P03_VILLAGER: dict[str, object] = {
    "seed": 5, "secret": HEX_SECRET, "default": "random", "seats": {"P03": "human"}
}  # fmt: skip


@pytest.fixture(scope="module")
def table(server: Server) -> Iterator[Table]:
    yield waiting_game(server)


def missing_headers(response: httpx.Response) -> list[str]:
    """The security headers the answer lacks, has twice, or has with another value."""
    wrong = []
    for name, value in SECURITY_HEADERS.items():
        given = response.headers.get_list(name.decode())
        if given != [value.decode()]:
            wrong.append(f"{name.decode()}: {given}")
    return wrong


def head_of(server: Server, method: str, path: str, **options: Any) -> httpx.Response:
    """The answer's status and headers; a stream is closed once they arrived."""
    with (
        httpx.Client(base_url=server.url, timeout=30, verify=False) as client,
        client.stream(method, path, **options) as response,
    ):
        return response


def test_every_answer_carries_the_security_headers(server: Server, table: Table) -> None:
    owner = {"Authorization": f"Bearer {server.owner}"}
    asked = [("GET", path, owner) for path in table.paths("GET")]  # pages, data, streams
    for method in ("GET", "POST"):  # refusals: 401, 404, 405
        asked += [(method, path, {}) for path in table.paths(method)]
    asked += [
        ("OPTIONS", "/aw/games", {"Origin": FOREIGN, "Access-Control-Request-Method": "POST"}),
        ("GET", "/internal/truncate", {}),  # closed: the gate's 404
        ("GET", "/aw/games", {"Host": "evil.example"}),  # the gate's 421
        ("POST", "/aw/games", {**owner, "Origin": FOREIGN}),  # the gate's 403
        ("GET", "/app/nothing-here.js", {}),  # the static files' 404
    ]
    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(pool.map(lambda a: head_of(server, a[0], a[1], headers=a[2]), asked))
    statuses = {a.status_code for a in answers}
    assert {200, 401, 404, 405, 421, 403} <= statuses
    wrong = [
        (method, path, answer.status_code, missing_headers(answer))
        for (method, path, _), answer in zip(asked, answers, strict=True)
    ]
    assert [w for w in wrong if w[3]] == []
    print(f"\n{len(asked)} answers, statuses {sorted(statuses)}, every one with the headers")


def test_no_get_of_another_site_changes_anything_or_names_a_session(
    server: Server, table: Table
) -> None:
    before = owner_picture(server, table.game)
    # The owner's browser holds the owner's and a seat's sessions; the address names them.
    jar = {"aw.owner": server.owner, f"aw.seat.{table.game}.P03": table.seat}
    sessions = ("owner", f"seat.{table.game}.P03")
    asked = [
        (f"{path}{'&' if '?' in path else '?'}session={session}", headers)
        for path in table.paths("GET")
        for session in sessions
        for headers in (CROSS_SITE, NO_ORIGIN)
    ]

    def get(path: str, headers: dict[str, str]) -> int:
        with (
            httpx.Client(base_url=server.url, cookies=jar, timeout=30, verify=False) as client,
            client.stream("GET", path, headers=headers) as response,
        ):
            return response.status_code

    with ThreadPoolExecutor(max_workers=6) as pool:
        statuses = list(pool.map(lambda a: get(*a), asked))
    honoured = [
        (path, status)
        for (path, _), status in zip(asked, statuses, strict=True)
        if refusal_of(path.split("?", 1)[0]) not in (None, status)
    ]
    assert honoured == []  # every route that needs a session refused: none was named
    assert owner_picture(server, table.game) == before
    # The cookies are good: named in the header, they are honoured.
    with httpx.Client(base_url=server.url, cookies=jar) as browser:
        for session in sessions:
            me = browser.get("/aw/me", headers={"X-AW-Session": session})
            assert me.status_code == 200 and me.json()["session"] == session
    print(f"\n{len(asked)} cross-site GETs, {statuses.count(401)} refused, nothing changed")


def refusal_of(path: str) -> int | None:
    """How a route refuses a request that names no session: closed ones are not found, open
    ones answer anyone (they hold no game data), the others need a token."""
    if route_class(path) == "closed":
        return 404
    return None if path in OPEN_PATHS or path.startswith(OPEN_PREFIXES) else 401


def human_latencies(server: Server, game: str) -> list[float]:
    reader = GameReader(server.db)
    try:
        records = all_records(reader.steps(game))
    finally:
        reader.close()
    return [r.latency_s for r in records if r.seat == "P03"]


def answer_now(server: Server, game: str, seat: httpx.Client, decision: dict[str, Any]) -> None:
    answered = len(human_latencies(server, game))
    text = "Hm." if decision["text"] else ""
    option = decision["options"][0]["option"]
    assert seat.post(
        f"/aw/games/{game}/answer", json={"key": decision["key"], "option": option, "text": text}
    ).is_success
    deadline = time.monotonic() + 60
    while len(human_latencies(server, game)) == answered:
        assert time.monotonic() < deadline, "the answer was never recorded"
        time.sleep(0.05)


def next_decision(seat: httpx.Client, game: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        decision = seat.get(f"/aw/games/{game}/decision").json()["decision"]
        if decision is not None:
            return dict(decision)
        time.sleep(0.05)
    raise AssertionError("the seat was asked nothing for 60 s")


def streamed_decision(seat: httpx.Client, game: str) -> dict[str, Any]:
    """The question the seat's own event stream brings with its turn (a GET, as its page
    reads it)."""
    event = ""
    with seat.stream("GET", f"/aw/games/{game}/events", timeout=60) as response:
        for line in response.iter_lines():
            if line.startswith("event:"):
                event = line[6:].strip()
            elif event == "status" and line.startswith("data:"):
                decision = json.loads(line[5:]).get("decision")
                if decision is not None:
                    return dict(decision)
    raise AssertionError("the seat's stream ended without a question")


def test_only_a_post_starts_a_seats_answer_time(server: Server) -> None:
    table, wait_s = waiting_game(server, P03_VILLAGER), 1.5
    with server.client(table.seat) as seat:
        next_decision(seat, table.game)  # a GET reads the question
        streamed = streamed_decision(seat, table.game)  # and so does the seat's stream
        time.sleep(wait_s)
        # The page shows the streamed question and POSTs its key: its time starts now.
        shown = seat.post(f"/aw/games/{table.game}/decision", json={"key": streamed["key"]})
        assert shown.json() == {"shown": streamed["key"]}
        answer_now(server, table.game, seat, streamed)
        assert human_latencies(server, table.game)[-1] < wait_s  # counted from the POST
        next_decision(seat, table.game)
        decision = seat.post(f"/aw/games/{table.game}/decision", json={}).json()["decision"]
        time.sleep(wait_s)
        answer_now(server, table.game, seat, decision)
        assert human_latencies(server, table.game)[-1] >= wait_s


def test_studios_page_cannot_use_the_server_and_the_sdk_with_the_token_can(
    server: Server,
) -> None:
    preflight = {
        "Origin": STUDIO,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,content-type,x-api-key",
    }
    owner = {"Authorization": f"Bearer {server.owner}"}
    for path in ("/info", "/assistants/search", "/threads/search"):
        refused = httpx.options(server.url + path, headers=preflight)
        assert refused.status_code >= 400 and "access-control-allow-origin" not in refused.headers
    # Studio's first request, with or without the owner's token: no page of Studio's origin
    # may read the answer (no CORS header), and what would change something is refused.
    for headers in ({"Origin": STUDIO}, {"Origin": STUDIO, **owner}):
        info = httpx.get(server.url + "/info", headers=headers)
        assert "access-control-allow-origin" not in info.headers
    assert httpx.get(server.url + "/info", headers={"Origin": STUDIO}).status_code == 401
    search = httpx.post(
        server.url + "/assistants/search", json={}, headers={"Origin": STUDIO, **owner}
    )
    assert search.status_code == 403
    # What docs/architecture.md says to use instead: the LangGraph SDK with the owner's token.
    client = get_sync_client(url=server.url, headers=owner)
    assert [a["graph_id"] for a in client.assistants.search()] == ["werewolf"]
