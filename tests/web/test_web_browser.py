"""The web app in headless Chromium against a real server: a human seat plays a whole game
from its link (default run); a random game watched live, a replay stepped through event by
event, audiences, drill-down and two humans in one simultaneous decision (`webslow`).
Measured here: the time to first render of a replay, and the latency from a step's
checkpoint to the browser."""

import statistics
import time
from typing import Any

import pytest

from autowerewolf.rules.decisions import MAX_TEXT_CHARS
from autowerewolf.web.reader import GameReader
from tests.web.browser import (
    VIEWPORT,
    Tab,
    answer_until_over,
    create_in_lobby,
    epoch,
    frame_arrivals,
    open_tab,
    percentile,
    ready_at,
    screenshot,
    wait_finished,
)
from tests.web.conftest import Server
from tests.web.leaks import leaks, parse_payloads

pytestmark = pytest.mark.slow
LONG_GAME = {"seed": 59, "flags": ("exile_needs_majority",)}  # a 148-step random 12-A game


def owner_tab(browser: Any, server: Server) -> Tab:
    return open_tab(browser, server, f"/aw/enter?token={server.owner}")


def truth(server: Server, game: str) -> Any:
    reader = GameReader(server.db)
    try:
        return reader.load(game).game
    finally:
        reader.close()


def test_a_human_seat_plays_a_whole_game_from_its_link(browser: Any, server: Server) -> None:
    owner = owner_tab(browser, server)
    screenshot(owner.page, "lobby.png")
    game = create_in_lobby(owner, {"P03": "human", "P07": "llm"}, seed=13)
    owner.page.click("#links summary")
    link = owner.page.get_attribute("#link-P03", "href")
    assert link and link.startswith("/aw/enter?token=seat.")
    owner.close()

    seat = open_tab(browser, server, link)
    page = seat.page
    page.wait_for_selector("#my-role")
    assert page.inner_text("#who") == "seat · P03"
    answered, errors = answer_until_over(seat)
    wait_finished(page)
    assert len(answered) >= 3 and len(set(answered)) == len(answered)
    assert errors == [f"error: text is {MAX_TEXT_CHARS + 1} characters long; at most 2000"]
    screenshot(page, "human-seat.png")
    # The seat may switch to the public view, and sees only public lines there.
    page.select_option("#audience", "public")
    page.wait_for_selector('section.game[data-ready="public"]')
    page.wait_for_selector("#winner")
    assert "Your role" not in page.inner_text("#transcript")
    assert page.locator("#audience option").all_inner_texts() == ["P03", "public"]
    server.wait_status(game, "finished")
    assert leaks(parse_payloads(seat.payloads), truth(server, game), "P03") == []
    assert len(seat.payloads) > 20
    seat.close()


@pytest.mark.webslow
def test_a_random_game_created_in_the_lobby_plays_live(browser: Any, server: Server) -> None:
    owner = owner_tab(browser, server)
    game = create_in_lobby(owner, {}, seed=7)
    wait_finished(owner.page)
    screenshot(owner.page, "live-table.png")
    steps = _saved_steps(server, game)
    saved = {s.game.ply: epoch(s.saved_at) for s in steps if s.saved_at}
    ready = owner.page.evaluate(
        "(performance.timeOrigin + performance.getEntriesByName('aw-ready-rendered')[0].startTime)"
        " / 1000"
    )
    live = [(ply, at) for ply, at in frame_arrivals(owner.page) if at > ready and ply in saved]
    assert len(live) >= 10, "most of the game should arrive live"
    latency_ms = [(at - saved[ply]) * 1000 for ply, at in live]
    p50, p95 = statistics.median(latency_ms), percentile(latency_ms, 95)
    print(f"\nlatency checkpoint->browser over {len(live)} live steps: p50 {p50:.0f} ms, "
          f"p95 {p95:.0f} ms, max {max(latency_ms):.0f} ms")  # fmt: skip
    assert p50 < 1000
    owner.close()


def _saved_steps(server: Server, game: str) -> list[Any]:
    reader = GameReader(server.db)
    try:
        return reader.steps(game)
    finally:
        reader.close()


