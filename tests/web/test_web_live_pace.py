"""The live view in headless Chromium as a person follows it: a spectator sees a day's
speeches one after another at a reading pace (the speaker marked on the circle) unless they
choose to see each line at once, a choice the browser remembers; a seat's question is never
held behind the pacing; the seat's answer clock counts down and says when the fallback
answered; a tone marks each question by default, and a hidden tab is notified of it; a
seat hears of its death only once the table shown has it dead; and the spectator's night
summary and phase timeline carry only what the public was told (the leak scan of
tests/web/leaks.py)."""

import itertools
import threading
import time
from typing import Any
from urllib.parse import urlparse

import pytest

from autowerewolf.prompts.render import describe
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.views import public_events
from tests.fixed import HEX_SECRET
from tests.web.browser import open_tab, send_first_option, wait_answered, wait_finished
from tests.web.conftest import Server, answer_some, token_of
from tests.web.leaks import leaks, parse_payloads
from tests.web.test_web_human_deadline import p03_records, wait_records
from tests.web.test_web_table import saved

pytestmark = pytest.mark.slow
SPEECHES = "#transcript [data-kind=speech]"
# Seed 126: P01, a human villager, runs for sheriff; the campaign's speeches come in a burst.
HUMAN_P01 = {"seed": 126, "secret": HEX_SECRET, "default": "random", "seats": {"P01": "human"}}
# One look at the page: the speeches shown, the newest line, who is marked speaking, and how
# many received events wait to be shown.
LOOK = f"""() => {{
  const newest = [...document.querySelectorAll('#transcript [data-n]')].pop();
  const speaking = document.querySelector('.seat.speaking');
  const pending = document.querySelector('#pending');
  return {{ speeches: document.querySelectorAll('{SPEECHES}').length,
    kind: newest ? newest.dataset.kind : null, line: newest ? newest.textContent : '',
    speaking: speaking ? speaking.dataset.seat : null,
    pending: pending ? Number(pending.dataset.pending) : 0 }};
}}"""
# When each speech appears in the transcript, by the page's clock.
WATCH = f"""() => {{
  window.spoken = [];
  const count = () => document.querySelectorAll('{SPEECHES}').length;
  new MutationObserver(() => {{
    while (window.spoken.length < count()) window.spoken.push(performance.now());
  }}).observe(document.getElementById('transcript'), {{ childList: true, subtree: true }});
}}"""
# An hour of answers: the human answers at once, the game runs to its end in seconds.
ANSWERS = 1_000


def _links(server: Server, form: dict[str, object]) -> tuple[str, dict[str, str]]:
    made = server.create(form)
    return str(made["game"]), dict(made["links"])  # type: ignore[arg-type]


def _answer_in_background(server: Server, game: str, link: str) -> threading.Thread:
    """The human seat answers every question as soon as it is asked, from another thread
    (the page is driven from this one)."""
    thread = threading.Thread(
        target=answer_some, args=(server, game, token_of(link), ANSWERS), daemon=True
    )
    thread.start()
    return thread


@pytest.mark.webslow
def test_a_spectator_sees_a_days_speeches_one_after_another(browser: Any, server: Server) -> None:
    game, links = _links(server, HUMAN_P01)
    tab = open_tab(browser, server, links["spectator"], paced=True)
    page = tab.page
    page.wait_for_selector('section.game[data-ready="public"]')
    assert not page.is_checked("#instant"), "a live view is paced by default"
    assert page.locator("#controls").count() == 0, "no replay controls while the game is live"
    answering = _answer_in_background(server, game, links["P01"])
    page.evaluate(WATCH)
    looks: list[dict[str, Any]] = []
    deadline = time.monotonic() + 60
    while len(page.evaluate("window.spoken")) < 4:  # four speeches shown
        assert time.monotonic() < deadline, f"speeches shown: {looks}"
        looks.append(page.evaluate(LOOK))
        page.wait_for_timeout(100)
    # One at a time, each long enough to read (the page's own clock: a slow test cannot
    # see two at once where there were two), the rest held back meanwhile.
    shown_at = page.evaluate("window.spoken")
    assert all(b - a >= 1_000 for a, b in itertools.pairwise(shown_at)), shown_at
    assert page.evaluate(LOOK)["pending"] > 0
    # The newest line's speaker is marked on the circle while the line is the newest.
    spoken = [look for look in looks if look["kind"] == "speech"]
    assert spoken and all(look["line"].startswith(f"{look['speaking']} ") for look in spoken)
    page.check("#instant")  # everything received, at once
    page.wait_for_selector("#pending", state="detached", timeout=2_000)
    assert page.locator(SPEECHES).count() > len(shown_at)
    page.reload()  # the choice is this browser's
    page.wait_for_selector('section.game[data-ready="public"]')
    assert page.is_checked("#instant")
    answering.join(timeout=90)
    tab.close()


