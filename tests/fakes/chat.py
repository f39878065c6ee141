"""A stand-in chat model for tests: answers structured-output requests with a
policy function after a fixed latency, and reports token usage like a real server."""

import json
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatResult
from langchain_core.runnables import Runnable, RunnableLambda
from pydantic import BaseModel, ConfigDict, ValidationError

from autowerewolf.backends.simulated import fill

Responder = Callable[[list[BaseMessage], type[BaseModel]], str]


def legal_json(messages: list[BaseMessage], schema: type[BaseModel]) -> str:
    """A valid answer: the first legal choice, short texts, mid-scale estimates."""
    json_schema = schema.model_json_schema()
    answer = fill(json_schema, random.Random(0))
    if "choice" in answer:
        choice = json_schema["properties"]["choice"]
        answer["choice"] = choice["enum"][0] if "enum" in choice else choice["const"]
    return json.dumps(answer)


def _prompt_text(messages: list[BaseMessage]) -> str:
    return "\n".join(m.content for m in messages if isinstance(m.content, str))


class FakeChatModel(BaseChatModel):
    """Thread-safe; records every prompt it receives (whole text) in `prompts`."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    respond: Responder = legal_json
    latency_s: float = 0.0
    prompts: list[str] = []  # noqa: RUF012 - replaced per instance in model_post_init
    lock: Any = None

    def model_post_init(self, context: Any) -> None:
        self.prompts = []
        self.lock = threading.Lock()

    @property
    def _llm_type(self) -> str:
        return "fake-structured"

    def _generate(self, messages: list[BaseMessage], stop: Any = None, **kwargs: Any) -> ChatResult:
        raise NotImplementedError("use with_structured_output")

    def _answer(self, messages: list[BaseMessage], schema: type[BaseModel]) -> AIMessage:
        prompt = _prompt_text(messages)
        with self.lock:
            self.prompts.append(prompt)
        if self.latency_s:
            time.sleep(self.latency_s)
        text = self.respond(messages, schema)
        tokens_in = len(prompt) // 4
        return AIMessage(
            content=text,
            usage_metadata={
                "input_tokens": tokens_in,
                "output_tokens": len(text) // 4,
                "total_tokens": tokens_in + len(text) // 4,
            },
        )

    def with_structured_output(  # type: ignore[override]
        self, schema: type[BaseModel], *, include_raw: bool = False, **kwargs: Any
    ) -> Runnable[Any, Any]:
        def run(messages: list[BaseMessage]) -> Any:
            raw = self._answer(messages, schema)
            try:
                parsed, error = schema.model_validate_json(str(raw.content)), None
            except ValidationError as err:
                parsed, error = None, err
            if include_raw:
                return {"raw": raw, "parsed": parsed, "parsing_error": error}
            if error is not None:
                raise error
            return parsed

        return RunnableLambda(run)


__all__ = ["FakeChatModel", "legal_json"]
