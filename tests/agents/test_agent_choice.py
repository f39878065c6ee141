"""Which design a seat plays: layered like models, validated against the registry, saved
with the seating; plug-ins load by path; answer budgets per model."""

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from pydantic import ValidationError

from autowerewolf.backends.config import ModelConfig, parse_player_models
from autowerewolf.errors import SettingsError
from autowerewolf.players.agents.choice import AgentChoice, UnknownAgent, check_agent
from autowerewolf.players.agents.registry import Labelled, build_agent, check_agents
from autowerewolf.players.seating import Seating
from autowerewolf.prompts.answers import COMPACT, FOCUSED, FULL, answer_schema
from tests.agents.helpers import PLUGIN
from tests.fakes.chat import FakeChatModel


def test_seat_beats_role_beats_camp_beats_default() -> None:
    choice = AgentChoice(
        default="plain",
        camps={"wolf": "adaptive"},
        roles={"seer": "estimator"},
        seats={"P03": "experience"},
    )
    assert choice.resolve("P03", "seer") == "experience"
    assert choice.resolve("P04", "seer") == "estimator"
    assert choice.resolve("P05", "werewolf") == "adaptive"
    assert choice.resolve("P06", "villager") == "plain"


def test_agent_flags_add_layers() -> None:
    choice = AgentChoice()
    for flag in ("estimator", "P03=adaptive", "role:seer=experience", "camp:wolf=support"):
        choice = choice.with_flag(flag)
    assert choice == AgentChoice(
        default="estimator",
        seats={"P03": "adaptive"},
        roles={"seer": "experience"},
        camps={"wolf": "support"},
    )


@pytest.mark.parametrize(
    "flag", ["nonsense", "P03=nonsense", "role:mayor=plain", "camp:neutral=plain", "P3=plain"]
)
def test_unknown_names_and_keys_are_refused(flag: str) -> None:
    with pytest.raises(ValidationError):
        AgentChoice().with_flag(flag)


def test_the_choice_is_saved_with_the_seating() -> None:
    seating = Seating(default="llm", agents=AgentChoice(roles={"seer": "estimator"}))
    assert Seating.model_validate_json(seating.model_dump_json()) == seating


def test_a_plugin_loads_by_path_and_its_records_are_labelled() -> None:
    assert check_agent(PLUGIN) == PLUGIN
    check_agents(AgentChoice(seats={"P01": PLUGIN}))
    player = build_agent(PLUGIN, FakeChatModel(), "fake", COMPACT)
    assert isinstance(player, Labelled)


def test_a_missing_plugin_fails_before_the_game() -> None:
    with pytest.raises(UnknownAgent, match="cannot be loaded"):
        check_agents(AgentChoice(seats={"P01": "python:examples.agents.cautious:Nobody"}))
    with pytest.raises(SettingsError):
        check_agents(AgentChoice(default="python:no_such_package.mod:Agent"))


def test_budgets_focused_for_the_local_model_full_for_api_models() -> None:
    local = ModelConfig(backend="local", model="m")
    api = ModelConfig(backend="api", model="m", base_url="http://127.0.0.1:1/v1")
    # The embedded model speaks in structured acts by default; API models speak freely.
    assert local.bounds() == replace(FOCUSED, speech_acts=True) and api.bounds() == FULL
    assert api.model_copy(update={"budget": "compact"}).bounds() == COMPACT
    assert local.model_copy(update={"speech": "free"}).bounds() == FOCUSED
    models = parse_player_models(
        {
            "default": {"backend": "local", "model": "m"},
            "roles": {"seer": {"budget": {"reasoning": 50, "speech": 60, "message": 70}}},
        }
    )
    seer = models.resolve("P01", "seer").bounds()
    assert (seer.reasoning, seer.speech, seer.message) == (50, 60, 70)
    with pytest.raises(SettingsError):
        parse_player_models({"default": {"backend": "local", "model": "m", "budget": "huge"}})
    with pytest.raises(SettingsError):
        parse_player_models(
            {
                "default": {
                    "backend": "local",
                    "model": "m",
                    "budget": {"reasoning": 2001, "speech": 1, "message": 1},
                }
            }
        )


def test_answer_schemas_take_the_bounds() -> None:
    for bounds in (COMPACT, FULL):
        schema = answer_schema("speech", ("speak",), bounds).model_json_schema()
        assert schema["properties"]["reasoning"]["maxLength"] == bounds.reasoning
        assert schema["properties"]["speech"]["maxLength"] == bounds.speech
        message = answer_schema("message", ("P01",), bounds).model_json_schema()
        assert message["properties"]["message"]["maxLength"] == bounds.message


def test_a_python_plugin_in_the_current_folder_plays_from_the_command_line(
    tmp_path: Path,
) -> None:
    """As the installed `autowerewolf` script runs it: `-I` keeps the current folder off
    sys.path, yet `python:examples...` is found from the repository root."""
    root = Path(__file__).resolve().parents[2]
    command = [
        sys.executable, "-I", "-c", "from autowerewolf.cli import app; app()",
        "play", "--board", "8-arena", "--narration", "off", "--db", str(tmp_path / "g.db"),
        "--agent", "P03=python:examples.agents.cautious:CautiousVoter",
        "--model", "default.backend=simulated", "--model", "default.latency_s=0",
    ]  # fmt: skip
    result = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "Winner:" in result.stdout
