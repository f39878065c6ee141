"""A real `langgraph dev` on 127.0.0.1, started from the repository's langgraph.json, for
the tests that drive the served graph (test_graph_studio.py, test_graph_langgraph_dev.py)."""

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from autowerewolf.web import tokens
from autowerewolf.web.settings import DB_ENV
from tests.graph.graph_helpers import REPO
from tests.processes import stop_group

GRAPH_ID = "werewolf"
STARTUP_TIMEOUT_S = 60
SECRET = "langgraph-dev-test-secret"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def config_for(tmp_path: Path) -> Path:
    """The repository's langgraph.json with its paths made absolute.

    `langgraph dev` resolves `dependencies` and graph paths against its working directory,
    not against the config file (langgraph_cli/cli.py `dev`), so a server started outside
    the repository needs absolute paths; everything else is the repository's file as is."""
    source = REPO / "langgraph.json"
    config = json.loads(source.read_text(encoding="utf-8"))
    base = source.parent
    config["dependencies"] = [str((base / dep).resolve()) for dep in config["dependencies"]]
    graphs = {}
    for graph_id, spec in config["graphs"].items():
        path, _, attr = spec.rpartition(":")
        is_file = path.startswith(".") or path.endswith(".py")  # else an importable module
        graphs[graph_id] = f"{(base / path).resolve()}:{attr}" if is_file else spec
    config["graphs"] = graphs
    target = tmp_path / "langgraph.json"
    target.write_text(json.dumps(config), encoding="utf-8")
    return target


def owner_token() -> str:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(tokens.SECRET_ENV, SECRET)
        return tokens.make("owner", expires=int(time.time()) + 3600)


def owner_client(url: str) -> Any:
    from langgraph_sdk import get_sync_client

    return get_sync_client(url=url, headers={"Authorization": f"Bearer {owner_token()}"})


def tail(path: Path, lines: int = 30) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


@contextmanager
def langgraph_dev(workdir: Path, db: Path) -> Iterator[tuple[str, Path]]:
    """A running `langgraph dev` on `db`: its URL and its log file."""
    config = config_for(workdir)
    assert GRAPH_ID in json.loads(config.read_text())["graphs"]
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = workdir / "server.log"
    env = {
        **os.environ,
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        tokens.SECRET_ENV: SECRET,
        DB_ENV: str(db),
    }
    args = [
        sys.executable, "-m", "langgraph_cli", "dev", "--host", "127.0.0.1", "--port", str(port),
        "--no-browser", "--no-reload", "--config", str(config),
    ]  # fmt: skip
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            args, cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        client = owner_client(url)
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"langgraph dev exited ({proc.returncode}):\n{tail(log_path)}")
            if time.monotonic() > deadline:
                pytest.fail(f"langgraph dev did not answer /ok in time:\n{tail(log_path)}")
            try:
                if client.http.get("/ok") is not None:
                    break
            except Exception:  # not listening yet
                time.sleep(0.25)
        # Its runtime state goes to the working directory, not into the repository.
        assert (workdir / ".langgraph_api").is_dir()
        yield url, log_path
    finally:
        stop_group(proc, 15)