@pytest.mark.webslow
def test_replay_renders_fast_and_steps_through_every_event(browser: Any, server: Server) -> None:
    owner = owner_tab(browser, server)
    game = create_in_lobby(owner, {}, seed=LONG_GAME["seed"], flags=LONG_GAME["flags"])
    wait_finished(owner.page)
    owner.close()
    steps = _saved_steps(server, game)
    assert 140 <= steps[-1].game.ply <= 160
    events = sum(len(s.events) for s in steps)
    first_render = []
    for _ in range(3):
        tab = owner_tab(browser, server)
        tab.page.goto(f"{server.url}/app/#/game/{game}")
        tab.page.reload()  # a cold page load, as when a link is opened
        first_render.append(ready_at(tab.page))
        assert tab.page.locator("#transcript [data-n]").count() == events
        tab.close()
    print(f"\nfirst render of a {steps[-1].game.ply}-step replay ({events} events): "
          f"{', '.join(f'{ms:.0f}' for ms in first_render)} ms")  # fmt: skip
    assert statistics.median(first_render) < 5000

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
    screenshot(page, "replay.png")
    # Audiences: the god view shows every role, the public none but those revealed.
    roles_shown = (
        "Array.from(document.querySelectorAll('.seat-role')).filter(e => e.textContent).length"
    )
    page.click("#to-live")
    assert page.evaluate(roles_shown) == 12
    page.select_option("#audience", "public")
    page.wait_for_selector('section.game[data-ready="public"]')
    page.wait_for_selector("#winner")
    final = steps[-1].game
    assert page.evaluate(roles_shown) == sum(1 for s in final.seats if s.revealed)
    page.select_option("#audience", "P05")
    page.wait_for_selector('section.game[data-ready="P05"]')
    page.wait_for_selector("#my-role")
    assert page.inner_text("#my-role") == final.seat("P05").role.value
    tab.close()


@pytest.mark.webslow
def test_drill_down_shows_prompt_raw_answer_and_reasoning_to_god_only(
    browser: Any, server: Server
) -> None:
    made = server.create({"seed": 5, "default": "random", "seats": {"P01": "llm", "P02": "llm"}})
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
        {"seed": 4, "default": "random", "seats": {"P01": "human", "P02": "human"}}
    )
    game, links = str(made["game"]), dict(made["links"])  # type: ignore[arg-type]
    tabs = {seat: open_tab(browser, server, links[seat]) for seat in ("P01", "P02")}
    # The sheriff sign-up asks every seat at once: the first answer waits for the second.
    for tab in tabs.values():  # seed 4: both are villagers, this is their first question
        tab.page.wait_for_selector('#decision[data-key="d1:election_signup:r1"]', timeout=60_000)
    first = tabs["P01"].page
    first.locator("#decision input[type=radio]").first.check()
    first.click("#send")
    first.wait_for_selector("#no-decision")
    assert "waiting for the other seats" in first.inner_text("#no-decision")
    time.sleep(1)
    with server.client(server.owner) as client:
        assert client.get(f"/aw/games/{game}").json()["status"] == "waiting"
    second = tabs["P02"].page
    second.locator("#decision input[type=radio]").first.check()
    second.click("#send")
    second.wait_for_selector("#no-decision")
    for seat, tab in tabs.items():
        tab.page.wait_for_function(
            "!document.querySelector('#decision[data-key=\"d1:election_signup:r1\"]')"
        )
        assert leaks(parse_payloads(tab.payloads), truth(server, game), seat) == []
        tab.close()


@pytest.mark.webslow
def test_a_game_address_set_while_the_page_starts_opens_that_game(
    browser: Any, server: Server
) -> None:
    # The app listens for address changes only after its first paint; an address changed
    # between the first render and then (a link followed as the page loads) fires no event
    # the app hears, so it must read the address once it listens.
    game = str(server.create({"seed": 3, "default": "random"})["game"])
    context = browser.new_context(viewport=VIEWPORT)
    context.add_init_script(
        f"addEventListener('load', () => {{ location.hash = '#/game/{game}'; }})"
    )
    page = context.new_page()
    page.goto(f"{server.url}/aw/enter?token={server.owner}")
    page.wait_for_selector('section.game[data-ready="god"]', timeout=15_000)
    assert game in page.inner_text("section.game h2")
    context.close()
