"""LangGraph Studio and `langgraph dev` treat the game like any LangGraph app (issue 24):

- the running server hands out the graph's input, output and context schemas, and the
  input form holds exactly the game's setup and seating fields, with their descriptions
  and defaults;
- a database the server creates is stamped like the command line's, so `games`, `replay`
  and `export` read a game played through the API;
- the server starts without a warning from our code or our checkpointer.
"""

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from tests.fixed import SECRET as GAME_SECRET
from tests.graph.dev_server import GRAPH_ID, langgraph_dev, owner_client, owner_token
from tests.reliability.helpers import cli

pytest.importorskip("langgraph_cli", reason="the `langgraph` CLI (langgraph-cli) is not installed")
pytest.importorskip("langgraph_api", reason="`langgraph dev` needs langgraph-cli[inmem]")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, Path]]:
    workdir = tmp_path_factory.mktemp("studio")
    db = workdir / "games.db"
    with langgraph_dev(workdir, db) as (url, log):
        yield url, db, log


def _assistant(client: Any) -> str:
    (assistant,) = client.assistants.search(graph_id=GRAPH_ID)
    return str(assistant["assistant_id"])


def _defs_field(schema: dict[str, Any], ref: str) -> dict[str, Any]:
    return dict(schema["$defs"][ref.rsplit("/", 1)[1]])


def test_the_server_hands_out_the_input_form(served: tuple[str, Path, Path]) -> None:
    url, _, _ = served
    client = owner_client(url)
    schemas = client.http.get(f"/assistants/{_assistant(client)}/schemas")
    form = schemas["input_schema"]
    assert set(form["properties"]) == {"setup", "seating"}
    for name, model in (("setup", GameSetup), ("seating", Seating)):
        field = form["properties"][name]
        assert field["description"]
        fields = _defs_field(form, field["$ref"])["properties"]
        assert set(fields) == set(model.model_fields), name
        for key, info in model.model_fields.items():
            assert fields[key].get("description") == info.description, (name, key)
            if not info.is_required() and info.default_factory is None:
                assert fields[key]["default"] == json.loads(
                    json.dumps(info.default, default=list)
                ), (name, key)
    assert set(schemas["output_schema"]["properties"]) >= {"game", "events", "records"}
    context = schemas["context_schema"]
    assert "night_call_s" in context["properties"]
    assert "player_factory" not in context["properties"]  # a live object, never JSON


def test_schemas_are_the_owners(served: tuple[str, Path, Path]) -> None:
    url, _, _ = served
    import httpx

    client = owner_client(url)
    path = f"{url}/assistants/{_assistant(client)}/schemas"
    assert httpx.get(path).status_code in (401, 403)
    ok = httpx.get(path, headers={"Authorization": f"Bearer {owner_token()}"})
    assert ok.status_code == 200


def test_a_game_played_through_the_server_is_read_by_the_cli(
    served: tuple[str, Path, Path], tmp_path: Path
) -> None:
    url, db, log = served
    client = owner_client(url)
    thread = client.threads.create()["thread_id"]
    setup = {"board": "8-arena", "seed": 5, "secret": GAME_SECRET}
    result = client.runs.wait(
        thread, GRAPH_ID, input={"setup": setup, "seating": {"default": "random"}}
    )
    assert result["game"]["step"] == "game_over"
    listed = cli("games", "--db", db)
    assert listed.exit_code == 0, listed.stderr
    assert "finished" in listed.stdout  # the table may wrap the game's long id
    replay = cli("replay", thread, "--db", db, "--as", "public")
    assert replay.exit_code == 0, replay.stderr
    export = cli("export", db, "--out", tmp_path / "out")
    assert export.exit_code == 0, export.stderr
    # No warning from our code or our checkpointer while starting, serving and playing.
    text = re.sub(r"\x1b\[[0-9;]*m", "", log.read_text(errors="replace"))
    assert "Custom checkpointer missing" not in text
    # LangGraph's own startup timer warns when an import passes 3 s, which a loaded 2-core
    # CI machine decides, not our code (quiet, the app loads in about 1.1 s).
    warnings = [
        line
        for line in text.splitlines()
        if re.search(r"\[(warning|error)", line) and "langgraph_api.timing.timer" not in line
    ]
    assert not warnings, warnings
    assert "PydanticUserError" not in text and "PydanticSchemaGenerationError" not in text
