"""A simulated chat model: answers a structured-output request with a seeded legal choice and
short texts after a latency, and reports token usage like a server does.

A test and capacity-planning tool: it measures the orchestration (how many games, how fast,
how much CPU and memory) without a model. Answers are seeded by (seed, prompt), so a game
replays identically.
"""

import asyncio
import hashlib
import json
import random
import time
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable, RunnableLambda
from pydantic import BaseModel, ValidationError

SPEECH = "I have watched the votes closely; my suspicion stays where the evidence points."
MESSAGE = "Agreed, let us take this one."
REASONING = "Weighing the table's claims and votes."


def _prompt_text(messages: list[BaseMessage]) -> str:
    return "\n".join(m.content for m in messages if isinstance(m.content, str))


_TEXTS = {"speech": SPEECH, "message": MESSAGE, "reasoning": REASONING}


def fill(schema: dict[str, Any], rng: random.Random, name: str = "") -> Any:
    """A value valid for a JSON schema as pydantic writes them: a seeded choice for enums,
    a seeded integer in range, short texts, and nested objects via `$defs`."""
    root = schema

    def value(node: dict[str, Any], field: str) -> Any:
        if "$ref" in node:
            node = root["$defs"][node["$ref"].rsplit("/", 1)[-1]]
        # pydantic writes a one-option Literal as `const`, several as `enum`.
        if "const" in node:
            return node["const"]
        if "enum" in node:
            return rng.choice(node["enum"])
        if node.get("type") == "object":
            return {key: value(sub, key) for key, sub in node.get("properties", {}).items()}
        if node.get("type") == "integer":
            return rng.randint(node.get("minimum", 0), node.get("maximum", 4))
        text = _TEXTS.get(field, "Seen and noted.")
        return text[: node.get("maxLength", len(text))]

    return value(schema, name)


class SimulatedChatModel(BaseChatModel):
    """`latency_s` +- `jitter_s` per call (uniform), seeded answers, ~4 characters a token."""

    latency_s: float = 1.0
    jitter_s: float = 0.0
    seed: int = 0

    @property
    def _llm_type(self) -> str:
        return "simulated"

    def _draw(self, prompt: str) -> random.Random:
        digest = hashlib.blake2b(f"{self.seed}:{prompt}".encode(), digest_size=8).digest()
        return random.Random(int.from_bytes(digest, "big"))

    def answer(
        self, messages: list[BaseMessage], schema: type[BaseModel]
    ) -> tuple[AIMessage, float]:
        """The answer message and how long the call should take."""
        prompt = _prompt_text(messages)
        rng = self._draw(prompt)
        text = json.dumps(fill(schema.model_json_schema(), rng))
        tokens_in, tokens_out = len(prompt) // 4, len(text) // 4
        delay = max(0.0, self.latency_s + rng.uniform(-self.jitter_s, self.jitter_s))
        message = AIMessage(
            content=text,
            usage_metadata={
                "input_tokens": tokens_in,
                "output_tokens": tokens_out,
                "total_tokens": tokens_in + tokens_out,
            },
        )
        return message, delay

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        # Plain chat (the moderator's narration): a fixed line after the latency.
        time.sleep(self.latency_s)
        return ChatResult(
            generations=[ChatGeneration(message=AIMessage(content="The night ends."))]
        )

    def with_structured_output(  # type: ignore[override]
        self, schema: type[BaseModel], *, include_raw: bool = False, **kwargs: Any
    ) -> Runnable[Any, Any]:
        def parse(message: AIMessage) -> Any:
            try:
                parsed, error = schema.model_validate_json(str(message.content)), None
            except ValidationError as err:
                parsed, error = None, err
            if include_raw:
                return {"raw": message, "parsed": parsed, "parsing_error": error}
            if error is not None:
                raise error
            return parsed

        def run(messages: list[BaseMessage]) -> Any:
            message, delay = self.answer(messages, schema)
            time.sleep(delay)
            return parse(message)

        async def arun(messages: list[BaseMessage]) -> Any:
            message, delay = self.answer(messages, schema)
            await asyncio.sleep(delay)
            return parse(message)

        return RunnableLambda(run, afunc=arun)
