"""The simulated model backend (`backend: simulated`) and the per-server gate."""

import asyncio
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from autowerewolf.backends.config import ModelConfig, PlayerModels
from autowerewolf.backends.factory import make_chat_model
from autowerewolf.backends.gate import GatedChatModel, Gates, ModelGate, ModelUnavailable
from autowerewolf.backends.simulated import SimulatedChatModel, json_schema_of
from autowerewolf.errors import SettingsError
from autowerewolf.players.factory import ModelPool
from autowerewolf.prompts.answers import answer_schema


def test_simulated_backend_is_a_model_config() -> None:
    config = ModelConfig(backend="simulated", model="sim", latency_s=0.5, jitter_s=0.1, seed=3)
    model = make_chat_model(config)
    assert isinstance(model, SimulatedChatModel)
    assert (model.latency_s, model.jitter_s, model.seed) == (0.5, 0.1, 3)
    with pytest.raises(ValueError, match="calls no server"):
        ModelConfig(backend="simulated", model="sim", base_url="http://127.0.0.1:1/v1")


def test_a_gated_pool_wraps_every_model_in_its_servers_gate() -> None:
    gates = Gates()
    pool = ModelPool(gates=gates)
    models = PlayerModels.model_validate(
        {"default": {"backend": "simulated", "model": "sim", "max_in_flight": 3}}
    )
    chat = pool.chat(models.default)
    assert isinstance(chat, GatedChatModel)
    assert chat.gate.max_in_flight == 3
    assert pool.chat(models.default.model_copy(update={"temperature": 0.1})).gate is chat.gate


class Flaky(Exception):
    def __init__(self, status: int, retry_after: str | None = None) -> None:
        super().__init__(f"status {status}")
        self.status_code = status
        self.response = type(
            "R", (), {"headers": {"retry-after": retry_after} if retry_after else {}}
        )()


def run(gate: ModelGate, failures: list[BaseException]) -> tuple[Any, int]:
    calls = 0

    async def call() -> str:
        nonlocal calls
        calls += 1
        if failures:
            raise failures.pop(0)
        return "ok"

    async def main() -> Any:
        return await gate.call(call)

    return asyncio.run(main()), calls


def test_the_gate_retries_transient_errors_honouring_retry_after() -> None:
    gate = ModelGate(attempts=3)
    result, calls = run(gate, [Flaky(429, "0.05"), Flaky(503, "0")])
    # The first attempt runs outside tenacity and is counted once, as every other.
    assert (result, calls, gate.stats.retries, gate.stats.calls) == ("ok", 3, 2, 3)


def test_a_server_that_stays_down_or_refuses_us_is_unavailable() -> None:
    with pytest.raises(ModelUnavailable, match="500"):
        run(ModelGate(attempts=2), [Flaky(500, "0"), Flaky(500, "0")])
    gate = ModelGate(attempts=5)
    with pytest.raises(ModelUnavailable, match="401"):
        run(gate, [Flaky(401)])
    assert gate.stats.retries == 0
    with pytest.raises(Flaky, match="400"):  # a bad request is the player's to handle
        run(ModelGate(attempts=5), [Flaky(400)])


def test_the_gate_limits_calls_in_flight() -> None:
    gate = ModelGate(max_in_flight=2)
    peak = 0

    async def call() -> None:
        nonlocal peak
        peak = max(peak, gate.stats.in_flight)
        await asyncio.sleep(0.01)

    async def main() -> None:
        await asyncio.gather(*(gate.call(call) for _ in range(10)))

    asyncio.run(main())
    assert (peak, gate.stats.calls) == (2, 10)


def test_a_rate_limit_without_its_extra_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "aiolimiter", None)
    with pytest.raises(SettingsError, match=r"'ratelimit' extra"):
        ModelGate(requests_per_s=10)


def test_simulated_answers_follow_each_schema_through_its_cached_json_schema() -> None:
    # The JSON schema is built once per answer class: a class with other options (another
    # key of the schema cache) must still be answered among its own options.
    model = SimulatedChatModel(latency_s=0.0, seed=1)
    messages = [HumanMessage("Vote.")]
    for options in [("P01", "P02"), ("P03",), ("P01", "P02")]:
        schema = answer_schema(None, options)
        assert json_schema_of(schema) is json_schema_of(schema)
        answer = model.with_structured_output(schema).invoke(messages)
        assert isinstance(answer, schema) and answer.choice in options
        raw = asyncio.run(model.with_structured_output(schema, include_raw=True).ainvoke(messages))
        assert raw["parsed"] == answer and raw["parsing_error"] is None


def test_a_gated_structured_call_goes_through_the_gate_only_when_asynchronous() -> None:
    gate = ModelGate()
    chat = GatedChatModel(inner=SimulatedChatModel(latency_s=0.0), gate=gate)
    structured = chat.with_structured_output(answer_schema(None, ("P01",)), include_raw=True)
    messages = [HumanMessage("Vote.")]
    assert structured.invoke(messages)["parsed"].choice == "P01"
    assert gate.stats.calls == 0
    result = asyncio.run(structured.ainvoke(messages))
    assert result["parsed"].choice == "P01"
    assert gate.stats.calls == 1
    assert gate.stats.tokens_in == result["raw"].usage_metadata["input_tokens"] > 0
