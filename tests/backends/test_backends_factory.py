"""Offline tests: which LangChain model and parameters each backend config produces."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from langchain_ollama import ChatOllama
from langchain_openai import ChatOpenAI

from autowerewolf.backends.config import ModelConfig
from autowerewolf.backends.factory import (
    PLACEHOLDER_API_KEY,
    check_api_keys,
    make_chat_model,
)
from autowerewolf.backends.local_extra import LocalBackendError
from autowerewolf.backends.local_server import LocalServer
from autowerewolf.backends.openai_chat import LlamaServerChat
from autowerewolf.errors import SettingsError

# The sampling and transport settings every backend takes; each backend's test checks that
# its model is given them.
SETTINGS: dict[str, Any] = {
    "temperature": 0.3,
    "max_tokens": 77,
    "timeout_s": 12.5,
    "retries": 4,
    "seed": 11,
}
API = ModelConfig(
    backend="api",
    model="gpt-x",
    base_url="https://api.example.com/v1",
    api_key_env="AW_TEST_KEY",
    **SETTINGS,
)


def test_api_backend_builds_chat_openai(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AW_TEST_KEY", "sk-top-secret")
    model = make_chat_model(API)
    # Any OpenAI-compatible API is sent the schema itself, not llama.cpp's grammar.
    assert isinstance(model, ChatOpenAI) and not isinstance(model, LlamaServerChat)
    assert model.model_name == "gpt-x"
    assert model.openai_api_base == "https://api.example.com/v1"
    assert model.openai_api_key is not None
    assert model.openai_api_key.get_secret_value() == "sk-top-secret"
    assert (model.temperature, model.max_tokens, model.seed) == (0.3, 77, 11)
    assert (model.request_timeout, model.max_retries) == (12.5, 4)
    assert "sk-top-secret" not in repr(model)
    assert "sk-top-secret" not in str(model.model_dump())


def test_missing_key_env_fails_before_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AW_TEST_KEY", raising=False)
    with pytest.raises(SettingsError, match=r"AW_TEST_KEY .* is not set"):
        make_chat_model(API)
    with pytest.raises(SettingsError, match="AW_TEST_KEY"):
        check_api_keys([API])
    monkeypatch.setenv("AW_TEST_KEY", "  ")
    with pytest.raises(SettingsError, match="not set or empty"):
        check_api_keys([API])


def test_api_without_key_env_uses_placeholder() -> None:
    cfg = API.model_copy(update={"api_key_env": None})
    model = make_chat_model(cfg)
    assert isinstance(model, ChatOpenAI)
    assert model.openai_api_key is not None
    assert model.openai_api_key.get_secret_value() == PLACEHOLDER_API_KEY


def test_ollama_backend_builds_chat_ollama() -> None:
    cfg = ModelConfig(
        backend="ollama", model="qwen2.5:0.5b", base_url="http://127.0.0.1:11434", **SETTINGS
    )
    model = make_chat_model(cfg)
    assert isinstance(model, ChatOllama)
    assert (model.model, model.base_url) == ("qwen2.5:0.5b", "http://127.0.0.1:11434")
    assert (model.temperature, model.num_predict, model.seed) == (0.3, 77, 11)
    assert model.client_kwargs == {"timeout": 12.5}
    assert model.sync_client_kwargs is not None
    assert isinstance(model.sync_client_kwargs["transport"], httpx.HTTPTransport)
    assert model.async_client_kwargs is not None
    assert isinstance(model.async_client_kwargs["transport"], httpx.AsyncHTTPTransport)


def test_local_backend_points_at_managed_server() -> None:
    server = LocalServer()
    server.port = 54321  # pretend it is running; no process is started
    cfg = ModelConfig(backend="local", model="qwen", max_tokens=40, seed=1)
    model = make_chat_model(cfg, local=server)
    # llama-server is sent a compact grammar per structured answer (backends/grammar.py).
    assert isinstance(model, LlamaServerChat)
    assert model.openai_api_base == "http://127.0.0.1:54321/v1"
    assert (model.model_name, model.max_tokens, model.seed) == ("qwen", 40, 1)


def test_local_backend_with_explicit_base_url() -> None:
    cfg = ModelConfig(backend="local", model="qwen", base_url="http://127.0.0.1:8080/v1")
    model = make_chat_model(cfg)
    assert isinstance(model, LlamaServerChat)
    assert model.openai_api_base == "http://127.0.0.1:8080/v1"


def test_local_backend_needs_a_server() -> None:
    cfg = ModelConfig(backend="local", model="qwen")
    with pytest.raises(SettingsError, match="no local server was given"):
        make_chat_model(cfg)
    with pytest.raises(LocalBackendError, match="not started"):
        make_chat_model(cfg, local=LocalServer())
