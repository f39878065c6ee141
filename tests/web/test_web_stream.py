"""The page's event stream, read with fetch so that it names its session in a header
(docs/security.md): when a stream ends early it reconnects from the last frame it got, as
EventSource would (`Last-Event-ID`), so the page misses no frame and shows none twice."""

import json
import time
from typing import Any

import pytest

from tests.web.browser import VIEWPORT
from tests.web.conftest import Server, answer_some
from tests.web.walk import waiting_game

pytestmark = pytest.mark.slow

PLIES = "performance.getEntriesByName('aw-frame').map(m => m.detail.ply)"
FIRST_FRAMES = 4  # at most: a seat with a night role is asked after the first


def saved_messages(server: Server, game: str) -> list[str]:
    """The god view's backlog as the server streams it now: one text per SSE message."""
    messages: list[str] = []
    lines: list[str] = []
    with (
        server.client(server.owner) as owner,
        owner.stream("GET", f"/aw/games/{game}/events", timeout=60) as response,
    ):
        for line in response.iter_lines():
            if line:
                lines.append(line)
                continue
            messages.append("\n".join(lines) + "\n\n")
            if "event: ready" in lines:
                return messages
            lines = []
    raise AssertionError("the stream ended before its backlog did")


def field(message: str, name: str) -> str:
    return next(line[len(name) + 2 :] for line in message.splitlines() if line.startswith(name))


def frames_of(messages: list[str]) -> list[str]:
    return [m for m in messages if "\nevent: frame\n" in f"\n{m}"]


def plies_of(messages: list[str]) -> list[int]:
    return [json.loads(field(m, "data"))["ply"] for m in frames_of(messages)]


def test_a_stream_ended_early_resumes_after_its_last_frame(browser: Any, server: Server) -> None:
    table = waiting_game(server)
    backlog = saved_messages(server, table.game)
    first = frames_of(backlog)[:FIRST_FRAMES]
    assert first, "the game's backlog has no frame"
    resumed_from: list[str | None] = []

    def cut_the_first_stream(route: Any) -> None:
        if not resumed_from:
            resumed_from.append(None)  # the first request: its stream ends after a few frames
            route.fulfill(status=200, content_type="text/event-stream", body="".join(first))
            return
        resumed_from.append(route.request.headers.get("last-event-id"))
        route.continue_()

    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.route("**/events?*", cut_the_first_stream)
    page.goto(f"{server.url}/app/#/enter/{server.owner}")
    page.wait_for_selector("#new-game")
    page.evaluate(f"location.hash = '#/game/{table.game}'")
    page.wait_for_selector('section.game[data-ready="god"]', timeout=30_000)
    answer_some(server, table.game, table.seat, answers=1)  # the game moves on after
    deadline, settled = time.monotonic() + 60, ("waiting", "finished")
    plies = plies_of(backlog)
    while len(plies) == len(plies_of(backlog)) or server_status(server, table.game) not in settled:
        assert time.monotonic() < deadline, "the game never moved on"
        time.sleep(0.2)
        plies = plies_of(saved_messages(server, table.game))
    page.wait_for_function(f"{PLIES}.length >= {len(plies)}", timeout=30_000)
    assert page.evaluate(PLIES) == plies  # every frame once, in order
    assert resumed_from[:2] == [None, field(first[-1], "id")]
    context.close()


def server_status(server: Server, game: str) -> str:
    with server.client(server.owner) as owner:
        return str(owner.get(f"/aw/games/{game}").json()["status"])
