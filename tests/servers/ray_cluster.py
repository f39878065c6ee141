"""A local Ray cluster for tests and benchmarks: a head node with no CPUs (it runs no
games) and N worker nodes, each its own raylet on this machine; dashboard and usage
statistics off.

    with local_ray_cluster(workers=2) as cluster: cluster.address, cluster.kill_node(0)

`ray start --node-ip-address=127.0.0.1` is not enough to keep Ray on loopback (Ray rewrites
it to the machine's address and binds some ports on all interfaces): the tests run the
cluster inside a private network namespace where loopback is the only interface
(`unshare -n`, see tests/conftest.py). `ray stop` would kill every Ray process of the
machine, so each `ray start` runs in a session of its own and the processes of those
sessions are killed by pid.
"""

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

RAY = str(Path(sys.executable).parent / "ray")
ENV = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}


def _pids_of_sessions(sessions: list[int]) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                if os.getsid(int(entry)) in sessions:
                    pids.append(int(entry))
    return pids


def _cmdline(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    except OSError:
        return []


@dataclass
class LocalCluster:
    address: str
    temp_dir: str
    node_ids: list[str] = field(default_factory=list)  # worker nodes, in start order
    # A session leader's sid is its pid; every daemon a `ray start` leaves keeps that sid,
    # even re-parented to init and renamed (ray::DashboardAgent).
    sessions: list[int] = field(default_factory=list)

    def raylet_pid(self, node_index: int) -> int:
        node_id = self.node_ids[node_index]
        for pid in _pids_of_sessions(self.sessions):
            cmd = _cmdline(pid)
            if cmd and cmd[0].endswith("raylet") and f"--node_id={node_id}" in cmd:
                return pid
        raise LookupError(node_id)

    def game_workers(self) -> list[int]:
        """The pids of the cluster's batch workers (Ray titles an actor's process
        `ray::GameWorker`, and `ray::GameWorker.play` while it runs a call)."""
        return [
            pid
            for pid in _pids_of_sessions(self.sessions)
            if (cmd := _cmdline(pid)) and cmd[0].startswith("ray::GameWorker")
        ]

    def kill_node(self, node_index: int) -> None:
        """SIGKILL a worker node's raylet: its workers and actors die with it."""
        os.kill(self.raylet_pid(node_index), signal.SIGKILL)

    def stop(self) -> None:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            for pid in _pids_of_sessions(self.sessions):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, sig)
            deadline = time.monotonic() + 10
            while _pids_of_sessions(self.sessions) and time.monotonic() < deadline:
                time.sleep(0.2)
        shutil.rmtree(self.temp_dir, ignore_errors=True)


def _worker_node_ids(address: str) -> set[str]:
    code = (
        f"import json, ray; ray.init(address={address!r}, logging_level='ERROR'); "
        "print(json.dumps([n['NodeID'] for n in ray.nodes() "
        "if n['Alive'] and n['Resources'].get('CPU')]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV)
    if out.returncode:
        raise RuntimeError(f"cannot list the nodes: {out.stderr[-2000:]}")
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def _ray_start(cluster: LocalCluster, args: list[str]) -> None:
    process = subprocess.Popen(
        [RAY, "start", *args],
        env=ENV,
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    cluster.sessions.append(process.pid)
    out, _ = process.communicate()
    if process.returncode:
        raise RuntimeError(f"ray start {' '.join(args)} failed:\n{out}")


@contextlib.contextmanager
def local_ray_cluster(workers: int = 2, cpus_per_worker: int = 1) -> Iterator[LocalCluster]:
    from tests.servers.postgres import free_port

    temp_dir = tempfile.mkdtemp(prefix="ray-")  # short: Ray's socket paths must fit 107 bytes
    port = free_port()
    cluster = LocalCluster(address=f"127.0.0.1:{port}", temp_dir=temp_dir)
    common = ["--node-ip-address=127.0.0.1", "--disable-usage-stats"]
    try:
        head = ["--head", f"--port={port}", f"--temp-dir={temp_dir}"]
        _ray_start(cluster, [*head, "--include-dashboard=false", "--num-cpus=0", *common])
        for _ in range(workers):
            before = _worker_node_ids(cluster.address)
            worker = [f"--address={cluster.address}", f"--num-cpus={cpus_per_worker}", *common]
            _ray_start(cluster, worker)
            cluster.node_ids.append((_worker_node_ids(cluster.address) - before).pop())
        yield cluster
    finally:
        cluster.stop()
