"""The OpenAI-compatible chat model the `api` and `local` backends use. langchain_openai is
imported here alone, when a model is built: a game of programs never pays for it."""

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from langchain_openai import ChatOpenAI
from pydantic import ValidationError

from autowerewolf.backends.call_error import redacted
from autowerewolf.backends.grammar import compact_grammar


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
            raise redacted(err, self._refused_answer(err)) from None

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
            raise redacted(err, self._refused_answer(err)) from None

    def _stream(self, *args: Any, **kwargs: Any) -> Iterator[ChatGenerationChunk]:
        try:
            yield from super()._stream(*args, **kwargs)
        except Exception as err:
            raise redacted(err) from None

    async def _astream(self, *args: Any, **kwargs: Any) -> AsyncIterator[ChatGenerationChunk]:
        try:
            async for chunk in super()._astream(*args, **kwargs):
                yield chunk
        except Exception as err:
            raise redacted(err) from None


class LlamaServerChat(RedactingChatOpenAI):
    """The `local` backend's client: llama-server is sent a structured answer's schema as a
    compact grammar (backends/grammar.py) instead of a `response_format`, and the answer is
    parsed here, where the OpenAI client would have parsed it. Same answers, about half the
    generated tokens for a vote."""

    def _get_request_payload(
        self, input_: Any, *, stop: list[str] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        payload: dict[str, Any] = super()._get_request_payload(input_, stop=stop, **kwargs)
        grammar = compact_grammar(payload.get("response_format"))
        if grammar is not None:
            del payload["response_format"]
            payload["extra_body"] = {**(payload.get("extra_body") or {}), "grammar": grammar}
        return payload

    def _streaming_disabled(self, **kwargs: Any) -> bool:
        """A structured answer is never streamed: it is parsed whole (`_with_parsed`), also
        when the graph runs under a streaming callback (LangGraph's `messages` mode)."""
        if compact_grammar(kwargs.get("response_format")) is not None:
            return True
        return super()._streaming_disabled(**kwargs)

    def _with_parsed(self, result: ChatResult, kwargs: dict[str, Any]) -> ChatResult:
        """Each answer's JSON as LangChain's structured-output parser reads it; an answer
        that is not JSON (cut short by the token limit) fails the call with the answer."""
        if compact_grammar(kwargs.get("response_format")) is None:
            return result
        for generation in result.generations:
            message = generation.message
            try:
                message.additional_kwargs["parsed"] = json.loads(str(message.content))
            except json.JSONDecodeError as err:
                raise redacted(err, message if isinstance(message, AIMessage) else None) from None
        return result

    def _generate(self, *args: Any, **kwargs: Any) -> ChatResult:
        return self._with_parsed(super()._generate(*args, **kwargs), kwargs)

    async def _agenerate(self, *args: Any, **kwargs: Any) -> ChatResult:
        return self._with_parsed(await super()._agenerate(*args, **kwargs), kwargs)
