"""A fork through LangGraph's API is a branch, never the original game's state
(docs/architecture.md, "Studio"): updating the state of a thread that holds a game (Studio's
way to fork, at a past checkpoint) is refused and leaves the game as it was; the state of a
new thread may be set from the game's, and that branch plays on."""

from typing import Any

import pytest
from langgraph_sdk import get_sync_client
from langgraph_sdk.errors import ConflictError

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
