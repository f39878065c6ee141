"""The graph served by `langgraph dev`, driven through langgraph_sdk's sync client:
a random game, a game with a human seat answered by `Command(resume=...)`, and forks.
langgraph.json also brings the web app's auth: the client holds the owner's token."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.events import Event
from autowerewolf.rules.random_play import play_random_game
from autowerewolf.web import tokens
from autowerewolf.web.settings import DB_ENV
from tests.graph.graph_helpers import REPO

pytest.importorskip("langgraph_cli", reason="the `langgraph` CLI (langgraph-cli) is not installed")
pytest.importorskip(
    "langgraph_api", reason="`langgraph dev` needs langgraph-cli[inmem] (langgraph-api)"
)
from langgraph_sdk import get_sync_client

pytestmark = [pytest.mark.slow, pytest.mark.long]

GRAPH_ID = "werewolf"
STARTUP_TIMEOUT_S = 60
SECRET = "langgraph-dev-test-secret"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _config_for(tmp_path: Path) -> Path:
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


def owner_client(url: str) -> Any:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(tokens.SECRET_ENV, SECRET)
        owner = tokens.make("owner")
    return get_sync_client(url=url, headers={"Authorization": f"Bearer {owner}"})


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    workdir = tmp_path_factory.mktemp("langgraph_dev")
    config = _config_for(workdir)
    assert GRAPH_ID in json.loads(config.read_text())["graphs"]
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = workdir / "server.log"
    env = {
        **os.environ,
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        tokens.SECRET_ENV: SECRET,
        DB_ENV: str(workdir / "games.db"),
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
                pytest.fail(f"langgraph dev exited ({proc.returncode}):\n{_tail(log_path)}")
            if time.monotonic() > deadline:
                pytest.fail(f"langgraph dev did not answer /ok in time:\n{_tail(log_path)}")
            try:
                if client.http.get("/ok") is not None:
                    break
            except Exception:  # not listening yet
                time.sleep(0.25)
        # Its runtime state goes to the working directory, not into the repository.
        assert (workdir / ".langgraph_api").is_dir()
        yield url
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=15)


def _tail(path: Path, lines: int = 30) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


def _events(values: dict[str, Any]) -> list[Event]:
    return [Event.model_validate(e) for e in values["events"]]


def test_random_game_human_game_and_forks(server: str) -> None:
    client = owner_client(server)

    # 1. A complete random game: the engine's own random game, event for event.
    thread = client.threads.create()["thread_id"]
    result = client.runs.wait(
        thread, GRAPH_ID, input={"setup": {"seed": 1}, "seating": {"default": "random"}}
    )
    final, expected = play_random_game(GameSetup(seed=1).build())
    assert result["game"]["step"] == "game_over"
    assert result["game"]["winner"] == final.winner.value
    assert _events(result) == expected
    assert client.threads.get(thread)["status"] == "idle"

    # 2. P03 is human: every decision of theirs is an interrupt, answered by resume.
    human = client.threads.create()["thread_id"]
    result = client.runs.wait(
        human, GRAPH_ID,
        input={"setup": {"seed": 13}, "seating": {"default": "random", "seats": {"P03": "human"}}},
    )  # fmt: skip
    asked: list[str] = []
    illegal_sent = False
    for _ in range(40):
        interrupts = result.get("__interrupt__") or []
        if not interrupts:
            break
        (pending,) = interrupts
        value = pending["value"]
        assert list(value["seats"]) == ["P03"]
        assert client.threads.get(human)["status"] == "interrupted"
        state = client.threads.get_state(human)
        assert [i["id"] for i in state["interrupts"]] == [pending["id"]]
        if not illegal_sent:
            illegal_sent = True
            result = client.runs.wait(
                human, GRAPH_ID, command={"resume": {"P03": {"option": "P99", "text": ""}}}
            )
            (again,) = result["__interrupt__"]
            assert again["value"]["key"] == value["key"]
            assert "not legal" in again["value"]["errors"]["P03"]
            continue
        asked.append(value["key"])
        option = value["seats"]["P03"]["options"][0]
        result = client.runs.wait(
            human, GRAPH_ID, command={"resume": {"P03": {"option": option, "text": "Hm."}}}
        )
    assert result["game"]["step"] == "game_over" and not result.get("__interrupt__")
    assert len(asked) >= 3 and len(set(asked)) == len(asked)
    human_records = [r for r in result["records"] if r["seat"] == "P03"]
    assert [r["key"] for r in human_records] == asked
    assert {r["player"] for r in human_records} == {"human"}
    assert client.threads.get(human)["status"] == "idle"

    # 3. Forks of the random game from an earlier checkpoint, into new threads.
    history = client.threads.get_history(thread, limit=1000)
    head = history[0]["checkpoint"]["checkpoint_id"]
    by_step = {h["metadata"]["step"]: h for h in history}
    source, parent = by_step[30], by_step[29]
    assert source["next"] and parent["next"]
    ply = source["values"]["game"]["ply"]
    prefix = len(source["values"]["events"])

    def fork(values: dict[str, Any]) -> dict[str, Any]:
        branch = client.threads.create(graph_id=GRAPH_ID)["thread_id"]
        # Re-apply the state as the node that wrote it: its edges decide what runs next.
        client.threads.update_state(branch, values, as_node=parent["next"][0])
        assert client.threads.get_state(branch)["values"]["game"]["ply"] == ply
        return client.runs.wait(branch, GRAPH_ID, input=None)

    same = fork(source["values"])
    assert same["game"]["step"] == "game_over"
    assert _events(same) == expected  # nothing changed: the same game

    reseeded = fork({**source["values"], "seating": {"default": "random", "player_seed": 99}})
    assert reseeded["game"]["step"] == "game_over"
    forked_events = _events(reseeded)
    assert forked_events[:prefix] == expected[:prefix]
    assert forked_events != expected

    # The original thread is untouched.
    after = client.threads.get_history(thread, limit=1000)
    assert len(after) == len(history) and after[0]["checkpoint"]["checkpoint_id"] == head
    assert _events(client.threads.get_state(thread)["values"]) == expected
