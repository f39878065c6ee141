"""Stopping the servers tests start in a process group of their own."""

import os
import signal
import subprocess


def stop_group(proc: subprocess.Popen[bytes], timeout_s: float) -> None:
    """SIGTERM to the process's group, then SIGKILL if it has not ended within timeout_s."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=timeout_s)
