"""A throwaway PostgreSQL server from Debian's packages, on 127.0.0.1, for tests and
benchmarks.

    with postgres_server() as url: ...      # postgresql://test@127.0.0.1:PORT/postgres
    python -m tests.servers.postgres        # start one, print its URL, stop on Enter

Needs `apt-get install -y postgresql` (Debian 12: PostgreSQL 15, binaries in
/usr/lib/postgresql/<version>/bin, not on PATH). initdb refuses to run as root, so as root
the server runs as the `postgres` system user the package created. Trust authentication,
a loopback TCP port and a Unix socket in its own temporary folder: nothing is written
outside that folder, and no system cluster is touched.
"""

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path


def bindir() -> Path | None:
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4])
    )
    return Path(found[-1]).parent if found else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _as_server_user(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


@contextlib.contextmanager
def postgres_server(*, fast: bool = True, max_connections: int = 200) -> Iterator[str]:
    """Yields the server's URL. `fast`: no fsync (tests: the data is thrown away anyway);
    False for measurements."""
    binaries = bindir()
    if binaries is None:
        raise RuntimeError("PostgreSQL binaries not found: apt-get install -y postgresql")
    root = Path(tempfile.mkdtemp(prefix="awpg-"))
    data = root / "data"
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    os.chmod(root, 0o700)
    port = free_port()
    settings = {
        "listen_addresses": "127.0.0.1",
        "port": str(port),
        "unix_socket_directories": str(root),
        "max_connections": str(max_connections),
        **(
            {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"} if fast else {}
        ),
    }
    options = " ".join(f"-c {k}={v}" for k, v in settings.items())
    # A SIGTERM (`timeout`, CI) would end Python without `finally` and leave the server
    # running: it becomes SystemExit while the server is up.
    restore = None
    main = threading.current_thread() is threading.main_thread()
    if main and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        restore = signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    pg_ctl = str(binaries / "pg_ctl")
    try:
        initdb = [str(binaries / "initdb"), "-D", str(data), "-U", "test", "--auth=trust"]
        initdb += ["-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"]
        subprocess.run(_as_server_user(initdb), check=True, capture_output=True, text=True)
        start = [pg_ctl, "-D", str(data), "-l", str(root / "log"), "-o", options, "-w", "start"]
        subprocess.run(_as_server_user(start), check=True, capture_output=True, text=True)
        yield f"postgresql://test@127.0.0.1:{port}/postgres"
    except subprocess.CalledProcessError as err:
        log = (root / "log").read_text() if (root / "log").exists() else ""
        raise RuntimeError(f"postgres failed: {err.stderr}\n{log}") from None
    finally:
        stop = [pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"]
        subprocess.run(_as_server_user(stop), capture_output=True)
        shutil.rmtree(root, ignore_errors=True)
        if restore is not None:
            signal.signal(signal.SIGTERM, restore)


if __name__ == "__main__":
    with postgres_server(fast=False) as url:
        print(url, flush=True)
        with contextlib.suppress(KeyboardInterrupt, EOFError):
            input("Enter to stop\n")
