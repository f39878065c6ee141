"""Build LangChain chat models from ``ModelConfig``; the only place API keys are read."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import httpx
from langchain_core.language_models import BaseChatModel
from pydantic import SecretStr

from autowerewolf.backends.config import ModelConfig
from autowerewolf.backends.recorded import recorded
from autowerewolf.backends.redact import register_secret_env
from autowerewolf.backends.simulated import SimulatedChatModel
from autowerewolf.errors import SettingsError

if TYPE_CHECKING:
    from autowerewolf.backends.local_server import LocalServer

# OpenAI's client refuses to start without some key, but local OpenAI-compatible
# servers (llama-server, vLLM) ignore it.
PLACEHOLDER_API_KEY = "not-needed"


def api_key_for(cfg: ModelConfig) -> SecretStr:
    """The key named by ``cfg.api_key_env``, read from the environment now."""
    if cfg.api_key_env is None:
        return SecretStr(PLACEHOLDER_API_KEY)
    register_secret_env(cfg.api_key_env)
    value = os.environ.get(cfg.api_key_env, "").strip()
    if not value:
        raise SettingsError(
            f"environment variable {cfg.api_key_env} (api_key_env for model '{cfg.model}') "
            "is not set or empty"
        )
    return SecretStr(value)


def check_api_keys(configs: Iterable[ModelConfig]) -> None:
    """Fail before the game starts if any configured key variable is missing."""
    for cfg in configs:
        api_key_for(cfg)


def _openai(
    cfg: ModelConfig,
    base_url: str,
    api_key: SecretStr,
    retries: int,
    extra_body: dict[str, Any] | None = None,
    *,
    llama_server: bool = False,
) -> BaseChatModel:
    """`llama_server`: the server is llama-server (the `local` backend), which is sent a
    compact grammar for each structured answer (backends/grammar.py)."""
    from autowerewolf.backends.openai_chat import LlamaServerChat, RedactingChatOpenAI

    chat_class = LlamaServerChat if llama_server else RedactingChatOpenAI
    return chat_class(
        model=cfg.model,
        base_url=base_url,
        api_key=api_key,
        temperature=cfg.temperature,
        max_tokens=cfg.answer_tokens(),
        timeout=cfg.timeout_s,
        max_retries=retries,
        seed=cfg.seed,
        # Streaming calls then also carry token usage, which cost accounting needs.
        stream_usage=True,
        extra_body=extra_body,
    )


def _ollama(cfg: ModelConfig, base_url: str) -> BaseChatModel:
    from langchain_ollama import ChatOllama

    # ChatOllama has no retry setting; transport retries cover refused/reset
    # connections, the failure seen when a local server is restarting.
    return ChatOllama(
        model=cfg.model,
        base_url=base_url,
        temperature=cfg.temperature,
        num_predict=cfg.answer_tokens(),
        seed=cfg.seed,
        client_kwargs={"timeout": cfg.timeout_s},
        sync_client_kwargs={"transport": httpx.HTTPTransport(retries=cfg.retries)},
        async_client_kwargs={"transport": httpx.AsyncHTTPTransport(retries=cfg.retries)},
    )


def make_chat_model(
    cfg: ModelConfig,
    local: LocalServer | None = None,
    *,
    client_retries: bool = True,
    slot: int | None = None,
) -> BaseChatModel:
    """A LangChain chat model for ``cfg``.

    ``local`` is the running managed llama-server used by ``backend: local`` configs
    without their own ``base_url`` (a ``base_url`` there points at an already running
    llama-server instead). ``client_retries=False``: the OpenAI client does not retry by
    itself, because a gate (backends/gate.py) does. ``slot``: every call goes to that slot
    of the managed server (llama-server's ``id_slot``), whose prompt cache it then reuses.
    While an answer book is active (backends/recorded.py) the model's calls are recorded.
    """
    identity = cfg.model_dump(mode="json", include={"backend", "model", "temperature", "seed"})
    return recorded(_unrecorded(cfg, local, client_retries, slot), identity)


def _unrecorded(
    cfg: ModelConfig, local: LocalServer | None, client_retries: bool, slot: int | None
) -> BaseChatModel:
    retries = cfg.retries if client_retries else 0
    if cfg.backend == "api":
        assert cfg.base_url is not None  # guaranteed by ModelConfig validation
        return _openai(cfg, cfg.base_url, api_key_for(cfg), retries)
    if cfg.backend == "ollama":
        assert cfg.base_url is not None
        return _ollama(cfg, cfg.base_url)
    if cfg.backend == "simulated":
        return SimulatedChatModel(
            latency_s=cfg.latency_s, jitter_s=cfg.jitter_s, seed=cfg.seed or 0
        )
    if cfg.base_url is not None:
        return _openai(
            cfg, cfg.base_url, SecretStr(PLACEHOLDER_API_KEY), retries, llama_server=True
        )
    if local is None:
        raise SettingsError(
            f"model '{cfg.model}' uses backend 'local' but no local server was given; "
            "start one with LocalServer() or set base_url"
        )
    extra = None if slot is None else {"id_slot": slot}
    return _openai(
        cfg, local.base_url, SecretStr(PLACEHOLDER_API_KEY), retries, extra, llama_server=True
    )
