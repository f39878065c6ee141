"""A human seat's page in headless Chromium: each question comes in the seat's stream (and
stays when it comes before the reply to the answer before it), a stale tab's answer is
refused, what just happened stays beside the question at desktop and phone widths, and a
dead seat and the end are told in words."""

from typing import Any

import pytest

from autowerewolf.web.standing import ending_words
from tests.fixed import HEX_SECRET
from tests.web.browser import (
    Tab,
    answer_until_over,
    open_tab,
    send_first_option,
    wait_answered,
    wait_finished,
)
from tests.web.conftest import Server
from tests.web.test_web_browser import truth

pytestmark = pytest.mark.slow
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def _human_game(server: Server, seed: int) -> tuple[str, str]:
    made = server.create(
        {"seed": seed, "secret": HEX_SECRET, "default": "random", "seats": {"P01": "human"}}
    )
    return str(made["game"]), dict(made["links"])["P01"]  # type: ignore[arg-type]


def _in_viewport(tab: Tab, selector: str) -> bool:
    return bool(
        tab.page.evaluate(
            """s => { const r = document.querySelector(s).getBoundingClientRect();
              return r.top >= 0 && r.bottom <= innerHeight && r.height > 0; }""",
            selector,
        )
    )


# The page's event stream, delayed while `window.held` (a tab on a slow connection): the
# messages read meanwhile reach the page once it is released.
HELD_STREAM = """window.held = false;
const fetched = window.fetch;
window.fetch = async (...args) => {
  const response = await fetched(...args);
  if (!String(args[0]).includes('/events')) return response;
  const reader = response.body.getReader();
  const body = new ReadableStream({ async pull(controller) {
    const { value, done } = await reader.read();
    while (window.held) await new Promise((resolve) => setTimeout(resolve, 20));
    if (done) controller.close(); else controller.enqueue(value);
  } });
  return new Response(body, { status: response.status, headers: response.headers });
};"""
NEXT = "k => { const d = document.querySelector('#decision'); return d && d.dataset.key !== k; }"


def test_a_stale_tab_is_told_its_question_has_passed(browser: Any, server: Server) -> None:
    link = _human_game(server, 126)[1]
    fresh, stale = open_tab(browser, server, link), open_tab(browser, server, link)
    stale.page.add_init_script(HELD_STREAM)
    stale.page.reload()
    for tab in (fresh, stale):
        tab.page.wait_for_selector("#decision", timeout=60_000)
    first_key = stale.page.get_attribute("#decision", "data-key")
    stale.page.evaluate("window.held = true")  # the stale tab hears of no new question
    send_first_option(fresh.page)
    fresh.page.wait_for_function(NEXT, arg=first_key, timeout=60_000)
    assert stale.page.get_attribute("#decision", "data-key") == first_key
    send_first_option(stale.page, "Too late.")
    stale.page.wait_for_selector("#seat-panel .error[role=alert]")
    assert "this question has passed" in stale.page.inner_text("#seat-panel")
    # Refused, the tab asks what is asked now: the question the fresh tab shows.
    stale.page.wait_for_function(NEXT, arg=first_key, timeout=10_000)
    asked = fresh.page.get_attribute("#decision", "data-key")
    assert stale.page.get_attribute("#decision", "data-key") == asked
    stale.page.evaluate("window.held = false")
    fresh.close()
    stale.close()


def test_each_question_comes_in_the_seat_s_stream(browser: Any, server: Server) -> None:
    # The status naming the seat's turn carries its question: waiting for a request after
    # the status would add a round trip to every answer's wait for the next question.
    tab = open_tab(browser, server, _human_game(server, 126)[1])
    page = tab.page
    held: list[Any] = []  # every request for the question, left unanswered
    page.route("**/decision", lambda route: held.append(route))
    page.wait_for_selector("#decision", timeout=60_000)
    keys = [page.get_attribute("#decision", "data-key")]
    for _ in range(3):
        send_first_option(page)
        page.wait_for_function(NEXT, arg=keys[-1], timeout=60_000)
        keys.append(page.get_attribute("#decision", "data-key"))
    assert len(set(keys)) == 4
    # Beside each question it shows, the page POSTs for it: a GET (the stream) changes
    # nothing, and the POST starts the seat's answer time (the first may predate the route).
    assert len(held) >= 3 and {route.request.method for route in held} == {"POST"}
    tab.close()


def test_the_next_question_stays_when_it_comes_before_the_answer_s_reply(
    browser: Any, server: Server
) -> None:
    tab = open_tab(browser, server, _human_game(server, 126)[1])
    page = tab.page
    page.wait_for_selector("#decision", timeout=60_000)
    held: list[tuple[Any, Any]] = []  # the answer reaches the server; its reply waits here
    page.route("**/answer", lambda route: held.append((route, route.fetch())))
    first = send_first_option(page)
    page.wait_for_function(NEXT, arg=first, timeout=60_000)
    second = page.get_attribute("#decision", "data-key")
    with page.expect_response("**/answer"):
        for route, reply in held:
            route.fulfill(response=reply)
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert page.get_attribute("#decision", "data-key") == second, "the reply clears only its own"
    tab.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_latest_line_is_in_view_while_a_question_is_shown(
    browser: Any, server: Server, viewport: dict[str, int]
) -> None:
    link = _human_game(server, 126)[1]
    tab = open_tab(browser, server, link, paced=True)  # a question is never paced
    page = tab.page
    page.set_viewport_size(viewport)
    page.wait_for_selector("#sound")
    assert page.is_checked("#sound"), "the turn's tone is on by default"
    for _ in range(3):  # a few questions into the game, with a transcript behind them
        page.wait_for_selector("#decision #recent li", timeout=60_000)
        newest = page.locator("#transcript .line").last.inner_text()
        assert page.locator("#recent li").last.inner_text() == newest
        assert _in_viewport(tab, "#recent li:last-child"), viewport
        wait_answered(page, send_first_option(page))
    tab.close()


@pytest.mark.webslow
def test_a_dead_seat_is_told_and_the_end_is_said_in_words(browser: Any, server: Server) -> None:
    game, link = _human_game(server, 126)
    tab = open_tab(browser, server, link)
    answer_until_over(tab)
    wait_finished(tab.page)
    final = truth(server, game)
    assert not next(s for s in final.seats if s.id == "P01").alive, "seed 126 kills P01"
    notice = tab.page.inner_text("#death-notice")
    assert notice.startswith("You died on day ") and "keep watching" in notice
    winner = final.winner.value if final.winner else None
    assert tab.page.inner_text("#ending") == ending_words(winner, final.win_reason)
    assert not tab.page.locator("#no-decision").count()  # no "Answer sent." past the end
    tab.close()


def test_the_lobby_shows_that_a_seed_and_secret_deal_an_earlier_game(
    browser: Any, server: Server
) -> None:
    tab = open_tab(browser, server, f"/app/#/enter/{server.owner}")
    page = tab.page
    for _ in range(2):  # the second creation deals the first game again
        page.goto(f"{server.url}/app/#/")
        page.wait_for_selector("#new-game")
        page.fill("#seed", "4242")
        page.click("#new-game summary:text('Replay a game')")
        page.fill("#secret", HEX_SECRET)
        page.click("#create")
        page.wait_for_function(
            "location.hash.startsWith('#/game/') || document.querySelector('#warnings')"
        )
    assert page.locator("#warnings .warning").count() == 1
    assert page.inner_text("#warnings .warning").startswith("warning: ")
    page.click("#open-warned")
    page.wait_for_selector("#circle")
    tab.close()
