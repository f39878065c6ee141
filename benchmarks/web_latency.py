"""Click to next question on the same day, in headless Chromium against a real
`autowerewolf serve` on 127.0.0.1: 12-A games with one human seat (P01) and random seats
between; for every answer whose next question comes on the same day or night (the key's
`d<N>`/`n<N>` prefix), the time from clicking Send to that question on the page. Median
and p90 over at least `--answers` answers (goal: p90 at most 0.3 s). `--screens DIR` saves
the seat's question, role card, death notice and ending, and the spectator's page of the
finished game (its night summary and timeline), as PNGs.

    python benchmarks/web_latency.py --answers 15 --screens /tmp/screens

Needs the dev extra (Playwright) and Debian's `chromium`.
"""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.web_app import NEXT_QUESTION, chromium_or_exit, percentile
from tests.fixed import HEX_SECRET
from tests.web.browser import open_tab
from tests.web.conftest import CHROMIUM_ARGS, Server, running_server


def _phase(key: str | None) -> str:
    return (key or "").split(":")[0]


def _shot(page: Any, screens: Path | None, selector: str, name: str) -> None:
    if screens is not None and page.locator(selector).count():
        page.locator(selector).first.screenshot(path=str(screens / name))


def same_day_latencies(
    browser: Any, server: Server, seed: int, screens: Path | None
) -> list[float]:
    made = server.create(
        {"seed": seed, "secret": HEX_SECRET, "default": "random", "seats": {"P01": "human"}}
    )
    links = dict(made["links"])  # type: ignore[arg-type]
    spectator = open_tab(browser, server, links["spectator"]) if screens is not None else None
    tab = open_tab(browser, server, links["P01"])
    page, took = tab.page, []
    page.wait_for_selector("#decision", timeout=60_000)
    _shot(page, screens, "#seat-panel", "question.png")
    _shot(page, screens, "#me", "role-card.png")
    while not page.locator("#winner").count():
        key = page.get_attribute("#decision", "data-key")
        page.locator("#decision input[type=radio]").first.check()
        if page.locator("#speech").count():
            page.fill("#speech", "I pass.")
        clicked = time.monotonic()
        page.click("#send")
        page.wait_for_function(NEXT_QUESTION, arg=key, polling="raf", timeout=60_000)
        now = time.monotonic()
        asked = (
            page.get_attribute("#decision", "data-key")
            if page.locator("#decision").count()
            else None
        )
        if asked is not None and _phase(asked) == _phase(key):
            took.append(now - clicked)
        if page.locator("#death-notice").count():
            _shot(page, screens, "#me", "death-notice.png")
    page.wait_for_selector("#ending", timeout=60_000)
    _shot(page, screens, "#seat-panel", "ending.png")
    tab.close()
    if spectator is not None and screens is not None:
        spectator.page.wait_for_selector("#winner", timeout=60_000)
        spectator.page.screenshot(path=str(screens / "spectator.png"), full_page=True)
        _shot(spectator.page, screens, "#night-summary", "night-summary.png")
        spectator.close()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--answers", type=int, default=15, help="same-day answers to time")
    parser.add_argument("--screens", type=Path, default=None, help="folder for the PNGs")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    executable = chromium_or_exit()
    if args.screens is not None:
        args.screens.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        workdir = Path(tmp)
        with running_server(workdir, workdir / "games.db") as server:
            browser = playwright.chromium.launch(
                executable_path=executable, headless=True, args=CHROMIUM_ARGS
            )
            took: list[float] = []
            seed = 126
            while len(took) < args.answers:
                took += same_day_latencies(browser, server, seed, args.screens)
                seed += 1
            browser.close()
    print(
        f"click to next question on the same day over {len(took)} answers: median "
        f"{statistics.median(took):.3f} s, p90 {percentile(took, 90):.3f} s, max "
        f"{max(took):.3f} s (goal: p90 <= 0.3 s)"
    )


if __name__ == "__main__":
    main()
