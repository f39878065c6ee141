"""The web app in headless Chromium against a real server: a human seat plays a whole game
from its link (default run); a random game watched live, a replay stepped through event by
event, audiences, drill-down and two humans in one simultaneous decision (`webslow`).
Timings (first render of a replay, checkpoint-to-browser latency) are measured by
benchmarks/web_app.py, not here. `--screenshots DIR` saves the pictures of docs/screenshots.
"""

import re
import time
from pathlib import Path
from typing import Any

import pytest

from autowerewolf.rules.decisions import MAX_TEXT_CHARS
from autowerewolf.web.reader import GameReader
from tests.fixed import HEX_SECRET
from tests.web.browser import (
    VIEWPORT,
    Tab,
    answer_until_over,
    create_in_lobby,
    frame_arrivals,
    open_tab,
    ready_at,
    screenshot,
    wait_finished,
)
from tests.web.conftest import Server, answer_some, token_of
from tests.web.leaks import leaks, parse_payloads

pytestmark = pytest.mark.slow
# A random 12-A game of 143 steps (a server game with links needs a secret: a fixed one
# keeps the game the seed picked).
LONG_GAME = {"seed": 59, "secret": HEX_SECRET, "variants": {"exile_needs_majority": True}}


def owner_tab(browser: Any, server: Server) -> Tab:
    return open_tab(browser, server, f"/app/#/enter/{server.owner}")


def truth(server: Server, game: str) -> Any:
    reader = GameReader(server.db)
    try:
        return reader.load(game).game
    finally:
        reader.close()


def test_a_human_seat_plays_a_whole_game_from_its_link(
    browser: Any, server: Server, screenshots: Path | None
) -> None:
    owner = owner_tab(browser, server)
    screenshot(owner.page, screenshots, "lobby.png")
    # A fixed secret deals the same game every run: one where P03 lives to answer a speech.
    game = create_in_lobby(owner, {"P03": "human", "P07": "llm"}, seed=13, secret=HEX_SECRET)
    owner.page.click("#links summary")
    link = owner.page.get_attribute("#link-P03", "href")
    assert link and link.startswith("/app/#/enter/seat.")
    owner.close()

    seat = open_tab(browser, server, link)
    page = seat.page
    page.wait_for_selector("#my-role")
    assert page.inner_text("#who") == "seat · P03"
    answered, errors = answer_until_over(seat)
    wait_finished(page)
    assert len(answered) >= 3 and len(set(answered)) == len(answered), answered
    assert errors == [f"error: text is {MAX_TEXT_CHARS + 1} characters long; at most 2000"]
    screenshot(page, screenshots, "human-seat.png")
    # The seat may switch to the public view, and sees only public lines there.
    page.select_option("#audience", "public")
    page.wait_for_selector('section.game[data-ready="public"]')
    page.wait_for_selector("#winner")
    assert "Your role" not in page.inner_text("#transcript")
    assert page.locator("#audience option").all_inner_texts() == ["P03", "public"]
    server.wait_status(game, "finished")
    assert leaks(parse_payloads(seat.payloads), truth(server, game), "P03") == []
    assert len(seat.payloads) > 20
    # The scan read the event stream's frames too, not only the page's other answers.
    frames = [p for p in parse_payloads(seat.payloads) if isinstance(p, dict) and "events" in p]
    assert len(frames) > 10 and any(p.get("reveal") for p in frames)
    seat.close()


def test_a_header_that_answers_after_an_audience_change_does_not_undo_it(
    browser: Any, server: Server
) -> None:
    # A status change reloads the game's header for the audience shown. If that reload
    # answers after the person chose another audience, the page must keep their choice (CI
    # once saw a finished game's status reload put the seat's own view back over "public").
    game = str(server.create({"seed": 3, "secret": HEX_SECRET, "default": "random"})["game"])
    server.wait_status(game, "finished")
    tab = owner_tab(browser, server)
    page = tab.page
    held: list[Any] = []
    page.route(re.compile(r"/aw/games/[^/?]+\?audience=god$"), lambda route: held.append(route))
    page.goto(f"{server.url}/app/#/game/{game}")
    page.wait_for_selector('#status[data-status="finished"]')
    deadline = time.monotonic() + 30
    while not held:  # the status reload of the god view, held unanswered
        assert time.monotonic() < deadline, "the finished status never reloaded the header"
        page.wait_for_timeout(20)
    page.select_option("#audience", "public")
    page.wait_for_selector('section.game[data-ready="public"]')
    with page.expect_response(lambda r: r.url.endswith("?audience=god")) as stale:
        held[0].continue_()
    stale.value.finished()
    page.evaluate(  # the stale answer's handlers and two renders
        "new Promise(r => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(r))))"
    )
    assert page.get_attribute("section.game", "data-ready") == "public"
    assert page.input_value("#audience") == "public"
    tab.close()


