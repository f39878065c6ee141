"""Offline tests for model config parsing, layering and error messages."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from autowerewolf.backends.config import (
    ModelConfig,
    PlayerModels,
    SettingsError,
    load_player_models,
    parse_player_models,
)

API_DEFAULT: dict[str, Any] = {
    "backend": "api",
    "model": "gpt-x",
    "base_url": "https://api.example.com/v1",
    "api_key_env": "EXAMPLE_KEY",
}


def models(**sections: Any) -> PlayerModels:
    return parse_player_models({"default": API_DEFAULT, **sections})


def error_of(data: dict[str, Any]) -> str:
    with pytest.raises(SettingsError) as info:
        parse_player_models(data)
    return str(info.value)


def test_defaults_fill_sampling_fields() -> None:
    cfg = ModelConfig(backend="local", model="q")
    assert (cfg.temperature, cfg.max_tokens, cfg.retries, cfg.seed) == (0.7, 512, 2, None)
    assert cfg.base_url is None


def test_precedence_seat_over_role_over_camp_over_default() -> None:
    pm = models(
        camps={"wolf": {"temperature": 0.1, "max_tokens": 100, "retries": 5}},
        roles={"werewolf": {"temperature": 0.2, "max_tokens": 200}},
        seats={"P03": {"temperature": 0.3}},
    )
    seat = pm.resolve("P03", "werewolf")
    assert (seat.temperature, seat.max_tokens, seat.retries) == (0.3, 200, 5)
    other_wolf = pm.resolve("P04", "werewolf")
    assert (other_wolf.temperature, other_wolf.max_tokens) == (0.2, 200)
    assert pm.resolve("P05", "seer") == pm.default
    assert pm.resolve("P05", "seer", camp="wolf").temperature == 0.1


def test_role_camp_derived_and_case_insensitive_role() -> None:
    pm = models(camps={"good": {"temperature": 0.0}})
    assert pm.resolve("P01", "Villager").temperature == 0.0
    assert pm.resolve("P01", "werewolf").temperature == 0.7


def test_partial_override_keeps_connection_fields() -> None:
    cfg = models(seats={"P07": {"model": "other"}}).resolve("P07", "witch")
    assert cfg.model == "other"
    assert cfg.base_url == API_DEFAULT["base_url"]
    assert cfg.api_key_env == "EXAMPLE_KEY"


def test_switching_backend_drops_connection_fields_but_keeps_sampling() -> None:
    pm = parse_player_models(
        {
            "default": {**API_DEFAULT, "temperature": 0.4, "seed": 9},
            "roles": {"seer": {"backend": "local", "model": "qwen"}},
        }
    )
    cfg = pm.resolve("P02", "seer")
    assert (cfg.backend, cfg.model, cfg.base_url, cfg.api_key_env) == ("local", "qwen", None, None)
    assert (cfg.temperature, cfg.seed) == (0.4, 9)


def test_layers_that_clash_fail_at_resolve() -> None:
    pm = models(
        roles={"seer": {"backend": "ollama", "model": "m", "base_url": "http://127.0.0.1:11434"}},
        seats={"P02": {"backend": "api", "model": "gpt-y"}},
    )
    assert pm.resolve("P02", "villager").model == "gpt-y"
    with pytest.raises(SettingsError, match=r"model config for P02 \(seer\): .*needs base_url"):
        pm.resolve_all({"P01": "villager", "P02": "seer"})
    assert set(pm.resolve_all({"P01": "villager", "P03": "seer"})) == {"P01", "P03"}


def test_moderator_override() -> None:
    pm = models(moderator={"temperature": 0.0})
    assert pm.for_moderator().temperature == 0.0
    assert models().for_moderator() == models().default


def test_resolve_rejects_unknown_names() -> None:
    pm = models()
    with pytest.raises(SettingsError, match="unknown role 'wizard'"):
        pm.resolve("P01", "wizard")
    with pytest.raises(SettingsError, match="unknown camp 'neutral'"):
        pm.resolve("P01", "seer", camp="neutral")
    with pytest.raises(SettingsError, match="bad seat id 'seat1'"):
        pm.resolve("seat1", "seer")


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({}, "default: missing required field"),
        ({"default": {**API_DEFAULT, "colour": "red"}}, "default.colour: unknown field"),
        ({"default": {**API_DEFAULT, "backend": "grpc"}}, "default.backend: Input should be"),
        ({"default": {**API_DEFAULT, "temperature": 3}}, "default.temperature: Input should be"),
        ({"default": {**API_DEFAULT, "max_tokens": 0}}, "default.max_tokens: Input should be"),
        ({"default": {**API_DEFAULT, "retries": "x"}}, "default.retries: Input should be"),
        ({"default": {**API_DEFAULT, "base_url": "ftp://x"}}, "default.base_url"),
        ({"default": {"backend": "api", "model": "m"}}, "backend 'api' needs base_url"),
        ({"default": {"backend": "ollama", "model": "m"}}, "backend 'ollama' needs base_url"),
        (
            {"default": {"backend": "local", "model": "m", "api_key_env": "K"}},
            "api_key_env is only used by backend 'api'",
        ),
        ({"default": API_DEFAULT, "roles": {"wizard": {}}}, "unknown role 'wizard'"),
        ({"default": API_DEFAULT, "camps": {"neutral": {}}}, "unknown camp 'neutral'"),
        ({"default": API_DEFAULT, "seats": {"3": {}}}, "bad seat id '3'"),
        ({"default": API_DEFAULT, "seats": {"P03": {"tempo": 1}}}, "seats.P03.tempo: unknown"),
        ({"default": API_DEFAULT, "judges": {}}, "judges: unknown field"),
        (
            {"default": API_DEFAULT, "roles": {"seer": {"backend": "ollama", "model": "m"}}},
            "roles.seer (merged over default): backend 'ollama' needs base_url",
        ),
        (
            {"default": API_DEFAULT, "seats": {"P01": {"backend": "local"}}},
            "seats.P01 (merged over default): model: missing required field",
        ),
    ],
)
def test_invalid_configs_give_one_line_errors(data: dict[str, Any], expected: str) -> None:
    message = error_of(data)
    assert expected in message
    assert "\n" not in message
    assert "errors.pydantic.dev" not in message


def test_inline_api_key_is_rejected_without_echoing_it() -> None:
    message = error_of({"default": {**API_DEFAULT, "api_key": "sk-secret-123"}})
    assert "api_key_env" in message
    assert "sk-secret-123" not in message


def test_key_shaped_env_name_is_rejected_without_echoing_it() -> None:
    message = error_of({"default": {**API_DEFAULT, "api_key_env": "sk-secret-123"}})
    assert "default.api_key_env" in message
    assert "sk-secret-123" not in message


def test_secret_never_in_dump_or_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EXAMPLE_KEY", "sk-very-secret")
    pm = models(seats={"P01": {"temperature": 0.1}})
    cfg = pm.resolve("P01", "seer")
    for text in (repr(pm), str(cfg), json.dumps(pm.model_dump()), cfg.model_dump_json()):
        assert "sk-very-secret" not in text
    assert cfg.model_dump()["api_key_env"] == "EXAMPLE_KEY"


def test_load_yaml_file_with_overrides(tmp_path: Path) -> None:
    path = tmp_path / "models.yaml"
    path.write_text(
        "default:\n"
        "  backend: ollama\n"
        "  model: qwen2.5:0.5b\n"
        "  base_url: http://127.0.0.1:11434\n"
        "roles:\n"
        "  seer: {temperature: 0.1}\n"
        "seats:\n",
        encoding="utf-8",
    )
    pm = load_player_models(
        path,
        [
            "default.temperature=0.2",
            "seats.P03.model=foo",
            "seats.P03.seed=7",
            "roles.seer.seed=null",
            "default.max_tokens= 64",
        ],
    )
    assert pm.default.temperature == 0.2
    assert pm.default.max_tokens == 64
    assert pm.resolve("P03", "villager").model == "foo"
    assert pm.resolve("P03", "villager").seed == 7
    assert pm.resolve("P01", "seer").temperature == 0.1


def test_load_json_file(tmp_path: Path) -> None:
    path = tmp_path / "models.json"
    path.write_text(json.dumps({"default": API_DEFAULT}), encoding="utf-8")
    assert load_player_models(path).default.model == "gpt-x"


def test_overrides_alone_build_a_config() -> None:
    pm = load_player_models(None, ["default.backend=local", "default.model=qwen"])
    assert pm.default.backend == "local"


def test_empty_yaml_file_means_no_settings(tmp_path: Path) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text("", encoding="utf-8")
    with pytest.raises(SettingsError, match="default: missing required field"):
        load_player_models(path)


@pytest.mark.parametrize(
    ("content", "suffix", "expected"),
    [
        ("default: [unclosed\n", ".yaml", "bad YAML in"),
        ("{not json", ".json", "bad JSON in"),
        ("- a\n- b\n", ".yml", "must hold a mapping"),
    ],
)
def test_unparseable_files(tmp_path: Path, content: str, suffix: str, expected: str) -> None:
    path = tmp_path / f"models{suffix}"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SettingsError, match=expected) as info:
        load_player_models(path)
    assert "\n" not in str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="model config file not found"):
        load_player_models(tmp_path / "nope.yaml")


@pytest.mark.parametrize(
    ("override", "expected"),
    [
        ("default.temperature", "expected dotted.key=value"),
        ("=0.2", "expected dotted.key=value"),
        ("default..model=x", "expected dotted.key=value"),
        ("default.model.name=x", "default.model is a value, not a section"),
        ("default.temperature=warm", "default.temperature: Input should be a valid number"),
        ("default.top_k=3", "default.top_k: unknown field"),
        ("roles.wizard.model=x", "unknown role 'wizard'"),
        ("seats.P3.model=x", "bad seat id 'P3'"),
        ("camps.neutral.model=x", "unknown camp 'neutral'"),
    ],
)
def test_bad_overrides(override: str, expected: str) -> None:
    base = ["default.backend=local", "default.model=qwen"]
    with pytest.raises(SettingsError, match=re.escape(expected)):
        load_player_models(None, [*base, override])


def test_config_error_is_value_error() -> None:
    assert issubclass(SettingsError, ValueError)


def test_unset_max_tokens_fits_the_answer_budget() -> None:
    """A `full` budget (1,500 + 1,200 + 400 characters) is not cut off by the 512 default;
    an explicit max_tokens, from any layer, is kept as set."""
    api = ModelConfig(backend="api", model="m", base_url="http://127.0.0.1:1/v1")
    assert api.answer_tokens() == (1500 + 1200 + 400) // 3 + 150
    local = ModelConfig(backend="local", model="qwen")
    assert local.answer_tokens() == 512  # compact fits the default
    assert api.model_copy(update={"max_tokens": 300}).answer_tokens() == 300
    models = parse_player_models(
        {"default": {"backend": "api", "model": "m", "base_url": "http://127.0.0.1:1/v1"},
         "roles": {"seer": {"max_tokens": 256}}}
    )  # fmt: skip
    assert models.resolve("P01", "seer").answer_tokens() == 256
    assert models.resolve("P02", "villager").answer_tokens() == 1183
