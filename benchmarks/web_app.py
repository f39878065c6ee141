"""Web app timings in headless Chromium against a real `autowerewolf serve` on 127.0.0.1
(random players; the server's model config points at the tests' fake model server).

- live latency: `--live` random 12-A games created in the lobby and watched live; for every
  step that reached the page after its first render, the time from the step's checkpoint
  being saved (the database's timestamp) to the page receiving it (Chromium's clock; both
  are this machine's clock): p50, p95 and max over all those steps (goal: p50 < 1 s);
- click to question: `--turns` 12-A games with one human seat (P03) and random seats
  between, the night's deliberate minimum duration off: for every answer of the human
  seat, the time from clicking Send to the next question on the page (goal: median
  at most 0.3 s);
- first render: a finished 148-step random game (seed 59, `exile_needs_majority`) opened
  cold `--loads` times (a new browser context and a reload, as when a link is opened):
  milliseconds from navigation until the whole transcript is on the page (goal: median
  < 5 s).

    python benchmarks/web_app.py --live 3 --turns 3 --loads 5

Needs the dev extra (Playwright) and Debian's `chromium`. Other work on the machine slows
these figures down: each line starts with the load average.
"""

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# The server and browser helpers live in the tests package, which is not installed: run as
# a script, the repository root is not on the path.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from autowerewolf.web.reader import GameReader
from tests.fixed import HEX_SECRET
from tests.web.browser import (
    VIEWPORT,
    create_in_lobby,
    epoch,
    frame_arrivals,
    open_tab,
    ready_at,
    wait_finished,
)
from tests.web.conftest import CHROMIUM_ARGS, Server, running_server
from tests.web.fake_model import fake_model_server

# A 148-step random 12-A game (the seed alone decides: no secret).
REPLAY_GAME = {"seed": 59, "secret": "", "variants": {"exile_needs_majority": True}}
# The next question, or the end of the game, is on the page.
NEXT_QUESTION = """key => {
  const form = document.querySelector('#decision');
  return (form && form.dataset.key !== key) || document.querySelector('#winner');
}"""


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def show(what: str, seconds: list[float], goal: str) -> None:
    if seconds:
        print(
            f"{load()} | {what}: median {statistics.median(seconds):.3f} s, p90 "
            f"{percentile(seconds, 90):.3f} s, max {max(seconds):.3f} s (goal: {goal})",
            flush=True,
        )


def load() -> str:
    return "load {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


def saved_at(server: Server, game: str) -> dict[int, float]:
    reader = GameReader(server.db)
    try:
        return {s.game.ply: epoch(s.saved_at) for s in reader.steps(game) if s.saved_at}
    finally:
        reader.close()


def live_latency_ms(browser: Any, server: Server, seed: int) -> list[float]:
    """Checkpoint-to-page latency of every step of one game that arrived live."""
    tab = open_tab(browser, server, f"/app/#/enter/{server.owner}")
    game = create_in_lobby(tab, {}, seed=seed)
    wait_finished(tab.page)
    saved = saved_at(server, game)
    ready = tab.page.evaluate(
        "(performance.timeOrigin + performance.getEntriesByName('aw-ready-rendered')[0].startTime)"
        " / 1000"
    )
    arrivals = frame_arrivals(tab.page)
    tab.close()
    return [(at - saved[ply]) * 1000 for ply, at in arrivals if at > ready and ply in saved]


def click_to_question_s(browser: Any, server: Server, seed: int) -> list[float]:
    """Seconds from the human seat's click on Send to its next question, over one game."""
    owner = open_tab(browser, server, f"/app/#/enter/{server.owner}")
    create_in_lobby(owner, {"P03": "human"}, seed=seed, secret=HEX_SECRET)
    owner.page.click("#links summary")
    link = owner.page.get_attribute("#link-P03", "href")
    owner.close()
    assert link is not None
    tab = open_tab(browser, server, link)
    page, took = tab.page, []
    page.wait_for_selector("#decision", timeout=60_000)
    while not page.locator("#winner").count():
        key = page.get_attribute("#decision", "data-key")
        page.locator("#decision input[type=radio]").first.check()
        if page.locator("#speech").count():
            page.fill("#speech", "I pass.")
        clicked = time.monotonic()
        page.click("#send")
        page.wait_for_function(NEXT_QUESTION, arg=key, polling="raf", timeout=60_000)
        if page.locator("#decision").count():
            took.append(time.monotonic() - clicked)
    tab.close()
    return took


def chromium_or_exit() -> str:
    """The headless browser's executable; a one-line error where it is not installed."""
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        sys.exit("error: chromium is not installed (apt-get install -y chromium)")
    return executable


def first_render_ms(browser: Any, server: Server, game: str) -> float:
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.goto(f"{server.url}/app/#/enter/{server.owner}")
    page.wait_for_function("!location.hash.startsWith('#/enter/')")  # the token is a cookie
    page.goto(f"{server.url}/app/#/game/{game}")
    page.reload()  # a cold page load, as when a link is opened
    took = ready_at(page)
    context.close()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--live", type=int, default=3, help="games watched live")
    parser.add_argument("--turns", type=int, default=3, help="games with a human seat")
    parser.add_argument("--loads", type=int, default=5, help="cold loads of the replay")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    executable = chromium_or_exit()
    with (
        tempfile.TemporaryDirectory() as tmp,
        fake_model_server() as model_url,
        sync_playwright() as playwright,
    ):
        workdir = Path(tmp)
        models = workdir / "models.yaml"
        models.write_text(f"default: {{backend: api, base_url: '{model_url}', model: fake}}\n")
        with running_server(workdir, workdir / "games.db", models) as server:
            browser = playwright.chromium.launch(
                executable_path=executable, headless=True, args=CHROMIUM_ARGS
            )
            latency: list[float] = []
            for seed in range(7, 7 + args.live):
                latency += live_latency_ms(browser, server, seed)
            show(f"live latency checkpoint->browser over {len(latency)} steps of {args.live} "
                 "games", [ms / 1000 for ms in latency], "p50 < 1 s")  # fmt: skip
            turns: list[float] = []
            for seed in range(1, 1 + args.turns):
                turns += click_to_question_s(browser, server, seed)
            show(f"click to next question over {len(turns)} answers of {args.turns} games",
                 turns, "median <= 0.3 s")  # fmt: skip
            replay = str(server.create(REPLAY_GAME)["game"])
            server.wait_status(replay, "finished")
            ply = max(saved_at(server, replay))
            renders = [first_render_ms(browser, server, replay) for _ in range(args.loads)]
            print(
                f"{load()} | first render of a {ply}-step replay, {args.loads} cold loads: "
                f"median {statistics.median(renders):.0f} ms, max {max(renders):.0f} ms "
                f"({', '.join(f'{ms:.0f}' for ms in renders)}) (goal: median < 5000)"
            )
            browser.close()


if __name__ == "__main__":
    main()
