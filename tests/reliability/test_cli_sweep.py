"""Promise: across at least 120 bad invocations of every command and at least 100 runs of
the reading commands on damaged, foreign, empty and read-only databases: no traceback, no
bad input accepted with exit code 0, every error one line, no file modified by a reader.

"""

import pytest

from .sweep import Outcome, counts, sweep

pytestmark = pytest.mark.long


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> list[Outcome]:
    with pytest.MonkeyPatch.context() as patch:
        root = tmp_path_factory.mktemp("sweep")
        patch.setenv("AUTOWEREWOLF_LOG_DIR", str(root / "logs"))
        return list(sweep(root / "work"))


def _failures(outcomes: list[Outcome], owner: str) -> list[str]:
    return [
        f"{o.case.name}: {'; '.join(o.problems)} | {o.stderr[:150]}"
        for o in outcomes
        if o.problems and o.case.owner == owner
    ]


def test_the_sweep_is_big_enough(outcomes: list[Outcome]) -> None:
    totals = counts(outcomes)
    assert totals["bad invocations"] >= 120 and totals["database runs"] >= 100
    commands = {o.case.args[0] for o in outcomes}
    assert {"play", "resume", "batch", "games", "inspect", "history", "fork", "replay",
            "tournament", "report"} <= commands  # fmt: skip


def test_no_traceback_no_accepted_bad_input_no_modified_file(outcomes: list[Outcome]) -> None:
    assert _failures(outcomes, "i8") == []


def test_play_and_script_validation_cases(outcomes: list[Outcome]) -> None:
    assert _failures(outcomes, "lead") == []