@pytest.mark.webslow
def test_a_random_game_created_in_the_lobby_plays_live(
    browser: Any, server: Server, screenshots: Path | None
) -> None:
    owner = owner_tab(browser, server)
    # A human seat holds the game until the page watches it: alone, a random game can end
    # before a page opened on it has rendered its first frames (its run starts at once).
    game = create_in_lobby(owner, {"P03": "human"}, seed=7, secret=HEX_SECRET)
    owner.page.click("#links summary")
    link = owner.page.get_attribute("#link-P03", "href")
    assert link is not None
    ready_at(owner.page)
    answer_some(server, game, token_of(link), answers=1_000)
    wait_finished(owner.page)
    screenshot(owner.page, screenshots, "live-table.png")
    saved = {s.game.ply for s in _saved_steps(server, game)}
    ready = owner.page.evaluate(
        "(performance.timeOrigin + performance.getEntriesByName('aw-ready-rendered')[0].startTime)"
        " / 1000"
    )
    live = [(ply, at) for ply, at in frame_arrivals(owner.page) if at > ready and ply in saved]
    assert len(live) >= 10, "most of the game should arrive live"
    owner.close()


def _saved_steps(server: Server, game: str) -> list[Any]:
    reader = GameReader(server.db)
    try:
        return reader.steps(game)
    finally:
        reader.close()


@pytest.mark.webslow
def test_replay_renders_every_event_and_steps_through_them(
    browser: Any, server: Server, screenshots: Path | None
) -> None:
    game = str(server.create(LONG_GAME)["game"])
    server.wait_status(game, "finished")
    steps = _saved_steps(server, game)
    assert 140 <= steps[-1].game.ply <= 160
    events = sum(len(s.events) for s in steps)
    tab = owner_tab(browser, server)
    tab.page.goto(f"{server.url}/app/#/game/{game}")
    tab.page.reload()  # a cold page load, as when a link is opened
    ready_at(tab.page)
    assert tab.page.locator("#transcript [data-n]").count() == events
    tab.close()

    tab = owner_tab(browser, server)
    page = tab.page
    page.goto(f"{server.url}/app/#/game/{game}")
    page.wait_for_selector('section.game[data-ready="god"]')
    page.click("#to-start")
    for shown in range(1, events):
        assert page.locator("#transcript [data-n]").count() == shown
        page.click("#step-forward")
    page.wait_for_function(f"document.querySelectorAll('#transcript [data-n]').length == {events}")
    page.eval_on_selector(
        "#scrubber",
        "(el, n) => { el.value = n; el.dispatchEvent(new Event('input', {bubbles: true})); }",
        events // 2,
    )
    page.wait_for_function(
        f"document.querySelectorAll('#transcript [data-n]').length == {events // 2 + 1}"
    )
    screenshot(page, screenshots, "replay.png")
    # Audiences: the god view shows every role; so does the public once the game is over
    # (the moderator's reveal; before the end only revealed roles: test_web_table.py).
    roles_shown = (
        "Array.from(document.querySelectorAll('.seat-role')).filter(e => e.textContent).length"
    )
    page.click("#to-live")
    assert page.evaluate(roles_shown) == 12
    page.select_option("#audience", "public")
    page.wait_for_selector('section.game[data-ready="public"]')
    page.wait_for_selector("#winner")
    final = steps[-1].game
    assert page.evaluate(roles_shown) == 12
    page.select_option("#audience", "P05")
    page.wait_for_selector('section.game[data-ready="P05"]')
    page.wait_for_selector("#my-role")
    assert page.inner_text("#my-role") == final.seat("P05").role.value
    tab.close()


