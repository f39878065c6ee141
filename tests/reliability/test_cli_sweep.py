"""Promise: across at least 120 bad invocations of every command and at least 100 runs of
the reading commands on damaged, foreign, empty and read-only databases: no traceback, no
bad input accepted with exit code 0, every error one line, no file modified by a reader.

"""

from pathlib import Path

import pytest

from .sweep import Outcome, counts, sweep

pytestmark = pytest.mark.long


def _failures(outcomes: list[Outcome], owner: str) -> list[str]:
    return [
        f"{o.case.name}: {'; '.join(o.problems)} | {o.stderr[:150]}"
        for o in outcomes
        if o.problems and o.case.owner == owner
    ]


# One test, not one per promise: on two workers each would run the sweep (about 40 s).
def test_the_sweep_is_big_enough_and_every_case_holds(tmp_path: Path) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AUTOWEREWOLF_LOG_DIR", str(tmp_path / "logs"))
        outcomes = list(sweep(tmp_path / "work"))
    totals = counts(outcomes)
    assert totals["bad invocations"] >= 120 and totals["database runs"] >= 100
    commands = {o.case.args[0] for o in outcomes}
    assert {"play", "resume", "batch", "games", "inspect", "history", "fork", "replay",
            "tournament", "report"} <= commands  # fmt: skip
    # No traceback, no bad input accepted, no file modified by a reader.
    assert _failures(outcomes, "i8") == []
    # The play and script validation cases.
    assert _failures(outcomes, "lead") == []
