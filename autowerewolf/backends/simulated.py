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
from weakref import WeakKeyDictionary

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable, RunnableConfig
from pydantic import BaseModel, ValidationError

SPEECH = "I have watched the votes closely; my suspicion stays where the evidence points."
MESSAGE = "Agreed, let us take this one."
REASONING = "Weighing the table's claims and votes."


def _prompt_text(messages: list[BaseMessage]) -> str:
    return "\n".join(m.content for m in messages if isinstance(m.content, str))


_TEXTS = {"speech": SPEECH, "message": MESSAGE, "reasoning": REASONING}


# Each answer class's JSON schema, built once: pydantic builds it anew on every call, which
# was a tenth of a simulated game's CPU. Weakly keyed, so a class dropped from the bounded
# schema caches (prompts/answers.py) is not kept alive here.
_JSON_SCHEMAS: "WeakKeyDictionary[type[BaseModel], dict[str, Any]]" = WeakKeyDictionary()


def json_schema_of(schema: type[BaseModel]) -> dict[str, Any]:
    """`schema.model_json_schema()`, once per class (read only: `fill` never changes it)."""
    found = _JSON_SCHEMAS.get(schema)
    if found is None:
        found = _JSON_SCHEMAS[schema] = schema.model_json_schema()
    return found


def fill(schema: dict[str, Any], rng: random.Random, name: str = "") -> Any:
    """A value valid for a JSON schema as pydantic writes them: a seeded choice for enums,
    a seeded integer in range, short texts, lists, and nested objects via `$defs`."""
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
        if node.get("type") == "array":  # a structured speech's acts
            # One item where the schema leaves the count open (a strict schema, whose
            # bounds are checked after parsing: backends/strict_schema.py).
            low = node.get("minItems", 1 if "maxItems" not in node else 0)
            count = rng.randint(low, node.get("maxItems", max(low, 1)))
            return [value(node["items"], field) for _ in range(count)]
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
        text = json.dumps(fill(json_schema_of(schema), rng))
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
        return StructuredAnswers(self, schema, include_raw)


class StructuredAnswers(Runnable[list[BaseMessage], Any]):
    """The simulated model's structured output: the answer parsed as LangChain's
    `with_structured_output` returns it. A plain Runnable rather than a RunnableLambda: a
    lambda's per-call config, callback manager and signature checks were a fifth of a
    simulated call's CPU, and the simulated model traces nothing."""

    def __init__(self, model: SimulatedChatModel, schema: type[BaseModel], include_raw: bool):
        self.model = model
        self.schema = schema
        self.include_raw = include_raw

    def _parse(self, message: AIMessage) -> Any:
        try:
            parsed, error = self.schema.model_validate_json(str(message.content)), None
        except ValidationError as err:
            parsed, error = None, err
        if self.include_raw:
            return {"raw": message, "parsed": parsed, "parsing_error": error}
        if error is not None:
            raise error
        return parsed

    def invoke(
        self, input: list[BaseMessage], config: RunnableConfig | None = None, **kwargs: Any
    ) -> Any:
        message, delay = self.model.answer(input, self.schema)
        time.sleep(delay)
        return self._parse(message)

    async def ainvoke(
        self, input: list[BaseMessage], config: RunnableConfig | None = None, **kwargs: Any
    ) -> Any:
        message, delay = self.model.answer(input, self.schema)
        await asyncio.sleep(delay)
        return self._parse(message)
