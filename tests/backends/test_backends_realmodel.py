"""Against a real llama-server (Qwen2.5-Coder-0.5B) started from the `local` extra."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any, Literal

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_ollama import ChatOllama
from langchain_openai import ChatOpenAI
from pydantic import BaseModel, Field

from autowerewolf.backends.config import ModelConfig
from autowerewolf.backends.factory import make_chat_model
from autowerewolf.backends.local_server import LocalServer, OllamaProxy
from autowerewolf.backends.usage import usage_from_message
from autowerewolf.players.factory import ModelPool
from autowerewolf.prompts.answers import BUDGETS, answer_schema
from autowerewolf.prompts.estimates import estimates_schema
from autowerewolf.prompts.grounds import NO_GROUND
from tests.servers.local_extra import require_local_extra

pytestmark = [pytest.mark.realmodel, pytest.mark.slow]

SEATS = ("P01", "P04", "P07")
REASON_MAX = 60


class Vote(BaseModel):
    """A day vote; the grammar must keep the model inside these constraints."""

    target: Literal["P01", "P04", "P07"]
    reason: str = Field(max_length=REASON_MAX, description="one short sentence")


# The prompt pushes toward a seat outside the enum, so a valid answer shows the
# schema (not the model's obedience) decided the target.
PROMPT = [
    SystemMessage(
        "You are P05 in a game of Werewolf. Alive players: P01, P04, P07, P09. "
        "P09 claimed seer and checked you as a werewolf, which is a lie. "
        "Answer only with JSON."
    ),
    HumanMessage("Vote to eliminate P09 and explain why in a long paragraph."),
]


@pytest.fixture(scope="module")
def server() -> Iterator[LocalServer]:
    require_local_extra()
    with LocalServer() as running:
        yield running


@pytest.fixture(scope="module")
def proxy(server: LocalServer) -> Iterator[OllamaProxy]:
    with OllamaProxy(server.base_url, server.alias) as running:
        yield running


def local_model(server: LocalServer, **changes: Any) -> BaseChatModel:
    cfg = ModelConfig(backend="local", model=server.alias, temperature=0.0, max_tokens=160, seed=7)
    return make_chat_model(cfg.model_copy(update=changes), local=server)


def check_vote(result: dict[str, Any]) -> None:
    assert result["parsing_error"] is None
    vote = result["parsed"]
    assert isinstance(vote, Vote)
    assert vote.target in SEATS
    assert len(vote.reason) <= REASON_MAX


def test_server_is_up(server: LocalServer) -> None:
    assert server.running
    assert server.startup_s is not None
    assert server.base_url.startswith("http://127.0.0.1:")


def test_structured_output_json_schema(server: LocalServer) -> None:
    chat = local_model(server)
    assert isinstance(chat, ChatOpenAI)
    structured = chat.with_structured_output(Vote, method="json_schema", include_raw=True)
    result = structured.invoke(PROMPT)
    assert isinstance(result, dict)
    check_vote(result)
    usage = usage_from_message(result["raw"])
    assert usage["prompt_tokens"] is not None and usage["prompt_tokens"] > 20
    assert usage["completion_tokens"] is not None and usage["completion_tokens"] > 0
    assert usage["cached_tokens"] is not None


def test_every_answer_shape_comes_back_compact_under_the_grammar(server: LocalServer) -> None:
    # The server's own conversion of the schema let the model fence and indent its JSON: a
    # vote took 17-19 tokens. Under the compact grammar it takes the 9 its text needs.
    chat = local_model(server, temperature=0.7)
    focused = replace(BUDGETS["focused"], speech_acts=True)
    shapes = [
        answer_schema(None, ("P01", "P04", "abstain"), focused.for_decision("exile_vote")),
        answer_schema("speech", ("speak", "explode"), focused.for_decision("discussion"),
                      ("pass", "accuse P04", "vouch P07")),
        answer_schema("message", ("P01", "P04", "none"), focused.for_decision("wolves")),
        estimates_schema(("P01", "P04"), ("werewolf", "seer")),
    ]  # fmt: skip
    for schema in shapes:
        result = chat.with_structured_output(schema, method="json_schema", include_raw=True)
        answer = result.invoke(PROMPT)
        assert isinstance(answer, dict) and answer["parsing_error"] is None, answer
        parsed = answer["parsed"]
        assert isinstance(parsed, schema)
        compact = json.dumps(parsed.model_dump(), ensure_ascii=False, separators=(",", ":"))
        assert answer["raw"].content == compact
    vote = chat.with_structured_output(shapes[0], method="json_schema", include_raw=True)
    assert usage_from_message(vote.invoke(PROMPT)["raw"])["completion_tokens"] <= 10


def test_a_ground_asked_for_json_comes_back_as_one_offered(server: LocalServer) -> None:
    # Free, the embedded model wrote JSON and placeholders into its reasons and whispers
    # ('{"whisper": ...', "{player} is good"): a structured answer's ground is one of those
    # offered (prompts/grounds.py), which the compact grammar spells whole.
    chat = local_model(server, temperature=0.7)
    acts = replace(BUDGETS["focused"], speech_acts=True)
    offered = ("P04 claimed to be the Seer", "P01 voted to exile P04 on day 1", NO_GROUND)
    shapes = [
        answer_schema(
            "speech", ("speak",), acts.for_decision("discussion"), ("pass", "accuse P04"), offered
        ),
        answer_schema("message", ("P01", "P04", "none"), acts.for_decision("wolves"), (), offered),
    ]
    copy_json = [
        SystemMessage("You are P05 in a game of Werewolf. Answer only with JSON."),
        HumanMessage('Write your text as {"whisper": "{player} is good", "day": {1}}.'),
    ]
    for schema in shapes:
        answer = chat.with_structured_output(schema, method="json_schema", include_raw=True)
        result = answer.invoke(copy_json)
        assert isinstance(result, dict) and result["parsing_error"] is None, result
        parsed = result["parsed"].model_dump()
        ground = parsed["acts"][0]["because"] if "acts" in parsed else parsed["because"]
        assert ground in offered, ground


def test_repeated_prefix_reports_cached_tokens(server: LocalServer) -> None:
    chat = local_model(server, max_tokens=8)
    history = " ".join(f"Day {d}: P0{d} spoke about P0{d + 1}." for d in range(1, 9)) * 4
    first = chat.invoke([SystemMessage(history), HumanMessage("Who spoke on day 1?")])
    second = chat.invoke([SystemMessage(history), HumanMessage("Who spoke on day 2?")])
    prompt = usage_from_message(first)["prompt_tokens"]
    cached = usage_from_message(second)["cached_tokens"]
    assert prompt is not None and cached is not None
    assert cached > prompt * 0.8


def test_a_seat_keeps_its_prompt_cached_while_other_seats_speak(server: LocalServer) -> None:
    # The seats' prompts share the rules text: unpinned, the server put every seat into the
    # slot whose prompt looked most alike, so each call overwrote the previous seat's.
    pool = ModelPool(local=server)  # not closed: the module's server outlives it
    config = ModelConfig(backend="local", model=server.alias, temperature=0.0, max_tokens=4)
    rules = " ".join(f"Rule {n}: every player follows rule {n}." for n in range(15))
    said = [f"Day 1: P{n:02d} says they suspect P{(n * 5) % 12 + 1:02d}." for n in range(1, 13)]

    def ask(seat: int, heard: int) -> tuple[int, int]:
        prompt = [
            SystemMessage(f"{rules} You are seat {seat}."),
            HumanMessage(" ".join(said[:heard])),
        ]
        usage = usage_from_message(pool.chat(config, seat).invoke(prompt))
        return usage["prompt_tokens"] or 0, usage["cached_tokens"] or 0

    first, _ = ask(0, 6)
    for seat in range(1, 12):
        ask(seat, 6 + seat % 3)
    again, cached = ask(0, 12)
    assert again > first and cached >= first - 8, (first, again, cached)


def test_a_primed_seat_slot_starts_with_the_shared_rules_cached(server: LocalServer) -> None:
    pool = ModelPool(local=server)
    config = ModelConfig(backend="local", model=server.alias, temperature=0.0, max_tokens=4)
    table = " ".join(
        f"Table rule {n}: the moderator's word is final on point {n}." for n in range(50)
    )

    def first_call(seat: int) -> tuple[int, int]:
        prompt = [SystemMessage(f"{table} You are seat {seat}."), HumanMessage("Who are you?")]
        usage = usage_from_message(pool.chat(config, seat).invoke(prompt))
        return usage["prompt_tokens"] or 0, usage["cached_tokens"] or 0

    pool.prime(config, table)
    prompt, cached = first_call(4)
    assert cached > 0.8 * prompt, (prompt, cached)
    assert first_call(5)[1] > 0.8 * prompt  # every seat's slot was primed
    unprimed = make_chat_model(config, server, slot=server.parallel - 1)  # the spare slot
    usage = usage_from_message(unprimed.invoke([SystemMessage("Other rules."), HumanMessage("?")]))
    assert (usage["cached_tokens"] or 0) < 10


def test_max_tokens_is_enforced(server: LocalServer) -> None:
    message = local_model(server, max_tokens=5).invoke("Write a long poem about wolves.")
    assert message.response_metadata["finish_reason"] == "length"
    assert usage_from_message(message)["completion_tokens"] == 5


def test_structured_output_through_ollama_proxy(proxy: OllamaProxy) -> None:
    cfg = ModelConfig(backend="ollama", model=proxy.model, base_url=proxy.base_url)
    chat = make_chat_model(cfg.model_copy(update={"temperature": 0.0, "max_tokens": 160}))
    assert isinstance(chat, ChatOllama)
    structured = chat.with_structured_output(Vote, method="json_schema", include_raw=True)
    result = structured.invoke(PROMPT)
    assert isinstance(result, dict)
    check_vote(result)
    # The proxy counts words, not tokens, and knows nothing about a cache.
    assert usage_from_message(result["raw"])["cached_tokens"] is None
