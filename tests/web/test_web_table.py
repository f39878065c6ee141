"""The table as people see it, in headless Chromium: night looks like night, the end tells
what happened and reveals the deal, a replay never shows a later state, the votes form a
grid, a human's question is on screen at laptop and phone sizes and a typed speech is
enough to send, the owner branches a replay, and a human game survives its server being
killed (docs/security.md keeps its tests green: sessions and the night clock)."""

import contextlib
import os
import random
import signal
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from autowerewolf.rules.events import EventKind
from autowerewolf.web.reader import GameReader
from autowerewolf.web.standing import ending_words
from tests.fixed import HEX_SECRET
from tests.web.browser import VIEWPORT, open_tab, screenshot, screenshot_of
from tests.web.conftest import Server, answer_some, running_server, token_of

pytestmark = [pytest.mark.slow, pytest.mark.webslow]
# A random 12-A game of 143 steps (a server game with links needs a secret: a fixed one
# keeps the game the seed picked).
LONG_GAME = {"seed": 59, "secret": HEX_SECRET, "variants": {"exile_needs_majority": True}}
# P03, a human villager: no night action, so its questions are the day's.
P03_VILLAGER = {"seed": 5, "secret": HEX_SECRET, "default": "random", "seats": {"P03": "human"}}
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
# What makes a seat dead in the public's eyes, and the field naming it.
DEATH_NEWS = {"deaths_announced": "targets", "exile": "target", "hunter_shot": "target"}


def saved(server: Server, game: str) -> Any:
    reader = GameReader(server.db)
    try:
        return reader.load(game)
    finally:
        reader.close()


def scrub_to(page: Any, index: int) -> None:
    page.evaluate(
        "(i) => { const s = document.getElementById('scrubber'); s.value = i;"
        " s.dispatchEvent(new Event('input', { bubbles: true })); }",
        index,
    )


def test_night_the_ending_and_a_replay_without_spoilers(
    browser: Any, server: Server, screenshots: Path | None
) -> None:
    made = server.create(LONG_GAME)
    game = str(made["game"])
    server.wait_status(game, "finished")
    record = saved(server, game)
    public = [e for e in record.events if e.audience.value == "public"]
    tab = open_tab(browser, server, dict(made["links"])["spectator"])  # type: ignore[arg-type]
    page = tab.page
    page.wait_for_selector('section.game[data-ready="public"]')
    # The end: the last deaths told, the winner and why, every role, the night actions.
    winner = record.game.winner.value if record.game.winner else None
    assert page.inner_text("#winner") == ending_words(winner, record.game.win_reason)
    roles = {
        seat: page.inner_text(f'#circle [data-seat="{seat}"] .seat-role')
        for seat in (s.id for s in record.game.seats)
    }
    assert roles == {s.id: s.role.value for s in record.game.seats}
    reveal = page.inner_text("#reveal")
    assert "Roles:" in reveal and "The pack's target" in reveal
    assert page.locator("#circle .seat.alive").count() == len(record.game.living)
    screenshot(page, screenshots, "ending.png")
    # A replay shows each moment as it was: nobody dead before the news, night at night.
    nights = 0
    for index in range(len(public)):
        scrub_to(page, index)
        shown = public[: index + 1]
        told = {
            seat
            for e in shown
            if e.kind.value in DEATH_NEWS
            for seat in (e.targets if DEATH_NEWS[e.kind.value] == "targets" else (e.target,))
            if seat
        } | {e.actor for e in shown if e.kind is EventKind.SELF_EXPLOSION}
        dead = {
            el.get_attribute("data-seat")
            for el in page.locator('#circle .seat[data-alive="false"]').all()
        }
        assert dead <= told, (index, public[index].kind, dead - told)
        phase = page.get_attribute("section.game", "data-phase")
        last = next(
            (e for e in reversed(shown) if e.kind in (EventKind.NIGHT_START, EventKind.DAY_START)),
            None,
        )
        if last is not None and last.kind is EventKind.NIGHT_START:
            nights += 1
            assert phase == "night" and page.inner_text("#phase") == f"Night {last.day}"
            if last.day == 2 and public[index].kind is EventKind.NIGHT_START:
                screenshot(page, screenshots, "night.png")
        elif last is not None:
            assert phase == "day" and page.inner_text("#phase") == f"Day {last.day}"
        assert page.locator("#reveal").count() == (index == len(public) - 1)
    assert nights >= 2
    # The votes as a grid: a row per seat, a column per round, with the tally.
    grid = page.inner_text("#vote-grid")
    assert "D1 exile" in grid and "tally" in grid
    screenshot_of(page, "#vote-grid", screenshots, "vote-grid.png")
    tab.close()


