"""Every test has a time limit (tests/time_limits.py), so a hung test fails, named, and the
run goes on instead of holding CI until CI's own limit stops it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.time_limits import DEFAULT_LIMIT_S, LIMIT_S_BY_MARKER, limit_s

REPO = Path(__file__).resolve().parents[2]


def test_every_test_of_this_run_has_its_runs_limit(request: pytest.FixtureRequest) -> None:
    assert request.config.pluginmanager.hasplugin("timeout"), "pytest-timeout (dev extra)"
    if request.config.getoption("timeout") is not None or os.environ.get("PYTEST_TIMEOUT"):
        pytest.skip("a limit was given for the whole run (--timeout or $PYTEST_TIMEOUT)")
    items = request.session.items
    assert len(items) > 1
    for item in items:
        marker = item.get_closest_marker("timeout")
        assert marker is not None, item.nodeid
        assert marker.args[0] == limit_s(item), item.nodeid
    assert limit_s(request.node) == DEFAULT_LIMIT_S  # this test is of the default run
    assert DEFAULT_LIMIT_S <= 5 * 60 < min(LIMIT_S_BY_MARKER.values())


@pytest.mark.long
def test_a_hung_test_fails_named_and_the_run_ends(tmp_path: Path) -> None:
    """On two workers, as the default run: the hung test fails with its name and stack,
    and the test after it still runs."""
    (tmp_path / "test_hang.py").write_text(
        "import time\n\nimport pytest\n\n\n"
        "@pytest.mark.timeout(2)\n"
        "def test_waits_forever() -> None:\n    time.sleep(3600)\n\n\n"
        "def test_after_it() -> None:\n    pass\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("PYTEST_TIMEOUT", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.time_limits", "-n", "2", "-rf",
         "-p", "no:cacheprovider", str(tmp_path / "test_hang.py")],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAILED test_hang.py::test_waits_forever - Failed: Timeout" in done.stdout
    assert "1 failed, 1 passed" in done.stdout
    assert "time.sleep(3600)" in done.stdout  # the stack says where it waited
