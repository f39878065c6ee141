"""A real `autowerewolf serve` on 127.0.0.1 (one per test session) with a temporary game
database, LLM seats on a fake OpenAI-compatible model server, and headless Chromium."""

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from autowerewolf.web import tokens
from tests.processes import stop_group
from tests.web.fake_model import fake_model_server

STARTUP_TIMEOUT_S = 90
SECRET = "test-secret-for-the-web-tests"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    url: str
    owner: str
    db: Path
    log: Path
    pid: int = 0  # the server's process (group)

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        # Plain HTTP on 127.0.0.1: no TLS to verify (the CA bundle costs 40 ms per client).
        return httpx.Client(base_url=self.url, headers=headers, timeout=60, verify=False)

    def token(
        self,
        kind: tokens.Kind,
        game: str | None = None,
        seat: str | None = None,
        expires_in_s: int = 3600,
        generation: int = 0,
    ) -> str:
        """A token signed with the server's secret, as the server would hand it out."""
        previous = os.environ.get(tokens.SECRET_ENV)
        os.environ[tokens.SECRET_ENV] = SECRET
        try:
            expires = int(time.time()) + expires_in_s
            return tokens.make(kind, game, seat, expires=expires, generation=generation)
        finally:
            if previous is None:
                del os.environ[tokens.SECRET_ENV]
            else:
                os.environ[tokens.SECRET_ENV] = previous

    def create(self, form: dict[str, object]) -> dict[str, object]:
        with self.client(self.owner) as client:
            response = client.post("/aw/games", json=form)
        assert response.status_code == 201, response.text
        return response.json()

    def wait_status(self, game: str, wanted: str, timeout_s: float = 120) -> None:
        deadline = time.monotonic() + timeout_s
        with self.client(self.owner) as client:
            while time.monotonic() < deadline:
                if client.get(f"/aw/games/{game}").json()["status"] == wanted:
                    return
                time.sleep(0.2)
        raise AssertionError(f"game {game} never became {wanted}")


def token_of(link: str) -> str:
    """The token of a link the server hands out (`.../app/#/enter/TOKEN`)."""
    return link.split("#/enter/", 1)[1]


def answer_some(server: Server, game: str, token: str, answers: int) -> None:
    """Up to `answers` answers from the human seat, each as soon as it is asked."""
    with server.client(token) as seat, server.client(server.owner) as owner:
        deadline = time.monotonic() + 60
        while answers and time.monotonic() < deadline:
            header = owner.get(f"/aw/games/{game}")
            if header.status_code == 200 and header.json()["status"] == "finished":
                return
            reply = seat.get(f"/aw/games/{game}/decision")
            decision = reply.json().get("decision") if reply.status_code == 200 else None
            if decision is None:
                time.sleep(0.05)
                continue
            text = "Hm." if decision["text"] else ""
            option = decision["options"][0]["option"]
            seat.post(
                f"/aw/games/{game}/answer",
                json={"key": decision["key"], "option": option, "text": text},
            )
            answers -= 1
        if answers and time.monotonic() >= deadline:
            raise AssertionError(f"game {game} asked its human nothing for 60 s")


def sse_payloads(client: httpx.Client, path: str, until_end: bool = True) -> list[str]:
    """The data of every message of one of the app's event streams."""
    payloads = []
    with client.stream("GET", path, timeout=120) as response:
        assert response.status_code == 200, response.read()
        for line in response.iter_lines():
            if line.startswith("data:"):
                payloads.append(line[5:].strip())
            if line.startswith("event: end") or (not until_end and line.startswith("event: ready")):
                break
    return payloads


def tail(path: Path, lines: int = 40) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


@contextmanager
def running_server(
    workdir: Path, db: Path, models: Path | None = None, night_call_s: float = 0.0
) -> Iterator[Server]:
    """`autowerewolf serve` on a free port of 127.0.0.1, stopped (with its children) after.
    Its night clock is off unless asked for (tests/web/test_web_night_clock.py)."""
    log, port = workdir / "server.log", free_port()
    env = {**os.environ, tokens.SECRET_ENV: SECRET, "LANGGRAPH_CLI_NO_ANALYTICS": "1"}
    args = [sys.executable, "-m", "autowerewolf", "serve", "--port", str(port), "--db", str(db),
            "--night-call-s", str(night_call_s)]  # fmt: skip
    if models is not None:
        args += ["--models", str(models)]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            args, cwd=workdir, env=env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}"
        owner = _wait_until_serving(proc, url, log)
        yield Server(url=url, owner=owner, db=db, log=log, pid=proc.pid)
    finally:
        stop_group(proc, 20)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the session; its LLM seats play on a fake model server."""
    workdir = tmp_path_factory.mktemp("serve")
    with fake_model_server() as model_url:
        models = workdir / "models.yaml"
        models.write_text(f"default: {{backend: api, base_url: '{model_url}', model: fake}}\n")
        with running_server(workdir, workdir / "games.db", models) as started:
            yield started


def _wait_until_serving(proc: subprocess.Popen[bytes], url: str, log: Path) -> str:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while True:
        if proc.poll() is not None:
            pytest.fail(f"autowerewolf serve exited ({proc.returncode}):\n{tail(log)}")
        if time.monotonic() > deadline:
            pytest.fail(f"autowerewolf serve did not start in time:\n{tail(log)}")
        found = re.search(r"owner link \(keep it private\): (\S+)", log.read_text(errors="replace"))
        try:
            ok = httpx.get(f"{url}/ok", timeout=2).status_code == 200
        except httpx.HTTPError:
            ok = False
        if found and ok:
            assert found.group(1).startswith(f"{url}/app/#/enter/owner.")
            return token_of(found.group(1))
        time.sleep(0.25)


# Per module, not per session: Playwright's sync API keeps an event loop running in the
# main thread while it is open, and a later test's asyncio.run() would fail under it.
@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright for Python is not installed (the dev extra)"
    )
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()
