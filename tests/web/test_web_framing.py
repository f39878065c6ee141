"""Clickjacking from another port of 127.0.0.1, in headless Chromium: the owner's browser
holds the owner's session and visits a page that frames the app, nearly transparent, over
its own decoy, clicks where each of the app's buttons would be, and loads every GET route of
the server as an `<img>` and a `<script>` naming the owner's session in the address. The
browser refuses the frame (`frame-ancestors 'none'`), so the clicks land on nothing, and
nothing changes (docs/security.md). A frame of the attacker's own page beside it renders:
the refusal is the server's headers, not the test's page."""

import json
from typing import Any

import pytest

from tests.web.browser import VIEWPORT
from tests.web.conftest import Server
from tests.web.test_web_cross_site import attacker_site
from tests.web.walk import owner_picture, waiting_game

pytestmark = pytest.mark.slow

FRAMING = """<!doctype html><html><body style="margin:0">
<button id="decoy" style="position:absolute;top:0;left:0;width:100%;height:100%">Win!</button>
<iframe id="app" src="TARGET/app/" style="position:absolute;top:0;left:0;border:0;
  width:WIDTHpx;height:HEIGHTpx;opacity:0.01"></iframe>
<iframe id="control" srcdoc="<p id='shown'>a frame that may be shown</p>"></iframe>
<script>
window.loaded = 0;
for (const url of URLS) {
  for (const tag of ["img", "script"]) {
    const element = document.createElement(tag);
    element.onload = element.onerror = () => { window.loaded += 1; };
    element.src = url;
    document.body.appendChild(element);
  }
}
</script></body></html>"""


def button_spots(page: Any) -> list[tuple[float, float]]:
    """The middle of every control on the app's own page (as the framing page overlays it),
    the lobby's Create first: a click elsewhere may move it."""
    spots = []
    controls = page.locator("button, summary, select, input[type=submit]").all()
    for control in [page.locator("#create"), *controls]:
        box = control.bounding_box()
        if box is not None:
            spots.append((box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))
    return spots


def test_a_page_on_another_port_cannot_frame_the_app(browser: Any, server: Server) -> None:
    table = waiting_game(server)
    before = owner_picture(server, table.game)
    context = browser.new_context(viewport=VIEWPORT)
    own = context.new_page()
    own.goto(f"{server.url}/app/#/enter/{server.owner}")
    own.wait_for_selector("#new-game")
    spots = button_spots(own)
    assert len(spots) >= 3, "the lobby's buttons were not found"
    urls = [f"{server.url}{path}{'&' if '?' in path else '?'}session=owner"
            for path in table.paths("GET")]  # fmt: skip
    page_html = (
        FRAMING.replace("TARGET", server.url)
        .replace("WIDTH", str(VIEWPORT["width"]))
        .replace("HEIGHT", str(VIEWPORT["height"]))
        .replace("URLS", json.dumps(urls))
    )
    with attacker_site(page_html) as site:
        evil = context.new_page()
        evil.goto(site)
        evil.wait_for_load_state("load")  # every frame too
        assert evil.frame_locator("#control").locator("#shown").count() == 1
        framed = evil.locator("#app").element_handle().content_frame()
        assert framed.url.startswith("chrome-error://"), framed.url  # refused by the browser
        assert framed.locator("#new-game").count() == 0
        for x, y in spots:
            evil.mouse.click(x, y)
        evil.wait_for_function("n => window.loaded >= n", arg=2 * len(urls), timeout=30_000)
        own.wait_for_timeout(300)  # a request a click would have sent has arrived
    assert owner_picture(server, table.game) == before
    context.close()
