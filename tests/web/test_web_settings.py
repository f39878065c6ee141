"""The settings `langgraph dev` takes from the environment (docs/architecture.md, "Settings
from the environment"): `AW_MODELS` names the model file the server's LLM seats play on."""

from pathlib import Path

import pytest

from autowerewolf.store import open_saver
from autowerewolf.web import graph, runtime
from autowerewolf.web.settings import DB_ENV, MODELS_ENV


def started_runtime(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> runtime.Runtime:
    """The server's runtime started as at the server's start, on a new game database; the
    link book and the run queue, which the models do not touch, are left out."""
    db = tmp_path / "games.db"
    open_saver(db, create=True).conn.close()
    monkeypatch.setenv(DB_ENV, str(db))
    monkeypatch.setattr(runtime, "book", lambda: None)
    monkeypatch.setattr(runtime, "wake_on_new_runs", lambda: True)
    monkeypatch.setattr(graph, "_players", None)  # the server's players, restored after
    started = runtime.Runtime()
    started.start()
    return started


def test_the_servers_llm_seats_play_on_the_models_aw_models_names(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    models = tmp_path / "models.yaml"
    models.write_text(
        "default: {backend: api, base_url: 'http://127.0.0.1:9/v1', model: named-by-aw-models}\n"
    )
    monkeypatch.setenv(MODELS_ENV, str(models))
    named = started_runtime(monkeypatch, tmp_path)
    try:
        assert named.players.models.resolve("P01", "villager").model == "named-by-aw-models"
        assert graph.server_players() is named.players  # what every run of the graph gets
    finally:
        named.close()
    monkeypatch.delenv(MODELS_ENV)
    default = started_runtime(monkeypatch, tmp_path)
    try:
        assert default.players.models.resolve("P01", "villager").model != "named-by-aw-models"
    finally:
        default.close()
