"""A fork through LangGraph's API is a branch, never the original game's state
(docs/architecture.md, "Studio"): updating the state of a thread that holds a game (Studio's
way to fork, at a past checkpoint) is refused and leaves the game as it was; the state of a
new thread may be set from the game's, and that branch plays on."""

import json
import subprocess
import sys
import time
import uuid
from typing import Any

import pytest
from langgraph_sdk import get_sync_client
from langgraph_sdk.errors import ConflictError, NotFoundError

from tests.fixed import HEX_SECRET
from tests.web.conftest import Server

pytestmark = pytest.mark.slow

FORM: dict[str, object] = {"seed": 8, "secret": HEX_SECRET, "default": "random"}


def test_a_games_thread_keeps_its_history_and_a_new_thread_forks_it(server: Server) -> None:
    game = str(server.create(FORM)["game"])
    server.wait_status(game, "finished")
    client = get_sync_client(url=server.url, headers={"Authorization": f"Bearer {server.owner}"})
    history = client.threads.get_history(game, limit=1000)
    past = history[len(history) // 2]
    head = history[0]["checkpoint"]["checkpoint_id"]

    with pytest.raises(ConflictError, match="holds a game"):
        client.threads.update_state(game, past["values"], checkpoint_id=past["checkpoint_id"])
    after = client.threads.get_history(game, limit=1000)
    assert after[0]["checkpoint"]["checkpoint_id"] == head and len(after) == len(history)
    with server.client(server.owner) as owner:
        assert owner.get(f"/aw/games/{game}").json()["status"] == "finished"

    branch = client.threads.create(graph_id="werewolf")["thread_id"]
    parent: dict[str, Any] = history[len(history) // 2 + 1]
    client.threads.update_state(branch, past["values"], as_node=parent["next"][0])
    played = client.runs.wait(branch, "werewolf", input=None)
    assert isinstance(played, dict) and played["game"]["step"] == "game_over"


def test_a_command_line_fork_of_a_server_game_becomes_a_thread_of_the_running_server(
    server: Server,
) -> None:
    # docs/architecture.md, "Forks": a branch of a server game gets a UUID, and the running
    # server adopts it as a thread without a restart.
    game = str(server.create(FORM)["game"])
    server.wait_status(game, "finished")
    forked = subprocess.run(
        [sys.executable, "-m", "autowerewolf", "fork", game, "--step", "12",
         "--db", str(server.db), "--json"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert forked.returncode == 0, forked.stderr
    branch = json.loads(forked.stdout)["game_id"]
    assert uuid.UUID(branch) and branch != game
    client = get_sync_client(url=server.url, headers={"Authorization": f"Bearer {server.owner}"})
    deadline = time.monotonic() + 30
    while True:
        try:
            thread = client.threads.get(branch)
            break
        except NotFoundError:
            assert time.monotonic() < deadline, "the server never adopted the CLI's branch"
            time.sleep(0.5)
    assert thread["metadata"]["adopted"] is True
    state = client.threads.get_state(branch)
    assert state["values"]["game"]["step"] == "game_over"
