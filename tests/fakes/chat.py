"""A stand-in model for tests: the product's own OpenAI client (`RedactingChatOpenAI`, as
backends/factory.py builds it) talking to an in-process fake server.

Only the HTTP exchange is faked (an httpx mock transport: nothing leaves the process), so
every call goes through LangChain's `with_structured_output(method="json_schema")`, the
OpenAI SDK's parsing of the answer against the schema, usage accounting and error
handling exactly as with a real server. A `Responder` writes the answer's text from the
messages and the JSON schema the server was sent; it may raise an `httpx` error (e.g.
`httpx.ReadTimeout`) to make the call fail as a network failure would. A `Reasoner` writes
a reasoning model's separate `reasoning_content` (as llama.cpp and vLLM return it).
"""

import asyncio
import itertools
import json
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
from langchain_core.messages import BaseMessage, convert_to_messages
from pydantic import PrivateAttr

from autowerewolf.backends.factory import PLACEHOLDER_API_KEY
from autowerewolf.backends.openai_chat import RedactingChatOpenAI
from autowerewolf.backends.simulated import fill
from autowerewolf.prompts.question import IDENTITY_LINE

Responder = Callable[[list[BaseMessage], dict[str, Any]], str]
# The messages and the call's number (1, 2, ...): the answer's separate reasoning.
Reasoner = Callable[[list[BaseMessage], int], str]
# Never contacted (the mock transport answers); loopback in any case.
BASE_URL = "http://127.0.0.1:9/v1"


def legal_json(messages: list[BaseMessage], schema: dict[str, Any]) -> str:
    """A valid answer: the first legal choice, short texts, mid-scale estimates."""
    answer = fill(schema, random.Random(0))
    if "choice" in answer:
        choice = schema["properties"]["choice"]
        answer["choice"] = choice["enum"][0] if "enum" in choice else choice["const"]
    return json.dumps(answer)


def prompt_text(messages: list[BaseMessage]) -> str:
    return "\n".join(m.content for m in messages if isinstance(m.content, str))


def seat_of(prompt: str) -> str:
    """The seat a prompt was written for: its question's identity line names it (the last
    one: the question comes after every text a player wrote)."""
    return IDENTITY_LINE.findall(prompt)[-1][1]


class _FakeServer:
    """Answers `POST /chat/completions` as an OpenAI-compatible server does."""

    def __init__(self, respond: Responder, reason: Reasoner | None, latency_s: float) -> None:
        self.respond, self.reason, self.latency_s = respond, reason, latency_s
        self.prompts: list[str] = []
        self.lock = threading.Lock()
        self.ids = itertools.count(1)

    def _reply(self, request: httpx.Request) -> httpx.Response:
        if not request.url.path.endswith("/chat/completions"):
            return httpx.Response(404, json={"error": {"message": f"no {request.url.path}"}})
        body = json.loads(request.content)
        messages = convert_to_messages(body["messages"])
        prompt = prompt_text(messages)
        with self.lock:
            self.prompts.append(prompt)
            number = next(self.ids)
        format_ = body.get("response_format") or {}
        schema = format_.get("json_schema", {}).get("schema", {})
        text = self.respond(messages, schema)
        message = {"role": "assistant", "content": text}
        if self.reason is not None:
            message["reasoning_content"] = self.reason(messages, number)
        tokens_in, tokens_out = len(prompt) // 4, len(text) // 4
        return httpx.Response(
            200,
            json={
                "id": f"chatcmpl-{number}",
                "object": "chat.completion",
                "created": 0,
                "model": body.get("model", "fake"),
                "choices": [
                    {
                        "index": 0,
                        "message": message,
                        "finish_reason": "stop",
                    }
                ],
                "usage": {
                    "prompt_tokens": tokens_in,
                    "completion_tokens": tokens_out,
                    "total_tokens": tokens_in + tokens_out,
                    "prompt_tokens_details": {"cached_tokens": 0},
                },
            },
        )

    def handle(self, request: httpx.Request) -> httpx.Response:
        if self.latency_s:
            time.sleep(self.latency_s)
        return self._reply(request)

    async def ahandle(self, request: httpx.Request) -> httpx.Response:
        if self.latency_s:
            await asyncio.sleep(self.latency_s)
        return self._reply(request)


class FakeChatModel(RedactingChatOpenAI):
    """Thread-safe; records every prompt it receives (whole text) in `prompts`.
    `latency_s`: how long the fake server takes to answer each call."""

    _server: _FakeServer = PrivateAttr()

    def __init__(
        self,
        respond: Responder = legal_json,
        *,
        reason: Reasoner | None = None,
        latency_s: float = 0.0,
    ) -> None:
        server = _FakeServer(respond, reason, latency_s)
        super().__init__(
            model="fake",
            base_url=BASE_URL,
            api_key=PLACEHOLDER_API_KEY,
            max_retries=0,
            http_client=httpx.Client(transport=httpx.MockTransport(server.handle)),
            http_async_client=httpx.AsyncClient(transport=httpx.MockTransport(server.ahandle)),
        )
        self._server = server

    @property
    def prompts(self) -> list[str]:
        return self._server.prompts


__all__ = ["FakeChatModel", "Reasoner", "Responder", "legal_json", "prompt_text", "seat_of"]
