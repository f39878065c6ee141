"""Build LangChain chat models from ``ModelConfig``; the only place API keys are read."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import TYPE_CHECKING, Any

import httpx
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from langchain_ollama import ChatOllama
from langchain_openai import ChatOpenAI
from pydantic import SecretStr, ValidationError

from autowerewolf.backends.config import ModelConfig
from autowerewolf.backends.gate import is_transient, retry_after_of, status_of
from autowerewolf.backends.redact import redact_secrets, register_secret_env
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


class ModelCallError(RuntimeError):
    """A model call failed; the message is the original error's, with secrets redacted.

    It keeps what the gate needs to decide on a retry (backends/gate.py): the HTTP status,
    the server's Retry-After, and whether the connection itself failed; and `answer`, the
    server's answer (redacted) when the call failed because it did not fit the schema."""

    def __init__(
        self,
        message: str,
        status_code: int | None = None,
        retry_after_s: float | None = None,
        connection_failed: bool = False,
        answer: AIMessage | None = None,
    ) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.retry_after_s = retry_after_s
        self.connection_failed = connection_failed
        self.answer = answer


def _redacted(err: Exception, answer: AIMessage | None = None) -> ModelCallError:
    if answer is not None and isinstance(answer.content, str):
        answer = answer.model_copy(update={"content": redact_secrets(answer.content)})
    return ModelCallError(
        redact_secrets(f"{type(err).__name__}: {err}"),
        status_of(err),
        retry_after_of(err),
        is_transient(err) and status_of(err) is None,
        answer,
    )


class RedactingChatOpenAI(ChatOpenAI):
    """ChatOpenAI whose errors never carry the API key, even when the server echoes it.

    The OpenAI client puts the server's error body into the exception message; a new
    exception with the redacted text replaces it (`from None`: no chained original)."""

    def _refused_answer(self, err: Exception) -> AIMessage | None:
        """The server's answer when the OpenAI client refused it: with a structured-output
        schema the client validates the answer inside the call and raises if it does not
        fit, before LangChain's parser could report it with the raw answer. ChatOpenAI
        attaches the HTTP response: the answer is rebuilt from it, to be recorded and its
        tokens counted like any invalid answer (players/llm/calls.py)."""
        response = getattr(err, "response", None)
        if not isinstance(err, ValidationError) or not isinstance(response, httpx.Response):
            return None
        try:
            message = self._create_chat_result(response.json()).generations[0].message
        except Exception:  # not a chat completion after all: the error alone is reported
            return None
        return message if isinstance(message, AIMessage) else None

    def _generate(self, *args: Any, **kwargs: Any) -> ChatResult:
        try:
            return super()._generate(*args, **kwargs)
        except Exception as err:
            raise _redacted(err, self._refused_answer(err)) from None

    def _create_chat_result(self, response: Any, generation_info: Any = None) -> ChatResult:
        """ChatOpenAI drops a reasoning model's separate `reasoning_content`; keep it in the
        message's additional_kwargs, where the LLM player records it privately."""
        result = super()._create_chat_result(response, generation_info)
        # `parsed` holds the answer object where the client's types say None: dumping it
        # warns on every structured call; ChatOpenAI leaves it out of its own dump too.
        data = (
            response
            if isinstance(response, dict)
            else response.model_dump(exclude={"choices": {"__all__": {"message": {"parsed"}}}})
        )
        for generation, choice in zip(result.generations, data.get("choices") or [], strict=False):
            thinking = (choice.get("message") or {}).get("reasoning_content")
            if thinking:
                generation.message.additional_kwargs["reasoning_content"] = thinking
        return result

    async def _agenerate(self, *args: Any, **kwargs: Any) -> ChatResult:
        try:
            return await super()._agenerate(*args, **kwargs)
        except Exception as err:
            raise _redacted(err, self._refused_answer(err)) from None

    def _stream(self, *args: Any, **kwargs: Any) -> Iterator[ChatGenerationChunk]:
        try:
            yield from super()._stream(*args, **kwargs)
        except Exception as err:
            raise _redacted(err) from None

    async def _astream(self, *args: Any, **kwargs: Any) -> AsyncIterator[ChatGenerationChunk]:
        try:
            async for chunk in super()._astream(*args, **kwargs):
                yield chunk
        except Exception as err:
            raise _redacted(err) from None


def _openai(
    cfg: ModelConfig,
    base_url: str,
    api_key: SecretStr,
    retries: int,
    extra_body: dict[str, Any] | None = None,
) -> ChatOpenAI:
    return RedactingChatOpenAI(
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


def _ollama(cfg: ModelConfig, base_url: str) -> ChatOllama:
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
    """
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
        return _openai(cfg, cfg.base_url, SecretStr(PLACEHOLDER_API_KEY), retries)
    if local is None:
        raise SettingsError(
            f"model '{cfg.model}' uses backend 'local' but no local server was given; "
            "start one with LocalServer() or set base_url"
        )
    extra = None if slot is None else {"id_slot": slot}
    return _openai(cfg, local.base_url, SecretStr(PLACEHOLDER_API_KEY), retries, extra)