def test_the_owner_branches_a_replay_into_a_new_game(browser: Any, server: Server) -> None:
    made = server.create(LONG_GAME)
    game = str(made["game"])
    server.wait_status(game, "finished")
    tab = open_tab(browser, server, f"/app/#/enter/{server.owner}")
    page = tab.page
    page.goto(f"{server.url}/app/#/game/{game}")
    page.wait_for_selector('section.game[data-ready="god"]')
    scrub_to(page, 60)
    page.click("#branch")
    page.wait_for_function(
        f"location.hash.startsWith('#/game/') && !location.hash.includes('{game}')"
    )
    branch = str(page.evaluate("location.hash")).split("#/game/")[1]
    server.wait_status(branch, "finished")
    original, forked = saved(server, game), saved(server, branch)
    # The same game up to the branch point, replayed on from there.
    assert forked.events[:40] == original.events[:40]
    assert forked.game.config == original.game.config
    tab.close()


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_question_is_on_screen_and_a_typed_speech_is_enough(
    browser: Any, server: Server, viewport: dict[str, int]
) -> None:
    made = server.create(P03_VILLAGER)
    link = dict(made["links"])["P03"]  # type: ignore[arg-type]
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(f"{server.url}{link}")
    page.wait_for_selector("#decision")
    assert page.title().startswith("●")  # the tab says a question is waiting
    assert page.locator("#controls").count() == 0  # a live seat has no replay controls
    speeches = 0
    while not page.locator("#winner").count() and speeches < 2:
        page.wait_for_selector("#decision, #winner")
        if not page.locator("#decision").count():
            continue
        send = page.locator("#send").bounding_box()
        assert send is not None and send["y"] + send["height"] <= viewport["height"], send
        key = page.get_attribute("#decision", "data-key")
        if page.locator("#speech").count():
            assert page.is_disabled("#send")  # an empty speech cannot be sent
            page.fill("#speech", "I trust P01 more than P02.")  # typing alone picks "speak"
            assert page.is_enabled("#send")
            speeches += 1
        else:
            page.locator("#decision input[type=radio]").first.check()
        page.click("#send")
        page.wait_for_function(
            "key => !document.querySelector(`#decision[data-key='${key}']`)", arg=key
        )
    assert speeches == 2
    context.close()


def test_an_empty_speech_is_refused_by_the_server(server: Server) -> None:
    made = server.create(P03_VILLAGER)
    game, seat = str(made["game"]), token_of(dict(made["links"])["P03"])  # type: ignore[arg-type]
    with server.client(seat) as client:
        for _ in range(200):
            decision = client.get(f"/aw/games/{game}/decision").json()["decision"]
            if decision is None:
                time.sleep(0.05)
                continue
            if decision["text"] == "speech":
                refused = client.post(
                    f"/aw/games/{game}/answer",
                    json={"key": decision["key"], "option": "speak", "text": "   "},
                )
                assert refused.status_code == 400 and "empty" in refused.json()["detail"]
                return
            client.post(
                f"/aw/games/{game}/answer",
                json={"key": decision["key"], "option": decision["options"][0]["option"]},
            )
    raise AssertionError("no speech was asked")


def test_a_human_game_survives_its_server_killed_at_any_moment(tmp_path: Path) -> None:
    """SIGKILL the server at random moments (while it creates a game, mid-run, while it
    waits for a human); after each restart a game that waited asks its human again, a game
    stopped mid-run resumes from the owner's Resume, and every game finishes."""
    db, chance = tmp_path / "games.db", random.Random(7)
    form = {"default": "random", "board": "8-arena", "seats": {"P02": "human"}}
    for round_ in range(4):
        workdir = tmp_path / f"run{round_}"
        workdir.mkdir()
        with running_server(workdir, db) as server:
            if round_ < 3:
                creating = threading.Thread(target=create_quietly, args=(server, form))
                creating.start()
                if round_ > 0:  # the first server dies while it creates its game
                    creating.join(timeout=60)
                time.sleep(chance.uniform(0.05, 1.5))
                for game, token in human_links(server).items():  # answer a little, then die
                    answer_some(server, game, token, chance.randint(0, 3))
                os.killpg(server.pid, signal.SIGKILL)
                creating.join(timeout=60)
                continue
            games = human_links(server)
            assert len(games) >= 2, games  # the games created before a kill
            with server.client(server.owner) as owner:  # a game killed mid-run: Resume
                for game in games:
                    if owner.get(f"/aw/games/{game}").json()["status"] == "unfinished":
                        assert owner.post(f"/aw/games/{game}/resume").status_code == 200
            for game, token in games.items():
                answer_some(server, game, token, 200)
                server.wait_status(game, "finished")


def create_quietly(server: Server, form: dict[str, Any]) -> None:
    with contextlib.suppress(httpx.HTTPError, AssertionError):  # the server may die first
        server.create(form)


def human_links(server: Server) -> dict[str, str]:
    """Every saved game's human seat token, as the owner hands them out."""
    with server.client(server.owner) as owner:
        listed = owner.get("/aw/games").json()
        return {
            g["game"]: token_of(owner.get(f"/aw/games/{g['game']}").json()["links"]["P02"])
            for g in listed
        }


def test_nothing_loads_from_outside_the_server(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(f"{server.url}/app/#/enter/{server.owner}")
    page.wait_for_selector("#new-game")
    assert asked and all(url.startswith(server.url) for url in asked), asked
    assert httpx.get(f"{server.url}/docs").status_code == 404  # LangGraph's CDN page
    context.close()
