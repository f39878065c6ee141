"""A child HTTP server process that is always stopped: on exit, on GC, or explicitly."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
import weakref
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Self

# Health checks go straight to 127.0.0.1, never through an HTTP(S)_PROXY from the env.
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


PR_SET_PDEATHSIG = 1
_LAUNCHER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="server-launcher")


class ServerStartError(RuntimeError):
    """A managed server did not come up; the message ends with its last log line."""


def free_port(host: str = "127.0.0.1") -> int:
    """A port that was free a moment ago (the server binds it right after)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def _die_with_parent() -> None:
    """In the child: the kernel sends it SIGTERM when the thread that started it dies, even
    by SIGKILL, so a crashed game never leaves a model server behind (Linux only)."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def _terminate(proc: subprocess.Popen[bytes], log: IO[bytes], grace_s: float) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    log.close()


def _last_line(path: Path) -> str:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").strip().splitlines()
    except OSError:
        return "(no log)"
    return lines[-1] if lines else "(empty log)"


class ManagedProcess:
    """Start ``argv``, wait until ``health_url`` answers 200, stop it cleanly later."""

    def __init__(
        self,
        name: str,
        argv: Sequence[str],
        *,
        health_url: str,
        log_path: Path,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
        startup_timeout_s: float = 120.0,
        grace_s: float = 10.0,
    ) -> None:
        self.name = name
        self.argv = list(argv)
        self.health_url = health_url
        self.log_path = log_path
        self.env = dict(env) if env is not None else None
        self.cwd = cwd
        self.startup_timeout_s = startup_timeout_s
        self.grace_s = grace_s
        self._proc: subprocess.Popen[bytes] | None = None
        self._finalizer: weakref.finalize[..., ManagedProcess] | None = None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> None:
        if self.running:
            return
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("wb")
        # Output goes to a file: an unread pipe fills up and stalls the server.
        # Started from one long-lived thread: the death signal follows the starting thread,
        # and worker threads that ask for a model come and go during a game.
        proc = _LAUNCHER.submit(
            subprocess.Popen,
            self.argv,
            preexec_fn=_die_with_parent,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=self.env,
            cwd=self.cwd,
        ).result()
        self._proc = proc
        # finalize also runs at interpreter exit, so a forgotten server never outlives us.
        self._finalizer = weakref.finalize(self, _terminate, proc, log, self.grace_s)
        try:
            self._wait_healthy(proc)
        except BaseException:
            self.stop()
            raise

    def _wait_healthy(self, proc: subprocess.Popen[bytes]) -> None:
        deadline = time.monotonic() + self.startup_timeout_s
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise ServerStartError(
                    f"{self.name} exited with code {proc.returncode} during startup "
                    f"(log {self.log_path}): {_last_line(self.log_path)}"
                )
            with (
                contextlib.suppress(urllib.error.URLError, OSError),
                _DIRECT.open(self.health_url, timeout=2) as resp,
            ):
                if resp.status == 200:
                    return
            time.sleep(0.2)
        raise ServerStartError(
            f"{self.name} not healthy after {self.startup_timeout_s:.0f}s "
            f"(log {self.log_path}): {_last_line(self.log_path)}"
        )

    def stop(self) -> None:
        if self._finalizer is not None:
            self._finalizer()
        self._finalizer = None
        self._proc = None

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
