"""The closing lines of .ci/run's pytest runs, side by side, and their total.

    python3 .ci/summary.py NAME=LOG...

Each LOG is a run's output; its closing line is pytest's last counts line ("646 passed,
1 skipped, 12 deselected in 115.20s"). Prints one line per run with its passed, failed,
skipped and deselected counts (0 where pytest leaves one out, but "-" for a deselected count
pytest did not report: pytest-xdist's runs never do) and a total line. Exits 1 if a log has
no closing line or a run failed, errored or ran no test.
"""

import re
import sys
from pathlib import Path

COUNT = re.compile(r"(\d+) (passed|failed|skipped|deselected|errors?|xfailed|xpassed)\b")
CLOSING = re.compile(r"^=*\s*(\d+ \w+(, \d+ \w+)*) in \d")
SHOWN = ("passed", "failed", "skipped", "deselected")


def closing_counts(text: str) -> dict[str, int] | None:
    """The counts of the last closing line in `text`, or None if it has none."""
    for line in reversed(text.splitlines()):
        if CLOSING.match(line.strip()):
            counts: dict[str, int] = {}
            for number, word in COUNT.findall(line):
                word = "errors" if word.startswith("error") else word
                counts[word] = counts.get(word, 0) + int(number)
            return counts
    return None


def main(args: list[str]) -> int:
    total = dict.fromkeys(SHOWN, 0)
    ok = True
    for arg in args:
        name, _, path = arg.partition("=")
        counts = closing_counts(Path(path).read_text(encoding="utf-8", errors="replace"))
        if counts is None:
            print(f"{name}: no pytest closing line in {path}")
            ok = False
            continue
        deselected = str(counts["deselected"]) if "deselected" in counts else "-"
        errors = counts.get("errors", 0)
        print(
            f"{name}: {counts.get('passed', 0)} passed, {counts.get('failed', 0)} failed, "
            f"{counts.get('skipped', 0)} skipped, {deselected} deselected"
            + (f", {errors} errors" if errors else "")
        )
        for key in SHOWN:
            total[key] += counts.get(key, 0)
        ok = ok and not counts.get("failed") and not errors and counts.get("passed", 0) > 0
    print(f"total: {total['passed']} passed, {total['failed']} failed, {total['skipped']} skipped")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
