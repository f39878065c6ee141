"""Skips under CI: a green CI run means every test it names ran.

With `CI=true` in the environment (.ci/run sets it; CI itself does too), a test or test
module that skips fails instead, naming its reason, unless the reason matches an entry of
`ALLOWED_SKIPS`. Outside CI a skip stays a skip: a developer without Chromium, PostgreSQL
or an extra sees which one to install.

`ALLOWED_SKIPS` is empty: on CI's machine every extra and system package the tests need is
installed (.ci/run installs them and stops if it cannot), so no test has a reason to skip.
An entry is a regular expression matched against the whole skip reason, and the reason
why that skip is expected in CI; docs/reliability.md ("Tests and CI") lists them.
"""

import os
import re

import pytest

ALLOWED_SKIPS: dict[str, str] = {}
CI_VALUES = ("1", "true", "yes")


def strict() -> bool:
    return os.environ.get("CI", "").strip().lower() in CI_VALUES


def skip_reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return reason.removeprefix("Skipped: ")


def allowed(reason: str) -> bool:
    return any(re.fullmatch(pattern, reason) for pattern in ALLOWED_SKIPS)


def _fail_if_unexpected(report: pytest.TestReport | pytest.CollectReport) -> None:
    # An expected failure (xfail) is reported as skipped too; it is not a skip.
    if not (report.skipped and strict()) or hasattr(report, "wasxfail"):
        return
    reason = skip_reason(report)
    if allowed(reason):
        return
    report.outcome = "failed"
    report.longrepr = (
        f"unexpected skip under CI ({reason}); install what it needs, or add it to "
        "ALLOWED_SKIPS in tests/skip_policy.py with the reason it may skip in CI"
    )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> object:
    outcome = yield
    _fail_if_unexpected(outcome.get_result())
    return None


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> object:
    outcome = yield
    _fail_if_unexpected(outcome.get_result())
    return None