@pytest.mark.webslow
def test_drill_down_shows_prompt_raw_answer_and_reasoning_to_god_only(
    browser: Any, server: Server
) -> None:
    made = server.create(
        {
            "seed": 5,
            "secret": HEX_SECRET,
            "default": "random",
            "seats": {"P01": "llm", "P02": "llm"},
        }
    )
    game = str(made["game"])
    server.wait_status(game, "finished")
    tab = owner_tab(browser, server)
    page = tab.page
    page.goto(f"{server.url}/app/#/game/{game}")
    page.wait_for_selector('section.game[data-ready="god"]')
    page.locator("button.record", has_text="P01").first.click()
    page.wait_for_selector("#drill-reasoning")
    assert page.inner_text("#drill-reasoning").startswith("SECRET-P01-")
    assert "Choices:" in page.inner_text("#drill-prompt")
    assert '"choice"' in page.inner_text("#drill-raw")
    assert "tokens in" in page.inner_text("#drill-usage")
    page.select_option("#audience", "P01")
    page.wait_for_selector('section.game[data-ready="P01"]')
    page.locator("button.record").first.click()
    page.wait_for_selector("#drill-prompt")
    assert not page.locator("#drill-reasoning").count() and not page.locator("#drill-raw").count()
    tab.close()


@pytest.mark.webslow
def test_two_human_seats_answer_one_simultaneous_decision(browser: Any, server: Server) -> None:
    made = server.create(
        {
            "seed": 126,
            "secret": HEX_SECRET,
            "default": "random",
            "seats": {"P01": "human", "P02": "human"},
        }
    )
    game, links = str(made["game"]), dict(made["links"])  # type: ignore[arg-type]
    tabs = {seat: open_tab(browser, server, links[seat]) for seat in ("P01", "P02")}
    # The sheriff sign-up asks every seat at once: the first answer waits for the second.
    for tab in tabs.values():  # seed 126: both are villagers, this is their first question
        tab.page.wait_for_selector('#decision[data-key="d1:election_signup:r1"]', timeout=60_000)
    steps_before = len(_saved_steps(server, game))
    first = tabs["P01"].page
    first.locator("#decision input[type=radio]").first.check()
    with first.expect_response(_answer_posted) as posted:
        first.click("#send")
    # The server took the answer and did not resume: only a resume moves the game on.
    assert posted.value.json() == {"accepted": True, "resumed": False}
    first.wait_for_selector("#no-decision")
    assert "waiting for the other seats" in first.inner_text("#no-decision")
    with server.client(server.owner) as client:
        assert client.get(f"/aw/games/{game}").json()["status"] == "waiting"
    assert len(_saved_steps(server, game)) == steps_before, "no step without P02's answer"
    second = tabs["P02"].page
    second.locator("#decision input[type=radio]").first.check()
    with second.expect_response(_answer_posted) as posted:
        second.click("#send")
    assert posted.value.json() == {"accepted": True, "resumed": True}
    second.wait_for_selector("#no-decision")
    for seat, tab in tabs.items():
        tab.page.wait_for_function(
            "!document.querySelector('#decision[data-key=\"d1:election_signup:r1\"]')"
        )
        assert leaks(parse_payloads(tab.payloads), truth(server, game), seat) == []
        tab.close()


def _answer_posted(response: Any) -> bool:
    return response.request.method == "POST" and response.url.endswith("/answer")


@pytest.mark.webslow
def test_a_game_address_set_while_the_page_starts_opens_that_game(
    browser: Any, server: Server
) -> None:
    # The app listens for address changes only after its first paint; an address changed
    # between the first render and then (a link followed as the page loads) fires no event
    # the app hears, so it must read the address once it listens.
    game = str(server.create({"seed": 3, "default": "random"})["game"])
    context = browser.new_context(viewport=VIEWPORT)
    entered = context.new_page()  # the owner's session, in this browser's cookies
    entered.goto(f"{server.url}/app/#/enter/{server.owner}")
    entered.wait_for_selector("#new-game")
    context.add_init_script(
        f"addEventListener('load', () => {{ location.hash = '#/game/{game}'; }})"
    )
    page = context.new_page()  # a new tab: it picks the session that fits its address
    page.goto(f"{server.url}/app/")
    page.wait_for_selector('section.game[data-ready="god"]', timeout=15_000)
    assert game in page.inner_text("section.game h2")
    context.close()
