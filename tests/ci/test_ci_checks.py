"""CI's own checks: a skip under CI=true fails unless allowed (tests/skip_policy.py), a
Debian package that cannot be installed stops CI naming it (.ci/need), and the closing
summary reads pytest's counts (.ci/summary.py)."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SKIPPING = """
import pytest

def test_runs():
    pass

def test_needs_a_unicorn():
    pytest.skip("no unicorn here")

def test_needs_a_dragon():
    pytest.skip("no dragon here")

@pytest.mark.xfail(reason="a known bug", strict=True)
def test_known_bug():
    assert False
"""
SKIPPED_MODULE = """
import pytest

pytest.importorskip("no_such_module_for_the_ci_test")

def test_never_collected():
    pass
"""
# The allow-list as a test would set it: the dragon may skip, the unicorn may not.
ALLOW_DRAGONS = """
import tests.skip_policy

tests.skip_policy.ALLOWED_SKIPS["no dragon here"] = "dragons are optional"
"""


def run_pytest(folder: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    """pytest on `folder` alone, with the skip policy as its one plugin."""
    (folder / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["PYTHONPATH"] = str(REPO)
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.skip_policy", "-p", "no:cacheprovider",
         "-n", "0", "-rs", str(folder)],
        cwd=folder, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_outside_ci_a_skip_is_a_skip(tmp_path: Path) -> None:
    (tmp_path / "test_skipping.py").write_text(SKIPPING, encoding="utf-8")
    done = run_pytest(tmp_path, ci=None)
    assert done.returncode == 0, done.stdout
    assert "1 passed, 2 skipped, 1 xfailed" in done.stdout


def test_under_ci_an_unexpected_skip_fails_naming_its_reason(tmp_path: Path) -> None:
    (tmp_path / "test_skipping.py").write_text(SKIPPING, encoding="utf-8")
    (tmp_path / "conftest.py").write_text(ALLOW_DRAGONS, encoding="utf-8")
    done = run_pytest(tmp_path, ci="true")
    assert done.returncode == 1, done.stdout
    # The unicorn fails; the allowed dragon still skips; an expected failure is no skip.
    assert "1 failed, 1 passed, 1 skipped, 1 xfailed" in done.stdout
    assert "unexpected skip under CI (no unicorn here)" in done.stdout
    assert "no dragon here" in done.stdout


def test_under_ci_a_skipped_module_fails(tmp_path: Path) -> None:
    (tmp_path / "test_module.py").write_text(SKIPPED_MODULE, encoding="utf-8")
    done = run_pytest(tmp_path, ci="true")
    assert done.returncode != 0, done.stdout
    assert "unexpected skip under CI (could not import 'no_such_module_for_the_ci_test'" in (
        done.stdout
    )


def test_the_suite_loads_the_skip_policy(request: pytest.FixtureRequest) -> None:
    assert request.config.pluginmanager.has_plugin("tests.skip_policy")


def fake_bin(folder: Path, apt_exit: int) -> dict[str, str]:
    """A PATH with an `apt-get` that logs its arguments and exits `apt_exit`, and nothing
    else of this machine's but the shell's basic tools."""
    folder.mkdir()
    apt = folder / "apt-get"
    apt.write_text(f'#!/bin/sh\necho "$@" >> {folder}/apt.log\nexit {apt_exit}\n')
    apt.chmod(0o755)
    return {"PATH": f"{folder}:/usr/bin:/bin", "HOME": str(folder)}


def need(package: str, check: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(REPO / ".ci" / "need"), package, *check],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_need_installs_nothing_when_the_package_is_there(tmp_path: Path) -> None:
    env = fake_bin(tmp_path / "bin", apt_exit=100)
    done = need("postgresql", ["true"], env)
    assert done.returncode == 0 and done.stderr == ""
    assert not (tmp_path / "bin" / "apt.log").exists()


def test_need_stops_naming_a_package_apt_cannot_install(tmp_path: Path) -> None:
    env = fake_bin(tmp_path / "bin", apt_exit=100)
    done = need("chromium", ["command", "-v", "no-such-chromium"], env)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        "error: chromium is missing and could not be installed (apt-get install -y chromium failed)"
    )
    assert (tmp_path / "bin" / "apt.log").read_text().splitlines() == ["update -qq"]


def test_need_stops_when_the_installed_package_is_still_missing(tmp_path: Path) -> None:
    env = fake_bin(tmp_path / "bin", apt_exit=0)
    done = need("postgresql", ["false"], env)
    assert done.returncode == 1
    assert "error: postgresql was installed but is still missing (`false` fails)" in done.stderr
    assert (tmp_path / "bin" / "apt.log").read_text().splitlines() == [
        "update -qq",
        "install -y -qq postgresql",
    ]


def summary(tmp_path: Path, logs: dict[str, str]) -> subprocess.CompletedProcess[str]:
    args = []
    for name, text in logs.items():
        (tmp_path / f"{name}.log").write_text(textwrap.dedent(text), encoding="utf-8")
        args.append(f"{name}={tmp_path / f'{name}.log'}")
    return subprocess.run(
        [sys.executable, str(REPO / ".ci" / "summary.py"), *args],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_summary_shows_every_count_of_every_run(tmp_path: Path) -> None:
    done = summary(
        tmp_path,
        {
            "default": "....\n646 passed, 1 skipped in 115.20s (0:01:55)\n",
            "webslow": "......\n6 passed, 712 deselected in 61.02s (0:01:01)\n",
        },
    )
    assert done.returncode == 0
    assert done.stdout.splitlines() == [
        "default: 646 passed, 0 failed, 1 skipped, - deselected",
        "webslow: 6 passed, 0 failed, 0 skipped, 712 deselected",
        "total: 652 passed, 0 failed, 1 skipped",
    ]


@pytest.mark.parametrize(
    "closing",
    [
        "==== 1 failed, 3 passed, 2 deselected in 3.00s ====",
        "3 passed, 1 error in 3.00s",
        "no tests ran in 0.01s",
        "18 deselected in 0.50s",
    ],
)
def test_summary_fails_a_run_that_failed_or_ran_nothing(tmp_path: Path, closing: str) -> None:
    done = summary(tmp_path, {"run": f"output\n{closing}\n"})
    assert done.returncode == 1, done.stdout
