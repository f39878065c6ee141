"""A stand-in model for tests: the product's own OpenAI client (`RedactingChatOpenAI`, as
backends/factory.py builds it) talking to an in-process fake server.

Only the HTTP exchange is faked (an httpx mock transport: nothing leaves the process), so
every call goes through LangChain's `with_structured_output(method="json_schema")`, the
OpenAI SDK's parsing of the answer against the schema, usage accounting and error
handling exactly as with a real server. A `Responder` writes the answer's text from the
messages and the JSON schema the server was sent; it may raise an `httpx` error (e.g.
`httpx.ReadTimeout`) to make the call fail as a network failure would. A `Reasoner` writes
a reasoning model's separate `reasoning_content` (as llama.cpp and vLLM return it). A
`Refuser` may answer a request with an error instead (`openai_schema_refusal`,
`vllm_schema_refusal`: the 400s of servers that refuse a response format). Every request's
body is kept in `requests`.
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
# A request's body: the error response to answer it with, or None to answer it.
Refuser = Callable[[dict[str, Any]], httpx.Response | None]
# Never contacted (the mock transport answers); loopback in any case.
BASE_URL = "http://127.0.0.1:9/v1"


def legal_json(messages: list[BaseMessage], schema: dict[str, Any]) -> str:
    """A valid answer: the first legal choice, short texts, mid-scale estimates."""
    answer = fill(schema, random.Random(0))
    if "choice" in answer:
        choice = schema["properties"]["choice"]
        answer["choice"] = choice["enum"][0] if "enum" in choice else choice["const"]
    return json.dumps(answer)


def openai_schema_refusal(body: dict[str, Any]) -> httpx.Response | None:
    """OpenAI's 400 to a strict schema with a keyword its strict mode does not take (here:
    any strict schema); a schema sent without `strict` is answered."""
    format_ = body.get("response_format") or {}
    json_schema = format_.get("json_schema") or {}
    if not json_schema.get("strict"):
        return None
    message = (
        f"Invalid schema for response_format '{json_schema.get('name')}': In context=(), "
        "'maxLength' is not permitted."
    )
    error = {"message": message, "type": "invalid_request_error", "param": "response_format"}
    return httpx.Response(400, json={"error": {**error, "code": None}})


def vllm_schema_refusal(body: dict[str, Any]) -> httpx.Response | None:
    """vLLM's 400 when xgrammar cannot compile a schema (here: any `json_schema`, strict or
    not, as vLLM ignores `strict`); JSON mode is answered."""
    if (body.get("response_format") or {}).get("type") != "json_schema":
        return None
    message = "The provided JSON schema contains features not supported by xgrammar."
    return httpx.Response(
        400,
        json={
            "object": "error",
            "message": message,
            "type": "BadRequestError",
            "param": None,
            "code": 400,
        },
    )


def prompt_text(messages: list[BaseMessage]) -> str:
    return "\n".join(m.content for m in messages if isinstance(m.content, str))


def seat_of(prompt: str) -> str:
    """The seat a prompt was written for: its question's identity line names it (the last
    one: the question comes after every text a player wrote)."""
    return IDENTITY_LINE.findall(prompt)[-1][1]


class _FakeServer:
    """Answers `POST /chat/completions` as an OpenAI-compatible server does."""

    def __init__(
        self,
        respond: Responder,
        reason: Reasoner | None,
        latency_s: float,
        refuse: Refuser | None = None,
    ) -> None:
        self.respond, self.reason, self.latency_s = respond, reason, latency_s
        self.refuse = refuse
        self.prompts: list[str] = []
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.ids = itertools.count(1)

    def _reply(self, request: httpx.Request) -> httpx.Response:
        if not request.url.path.endswith("/chat/completions"):
            return httpx.Response(404, json={"error": {"message": f"no {request.url.path}"}})
        body = json.loads(request.content)
        with self.lock:
            self.requests.append(body)
        refusal = self.refuse(body) if self.refuse is not None else None
        if refusal is not None:
            return refusal
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
    `latency_s`: how long the fake server takes to answer each call; `model`: the model's
    name, which the answer format's step down is remembered by (backends/answer_format.py)."""

    _server: _FakeServer = PrivateAttr()

    def __init__(
        self,
        respond: Responder = legal_json,
        *,
        reason: Reasoner | None = None,
        latency_s: float = 0.0,
        refuse: Refuser | None = None,
        model: str = "fake",
    ) -> None:
        server = _FakeServer(respond, reason, latency_s, refuse)
        super().__init__(
            model=model,
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

    @property
    def requests(self) -> list[dict[str, Any]]:
        """Every request's body, refused ones included, in the order they came."""
        return self._server.requests


__all__ = [
    "FakeChatModel",
    "Reasoner",
    "Refuser",
    "Responder",
    "legal_json",
    "openai_schema_refusal",
    "prompt_text",
    "seat_of",
    "vllm_schema_refusal",
]
