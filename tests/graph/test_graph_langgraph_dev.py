"""The graph served by `langgraph dev`, driven through langgraph_sdk's sync client:
a random game, a game with a human seat answered by `Command(resume=...)`, and forks.
langgraph.json also brings the web app's auth: the client holds the owner's token."""

from collections.abc import Iterator
from typing import Any

import pytest

from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.events import Event
from autowerewolf.rules.random_play import play_random_game

pytest.importorskip("langgraph_cli", reason="the `langgraph` CLI (langgraph-cli) is not installed")
pytest.importorskip(
    "langgraph_api", reason="`langgraph dev` needs langgraph-cli[inmem] (langgraph-api)"
)

from tests.fixed import SECRET as GAME_SECRET
from tests.graph.dev_server import GRAPH_ID, langgraph_dev, owner_client

pytestmark = [pytest.mark.slow, pytest.mark.long]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    workdir = tmp_path_factory.mktemp("langgraph_dev")
    with langgraph_dev(workdir, workdir / "games.db") as (url, _log):
        yield url


def _events(values: dict[str, Any]) -> list[Event]:
    return [Event.model_validate(e) for e in values["events"]]


def test_random_game_human_game_and_forks(server: str) -> None:
    client = owner_client(server)

    # 1. A complete random game: the engine's own random game, event for event.
    thread = client.threads.create()["thread_id"]
    result = client.runs.wait(
        thread,
        GRAPH_ID,
        input={"setup": {"seed": 1, "secret": GAME_SECRET}, "seating": {"default": "random"}},
    )
    final, expected = play_random_game(GameSetup(secret=GAME_SECRET, seed=1).build())
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
    for _ in range(200):  # a fresh deal: P03 may be asked a few times or dozens
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
    # A game started through the API without a secret drew a fresh one as it was set up.
    assert len(result["game"]["config"]["secret"]) == 32
    # Any deal asks P03 at least the sheriff sign-up, asked again after the illegal answer.
    assert asked and len(set(asked)) == len(asked)
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
