"""Driving the web app in headless Chromium (Playwright), and capturing every payload a
page receives (fetch responses, and each server-sent event from the network itself)."""

import base64
import contextlib
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from autowerewolf.rules.decisions import MAX_TEXT_CHARS
from tests.web.conftest import Server

VIEWPORT = {"width": 1360, "height": 900}


@dataclass
class Tab:
    """One browser context (its own cookie jar: one person) with one page."""

    page: Any
    payloads: list[str] = field(default_factory=list)

    def close(self) -> None:
        self.page.context.close()


INSTANT = "localStorage.setItem('aw-pace', 'instant')"


def open_tab(browser: Any, server: Server, link: str, paced: bool = False) -> Tab:
    """A new person opens a link (the token moves into their cookie). Unless `paced`, the
    page shows each new line at once, as the switch does (a paced live view takes seconds
    a line: tests of the pacing ask for it)."""
    context = browser.new_context(viewport=VIEWPORT)
    if not paced:
        context.add_init_script(INSTANT)
    page = context.new_page()
    tab = Tab(page)
    _keep_streams(tab, context.new_cdp_session(page))
    page.on("response", lambda response: _keep_body(tab, response))
    page.goto(link if link.startswith("http") else f"{server.url}{link}")
    page.wait_for_function("!location.hash.startsWith('#/enter/')")
    assert "enter" not in page.url, "the token must leave the address bar"
    return tab


def _keep_streams(tab: Tab, cdp: Any) -> None:
    """Each message of the page's event streams, from the network itself (the page reads
    them with fetch, whose body Playwright gives only once the stream has ended)."""
    unsplit: dict[str, str] = {}  # request id -> the stream's text after its last whole line

    def take(request_id: str, data: str) -> None:
        text = unsplit.get(request_id, "") + base64.b64decode(data).decode("utf-8", "replace")
        lines = text.replace("\r\n", "\n").split("\n")
        unsplit[request_id] = lines.pop()
        tab.payloads += [line[5:].strip() for line in lines if line.startswith("data:")]

    def on_response(event: dict[str, Any]) -> None:
        if "/events" in event["response"]["url"]:
            unsplit[event["requestId"]] = ""
            started = cdp.send("Network.streamResourceContent", {"requestId": event["requestId"]})
            take(event["requestId"], started.get("bufferedData", ""))

    def on_data(event: dict[str, Any]) -> None:
        if event["requestId"] in unsplit and event.get("data"):
            take(event["requestId"], event["data"])

    cdp.send("Network.enable")
    cdp.on("Network.responseReceived", on_response)
    cdp.on("Network.dataReceived", on_data)


def _keep_body(tab: Tab, response: Any) -> None:
    if "/aw/" not in response.url or "/events" in response.url:
        return
    with contextlib.suppress(Exception):  # a redirect or an aborted request has no body
        tab.payloads.append(response.text())


def screenshot(page: Any, folder: Path | None, name: str) -> None:
    """Save the page's top as `folder/name`: only when a folder was given (`--screenshots`)."""
    if folder is None:
        return
    folder.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(folder / name), full_page=False)


def screenshot_of(page: Any, selector: str, folder: Path | None, name: str) -> None:
    """Save one element of the page as `folder/name`: only with `--screenshots`."""
    if folder is None:
        return
    folder.mkdir(parents=True, exist_ok=True)
    page.locator(selector).screenshot(path=str(folder / name))


def create_in_lobby(tab: Tab, seats: dict[str, str], seed: int, secret: str = "") -> str:
    """Fill the lobby's form and create the game; the page moves to it. With a secret, the
    same seed deals the same game every run (without one, the server draws a fresh secret)."""
    page = tab.page
    page.wait_for_selector("#new-game")
    page.fill("#seed", str(seed))
    for seat, kind in seats.items():
        page.select_option(f"#kind-{seat}", kind)
    if secret:
        page.click("#new-game summary:text('Replay a game')")
        page.fill("#secret", secret)
    page.click("#create")
    page.wait_for_function(
        "location.hash.startsWith('#/game/') || document.querySelector('#warnings')",
        timeout=60_000,
    )
    if page.locator("#warnings").count():  # a deal made before: the lobby says so first
        page.click("#open-warned")
        page.wait_for_function("location.hash.startsWith('#/game/')")
    page.wait_for_selector("#circle", timeout=60_000)
    return str(page.evaluate("location.hash")).split("#/game/")[1]


def wait_finished(page: Any, timeout_s: float = 120) -> None:
    page.wait_for_selector("#winner", timeout=timeout_s * 1000)
    page.wait_for_selector('#status[data-status="finished"]', timeout=timeout_s * 1000)


def frame_arrivals(page: Any) -> list[tuple[int | None, float]]:
    """(ply, epoch seconds) of every frame the page received, from its performance marks."""
    marks = page.evaluate(
        "performance.getEntriesByName('aw-frame')"
        ".map(m => [m.detail.ply, (performance.timeOrigin + m.startTime) / 1000])"
    )
    return [(ply, at) for ply, at in marks]


def ready_at(page: Any) -> float:
    """Milliseconds from navigation until the backlog was on the page."""
    page.wait_for_function("performance.getEntriesByName('aw-ready-rendered').length > 0")
    return float(page.evaluate("performance.getEntriesByName('aw-ready-rendered')[0].startTime"))


def epoch(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


def send_first_option(page: Any, text: str = "Hello.") -> str:
    """Answer the question shown with its first option (and `text` where a speech is
    asked); the key of the question answered."""
    key = str(page.get_attribute("#decision", "data-key"))
    page.locator("#decision input[type=radio]").first.check()
    if page.locator("#speech").count():
        page.fill("#speech", text)
    page.click("#send")
    return key


def wait_answered(page: Any, key: str) -> None:
    """Until the page no longer shows the question `key`."""
    page.wait_for_function("k => !document.querySelector(`#decision[data-key='${k}']`)", arg=key)


def answer_until_over(tab: Tab, limit_s: float = 180) -> tuple[list[str], list[str]]:
    """Answer every decision shown on this seat's page with its first option until the game
    is over. The first speech is too long at first: the page must show the server's error.
    Returns the decision keys answered and the errors shown."""
    page = tab.page
    answered: list[str] = []
    errors: list[str] = []
    deadline = time.monotonic() + limit_s
    while not page.locator("#winner").count():
        assert time.monotonic() < deadline, f"still playing after {answered}"
        form = page.locator("#decision")
        if not form.count():
            page.wait_for_timeout(50)
            continue
        key = form.get_attribute("data-key")
        page.locator("#decision input[type=radio]").first.check()
        if page.locator("#speech").count():
            if not errors:
                page.fill("#speech", "x" * (MAX_TEXT_CHARS + 1))
                page.click("#send")
                page.wait_for_selector("#decision .error[role=alert]")
                errors.append(page.inner_text("#decision .error[role=alert]"))
            page.fill("#speech", f"I am {page.inner_text('#my-role')}... or am I?")
        page.click("#send")
        wait_answered(page, str(key))
        answered.append(str(key))
    return answered, errors