def test_a_seats_question_is_never_held_behind_the_pacing(browser: Any, server: Server) -> None:
    _, links = _links(server, HUMAN_P01)
    tab = open_tab(browser, server, links["P01"], paced=True)
    page = tab.page
    for _ in range(4):  # the campaign speeches come between these questions
        page.wait_for_selector("#decision #recent li", timeout=60_000)
        page.wait_for_selector("#pending", state="detached", timeout=2_000)
        newest = page.locator("#transcript .line").last.inner_text()
        assert page.locator("#recent li").last.inner_text() == newest
        wait_answered(page, send_first_option(page))
    tab.close()


def test_the_answer_clock_counts_down_and_says_the_fallback_answered(
    browser: Any, server: Server
) -> None:
    deadline_s = 4
    form = {**HUMAN_P01, "seed": 5, "seats": {"P03": "human"}, "human_deadline_s": deadline_s}
    game, links = _links(server, form)
    tab = open_tab(browser, server, links["P03"])
    page = tab.page
    page.wait_for_selector("#clock", timeout=60_000)
    first = int(page.get_attribute("#clock", "data-left") or 0)
    assert 0 < first <= deadline_s
    assert page.inner_text("#clock").endswith("left to answer")
    page.wait_for_function(
        "n => Number(document.querySelector('#clock').dataset.left) < n", arg=first, timeout=3_000
    )
    page.wait_for_selector("#timed-out", timeout=30_000)
    assert "fallback answered" in page.inner_text("#timed-out")
    wait_records(server, game, 1)
    late = p03_records(server, game)[0]  # the next question may have timed out too by now
    assert late.fallback and late.timeouts == 1
    tab.close()


def test_a_tone_marks_each_question_unless_turned_off(browser: Any, server: Server) -> None:
    _, links = _links(server, HUMAN_P01)
    tab = open_tab(browser, server, links["P01"])
    page = tab.page
    page.add_init_script(
        """window.tones = 0;
        const start = OscillatorNode.prototype.start;
        OscillatorNode.prototype.start = function (...a) {
          window.tones += 1;
          return start.apply(this, a);
        };"""
    )
    page.reload()
    page.wait_for_selector("#decision", timeout=60_000)
    assert page.is_checked("#sound") and page.evaluate("window.tones") == 1
    page.uncheck("#sound")
    key = send_first_option(page)
    page.wait_for_function(
        "k => { const d = document.querySelector('#decision'); return d && d.dataset.key !== k; }",
        arg=key,
        timeout=60_000,
    )
    assert page.evaluate("window.tones") == 1, "no tone once the seat turned it off"
    tab.close()


# A tab the person looked away from, where they allowed notifications: each notification
# the page shows is kept (the headless browser shows none of its own).
HIDDEN_TAB = """Object.defineProperty(document, 'hidden', { get: () => window.away });
window.away = true;
window.shown = [];
window.Notification = class {
  static permission = 'granted';
  static requestPermission() { return Promise.resolve('granted'); }
  constructor(title, options) { window.shown.push({ title, body: options.body }); }
};"""


