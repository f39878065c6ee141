"""A time limit on every test, so that a hung test fails, named, with its stack.

A test waiting forever (a server that never answers, a stream that never ends) once held
a CI run until CI's own limit stopped it, with nothing to say which test it was.
pytest-timeout (the dev extra) fails a test that runs past its limit and prints every
thread's stack. The limit comes from the test's run: a test of the default run must fit
in it (under 5 minutes in all); the runs of `.ci/run` that play whole tournaments, Ray
clusters and the real model get more. A test's own `@pytest.mark.timeout` wins, and a
limit asked for on the command line (`--timeout S`; `--timeout 0` for none, in a debugger)
or in `$PYTEST_TIMEOUT` replaces these.
"""

import os

import pytest

DEFAULT_LIMIT_S = 300
# The runs outside the default one (pyproject.toml's markers), by their longest tests.
LIMIT_S_BY_MARKER = {
    "webslow": 900,
    "long": 1200,
    "cluster": 1800,
    "realmodel": 1800,
    "kaggle": 1800,
    "gte": 1800,
    "verifiers": 1800,
}


def limit_s(item: pytest.Item) -> int:
    return max(
        (s for marker, s in LIMIT_S_BY_MARKER.items() if item.get_closest_marker(marker)),
        default=DEFAULT_LIMIT_S,
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.pluginmanager.hasplugin("timeout"):
        return  # without the dev extra's pytest-timeout: no limits
    if config.getoption("timeout") is not None or os.environ.get("PYTEST_TIMEOUT"):
        return  # the caller chose one limit for every test
    for item in items:
        if item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(limit_s(item)))
