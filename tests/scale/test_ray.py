"""Ray across machines, on a local cluster (head and two worker nodes): a batch spread
over the workers finishes; killing a worker node mid-batch and killing the driver lose no
game, and every game is identical to its uninterrupted run (tests/scale/ray_scenario.py).

The scenario runs in a process of its own inside a private network namespace where
loopback is the only interface (Ray cannot be bound to 127.0.0.1 by flags alone)."""

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.servers.postgres import bindir

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.cluster


def loopback_only(command: list[str]) -> list[str]:
    """`command` in a new network namespace, if this machine lets us make one."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return command
    probe = subprocess.run([unshare, "-n", "true"], capture_output=True)
    if probe.returncode != 0:  # not root: try an unprivileged user namespace
        probe = subprocess.run([unshare, "-rn", "true"], capture_output=True)
        if probe.returncode != 0:
            return command
        return [unshare, "-rn", "--", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", *command]
    return [unshare, "-n", "--", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", *command]


def test_ray_batches_survive_a_killed_worker_and_a_killed_driver() -> None:
    for module, extra in (("ray", "ray"), ("langgraph.checkpoint.postgres", "postgres")):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f'the {extra} extra is not installed (pip install -e ".[{extra}]")')
    if bindir() is None:
        pytest.skip("PostgreSQL is not installed (apt-get install -y postgresql)")
    command = loopback_only([sys.executable, "-m", "tests.scale.ray_scenario"])
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=1500)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["spread"] == {"finished": 12, "differing": []}
    killed = report["kill_worker"]
    batch = report["random_games"]
    assert killed["finished"] == batch and killed["differing"] == []
    assert killed["resumed"], "the killed worker's games should resume mid-game elsewhere"
    assert report["kill_driver"]["rerun_exit"] == 0, report["kill_driver"]
    assert 0 < report["kill_driver"]["unfinished_before"] < batch, "killed mid-batch"
    assert report["kill_driver"]["differing"] == []