def test_a_hidden_tab_is_notified_of_each_question(browser: Any, server: Server) -> None:
    _, links = _links(server, HUMAN_P01)
    tab = open_tab(browser, server, links["P01"])
    page = tab.page
    page.context.grant_permissions(["notifications"])
    page.add_init_script(HIDDEN_TAB)
    page.reload()
    page.wait_for_selector("#decision", timeout=60_000)
    question = page.inner_text("#decision .question")
    assert page.evaluate("window.shown") == [
        {"title": "AutoWerewolf: your turn", "body": question.split("\n")[0]}
    ]
    assert page.title().startswith("● Your turn")
    assert not page.locator("#notify").count(), "permission given: nothing left to ask"
    page.evaluate("window.away = false")  # the person looks at the tab again
    key = send_first_option(page)
    page.wait_for_function(
        "k => { const d = document.querySelector('#decision'); return d && d.dataset.key !== k; }",
        arg=key,
        timeout=60_000,
    )
    assert len(page.evaluate("window.shown")) == 1, "a tab in view is not notified"
    tab.close()


def test_the_night_summary_and_timeline_tell_only_what_the_public_was_told(
    browser: Any, server: Server
) -> None:
    game, links = _links(server, HUMAN_P01)
    tab = open_tab(browser, server, links["spectator"])
    page = tab.page
    page.wait_for_selector('section.game[data-ready="public"]')
    _answer_in_background(server, game, links["P01"]).join(timeout=90)
    wait_finished(page)
    record = saved(server, game)
    told = [e for e in public_events(record.events) if e.kind is EventKind.DEATHS_ANNOUNCED]
    assert told, "seed 126 has a night"
    lines = page.locator("#night-summary .night-line")
    assert lines.all_inner_texts() == [f"Night {e.day}: {describe(e, None)}" for e in told]
    assert [lines.nth(i).get_attribute("data-dead") for i in range(lines.count())] == [
        " ".join(e.targets) for e in told
    ]
    segments = page.locator("#timeline .segment")
    dividers = [e for e in record.events if e.kind in (EventKind.NIGHT_START, EventKind.DAY_START)]
    assert segments.all_inner_texts() == [
        f"{'N' if e.kind is EventKind.NIGHT_START else 'D'}{e.day}" for e in dividers
    ]
    texts = [page.inner_text("#night-summary"), page.inner_text("#timeline")]
    assert leaks(parse_payloads(texts), record.game, "public") == []
    assert leaks(parse_payloads(tab.payloads), record.game, "public") == []
    # A segment scrolls the transcript to its divider.
    segments.nth(1).click()
    n = segments.nth(1).get_attribute("data-n")
    top = page.evaluate(
        """n => { const box = document.getElementById('transcript');
          return box.querySelector(`[data-n="${n}"]`).offsetTop - box.scrollTop; }""",
        n,
    )
    assert abs(top) <= 1, top
    assert page.locator("#controls").count() == 1, "the replay controls once the game is over"
    tab.close()


def test_a_seat_hears_of_its_death_only_once_the_shown_table_has_it_dead(
    browser: Any, server: Server
) -> None:
    # The header may know of a death before the paced transcript shows it: here every
    # header says P01 died while P01 is alive on the table shown, and no notice may show.
    game, links = _links(server, HUMAN_P01)
    tab = open_tab(browser, server, links["P01"])
    page = tab.page
    header_path = f"/aw/games/{game}"
    from playwright.sync_api import Error as PlaywrightError  # the browser fixture's package

    def dead_header(route: Any) -> None:
        try:
            response = route.fetch()
            body = response.json()
        except PlaywrightError:  # the page that asked is gone (the reload, the tab's close)
            return
        body["me"]["death"] = "You died on day 1: a test says so."
        route.fulfill(response=response, json=body)

    page.route(lambda url: urlparse(url).path == header_path, dead_header)
    page.wait_for_selector("#decision", timeout=60_000)  # its status changed: a new header
    page.wait_for_function(
        "() => document.querySelector('#me') && document.querySelector('.seat[data-seat=\"P01\"]')"
    )
    page.reload()  # every header from now on says P01 died
    page.wait_for_selector("#decision", timeout=60_000)
    assert page.get_attribute('.seat[data-seat="P01"]', "data-alive") == "true"
    assert not page.locator("#death-notice").count()
    assert "a test says so" not in page.inner_text("body")
    tab.close()
