"""A real attack from another port of 127.0.0.1, in headless Chromium: the owner's browser
holds the owner's session (and a seat's, of another game) and then visits a page served
elsewhere on this machine, which tries what a page can do without CORS: `no-cors` fetches
with the browser's cookies, a form posted as `text/plain`, and the server's own internal
routes. Nothing may change, and the owner's sessions survive (docs/security.md)."""

import contextlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.web.browser import VIEWPORT
from tests.web.conftest import Server, free_port, token_of

pytestmark = pytest.mark.slow

ATTACK = """<!doctype html><html><body>
<form id="form" method="POST" action="TARGET/aw/games" enctype="text/plain">
  <input name='{"board":"8-arena","default":"random","x":"' value='"}'>
</form>
<script>
const target = "TARGET";
const tries = [
  fetch(target + "/aw/games", {method: "POST", mode: "no-cors", credentials: "include",
    headers: {"Content-Type": "text/plain"}, body: '{"board":"8-arena","default":"random"}'}),
  fetch(target + "/threads", {method: "POST", mode: "no-cors", credentials: "include",
    body: "{}"}),
  fetch(target + "/internal/truncate", {method: "POST", mode: "no-cors", credentials: "include"}),
  fetch(target + "/aw/games/GAME/answer", {method: "POST", mode: "no-cors",
    credentials: "include", headers: {"Content-Type": "text/plain"},
    body: '{"option":"P01"}'}),
  fetch(target + "/aw/games", {credentials: "include"}).then((r) => r.text()),
];
Promise.allSettled(tries).then(() => {
  document.getElementById("form").submit();
});
</script></body></html>"""


@contextmanager
def attacker_site(page_html: str) -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = page_html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            with contextlib.suppress(BrokenPipeError):  # the browser moved on
                self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()


def test_a_page_on_another_port_changes_nothing(browser: Any, server: Server) -> None:
    made = server.create({"board": "12-A", "default": "random", "seats": {"P03": "human"}})
    game = str(made["game"])
    server.wait_status(game, "waiting")
    with server.client(server.owner) as owner:
        games_before = len(owner.get("/aw/games").json())
        threads_before = owner.post("/threads/count", json={}).json()
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.goto(f"{server.url}/app/#/enter/{server.owner}")
    page.wait_for_selector("#new-game")
    seat = context.new_page()
    seat.goto(f"{server.url}/app/#/enter/{token_of(dict(made['links'])['P03'])}")  # type: ignore[arg-type]
    seat.wait_for_selector("section.game")
    attack = ATTACK.replace("TARGET", server.url).replace("GAME", game)
    with attacker_site(attack) as site:
        evil = context.new_page()
        answers: list[Any] = []
        evil.on("response", lambda answer: answers.append(answer))
        failed: list[Any] = []
        evil.on("requestfailed", lambda request: failed.append(request))
        evil.goto(site)
        # Every fetch settled, then the form was posted: its answer is the gate's refusal.
        evil.wait_for_url(f"{server.url}/aw/games")
        evil.wait_for_load_state("load")
    refused = {(a.request.method, a.url.removeprefix(server.url), a.status) for a in answers}
    assert ("POST", "/aw/games", 403) in refused  # the form
    # The fetches' answers never reach the page: every answer of the server is for its own
    # origin only (Cross-Origin-Resource-Policy), refusals included.
    blocked = {(r.method, r.url.removeprefix(server.url), r.failure) for r in failed}
    not_ours = "net::ERR_BLOCKED_BY_RESPONSE.NotSameOrigin"
    for path in ("/aw/games", "/threads", "/internal/truncate", f"/aw/games/{game}/answer"):
        assert ("POST", path, not_ours) in blocked
    with server.client(server.owner) as owner:
        assert len(owner.get("/aw/games").json()) == games_before
        assert owner.post("/threads/count", json={}).json() == threads_before
        assert owner.get(f"/aw/games/{game}").json()["status"] == "waiting"
    # Both sessions survive, each in its own tab.
    page.reload()
    page.wait_for_selector("#new-game")
    assert page.inner_text("#who").startswith("as") or "owner" in page.inner_text("#who")
    seat.reload()
    seat.wait_for_selector("#my-role")
    context.close()
