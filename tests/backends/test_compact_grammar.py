"""Offline tests of the compact answer grammar (backends/grammar.py) and of the `local`
backend's client that sends it (backends/openai_chat.py `LlamaServerChat`). The grammar's
effect on a real llama-server is in test_backends_realmodel.py."""

import json
import re
from dataclasses import replace
from typing import Any, Literal, TypedDict

import httpx
import pytest
from langchain_core.messages import HumanMessage
from langgraph.graph import START, StateGraph
from pydantic import BaseModel, Field

from autowerewolf.backends.grammar import (
    UnsupportedSchema,
    compact_grammar,
    compact_json_grammar,
    grammar_of_model,
)
from autowerewolf.backends.openai_chat import LlamaServerChat
from autowerewolf.players.llm.calls import run_calls
from autowerewolf.prompts.answers import BUDGETS, answer_schema
from autowerewolf.prompts.estimates import estimates_schema
from autowerewolf.prompts.strategy import strategy_schema
from autowerewolf.rules.step_spec import TextKind

SEATS = ("P01", "P02", "none")
TEXTS: tuple[TextKind | None, ...] = (None, "speech", "message")
# A structured answer's grounds: one (a const in the schema) or several (an enum).
GROUNDS = (("no evidence yet",), ("P01 suspected P02", "P02 voted to exile P01 on day 1"))
# A vote without private reasoning: its answer is the choice alone.
VOTE = answer_schema(None, SEATS, BUDGETS["terse"])


def every_answer_class() -> list[type[BaseModel]]:
    """Each shape of answer the players ask for: every text kind under every budget, free
    and in acts, with and without reasoning, one option and several; estimates; strategy."""
    classes: list[type[BaseModel]] = []
    for bounds in BUDGETS.values():
        for acts in (False, True):
            for key in ("exile_vote", "wolves"):
                decided = replace(bounds, speech_acts=acts).for_decision(key)
                for text in TEXTS:
                    for options in (("speak",), SEATS):
                        for grounds in GROUNDS:
                            phrases = ("pass", "accuse P01")
                            classes.append(answer_schema(text, options, decided, phrases, grounds))
    return [*classes, estimates_schema(("P01", "P02"), ("werewolf", "seer")), strategy_schema(80)]


@pytest.mark.parametrize("model", every_answer_class(), ids=lambda m: m.__name__)
def test_every_answer_the_players_ask_for_has_a_compact_grammar(model: type[BaseModel]) -> None:
    grammar = grammar_of_model(model)
    assert grammar is not None and grammar.startswith("root ::= ")
    # No whitespace is ever offered between tokens: the literals outside JSON strings (those
    # not opening with an escaped quote) are punctuation or digits only. (The `char` rule, a
    # string's characters, is llama.cpp's own.)
    rules = "\n".join(line for line in grammar.splitlines() if not line.startswith("char ::="))
    literals = re.findall(r'"(?:[^"\\]|\\.)*"', rules)
    structural = [text[1:-1] for text in literals if not text.startswith('"\\"')]
    assert structural and all(re.fullmatch(r"[{}\[\],:0-9]+", text) for text in structural)
    for key in model.model_json_schema()["properties"]:
        assert f'"\\"{key}\\""' in grammar


def test_a_vote_has_exactly_one_spelling_per_choice() -> None:
    assert grammar_of_model(VOTE) == (
        'root ::= "{" "\\"choice\\"" ":" ("\\"P01\\"" | "\\"P02\\"" | "\\"none\\"") "}"'
    )


def test_text_is_bounded_by_the_schema_and_acts_by_their_count() -> None:
    grounds = ("P02 suspected P01", "no evidence yet")
    embedded = replace(BUDGETS["focused"], speech_acts=True).for_decision("discussion")
    speech = answer_schema("speech", ("speak",), embedded, ("pass", "vouch P02"), grounds)
    grammar = compact_json_grammar(speech.model_json_schema())
    acts = speech.model_json_schema()["properties"]["acts"]
    assert acts["minItems"] == acts["maxItems"] == 1
    assert '"[" def-SpeechAct "]"' in grammar  # exactly one act: no separator offered
    assert grammar.count("def-SpeechAct ::=") == 1
    # An act's ground is one of those offered, spelled whole: no free text at all.
    assert '("\\"P02 suspected P01\\"" | "\\"no evidence yet\\"")' in grammar
    assert "\nchar ::=" not in grammar


@pytest.mark.parametrize("pattern", [r"^[a-z]+$", r"^[^{}]{0,60}$"])
def test_a_pattern_is_refused_not_ignored(pattern: str) -> None:
    # The server's own conversion keeps a pattern this grammar would drop.
    with pytest.raises(UnsupportedSchema):
        compact_json_grammar({"type": "string", "pattern": pattern})


class Optional_(BaseModel):
    choice: Literal["a", "b"]
    note: str = ""


class Number(BaseModel):
    score: float


class Wide(BaseModel):
    count: int = Field(ge=0, le=1000)


@pytest.mark.parametrize("model", [Optional_, Number, Wide])
def test_a_shape_it_does_not_cover_is_refused_not_guessed(model: type[BaseModel]) -> None:
    with pytest.raises(UnsupportedSchema):
        compact_json_grammar(model.model_json_schema())
    assert grammar_of_model(model) is None


def test_a_response_format_gives_its_grammar_whether_a_class_or_a_schema() -> None:
    as_dict = {
        "type": "json_schema",
        "json_schema": {"name": "v", "schema": VOTE.model_json_schema()},
    }
    assert compact_grammar(VOTE) == compact_grammar(as_dict) == grammar_of_model(VOTE)
    assert compact_grammar({"type": "json_object"}) is None  # JSON of any shape: no grammar
    assert compact_grammar(None) is None and compact_grammar(Number) is None


def chat_answering(content: str, bodies: list[dict[str, Any]]) -> LlamaServerChat:
    """The local backend's client talking to an in-process server that answers `content`."""

    def reply(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        return httpx.Response(200, json={
            "id": "c1", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 4, "total_tokens": 14},
        })  # fmt: skip

    return LlamaServerChat(
        model="m",
        base_url="http://127.0.0.1:9/v1",
        api_key="not-needed",
        max_retries=0,
        extra_body={"id_slot": 3},
        http_client=httpx.Client(transport=httpx.MockTransport(reply)),
    )


def ask(chat: LlamaServerChat, schema: type[BaseModel]) -> Any:
    def calls() -> Any:
        return (yield schema, [HumanMessage("Vote.")])

    return run_calls(calls(), chat)


def test_the_local_client_sends_the_grammar_instead_of_the_schema_and_parses_the_answer() -> None:
    bodies: list[dict[str, Any]] = []
    outcome = ask(chat_answering('{"choice":"P02"}', bodies), VOTE)
    assert outcome.parsed == VOTE(choice="P02") and outcome.error is None
    (body,) = bodies
    assert "response_format" not in body
    assert body["grammar"] == grammar_of_model(VOTE)
    assert body["id_slot"] == 3  # the seat's slot is still asked for


def test_an_answer_cut_short_is_a_recorded_invalid_answer_with_its_text() -> None:
    outcome = ask(chat_answering('{"choice":"P0', []), VOTE)
    assert outcome.parsed is None
    assert outcome.raw == '{"choice":"P0' and outcome.tokens_out == 4
    assert outcome.error is not None and "JSONDecodeError" in outcome.error


def test_an_answer_outside_the_schema_is_a_recorded_invalid_answer() -> None:
    outcome = ask(chat_answering('{"choice":"P09"}', []), VOTE)
    assert outcome.parsed is None and outcome.raw == '{"choice":"P09"}'
    assert outcome.error is not None


def test_a_shape_without_a_grammar_keeps_the_servers_own_conversion() -> None:
    bodies: list[dict[str, Any]] = []
    outcome = ask(chat_answering('{"score": 1.5}', bodies), Number)
    assert outcome.parsed == Number(score=1.5)
    (body,) = bodies
    assert "grammar" not in body and body["response_format"]["type"] == "json_schema"


class Asked(TypedDict):
    answer: Any


def test_an_answer_is_parsed_when_the_graph_streams_its_messages() -> None:
    # Studio and the web app stream a graph's messages: LangChain then streams each model
    # call unless the model refuses to, and a streamed answer would never be parsed.
    chat = chat_answering('{"choice":"P01"}', [])
    structured = chat.with_structured_output(VOTE, method="json_schema", include_raw=True)

    def node(state: Asked) -> Asked:
        return {"answer": structured.invoke([HumanMessage("Vote.")])}

    graph = StateGraph(Asked).add_node("ask", node).add_edge(START, "ask").compile()
    answers = [
        update["ask"]["answer"]
        for mode, update in graph.stream({"answer": None}, stream_mode=["messages", "updates"])
        if mode == "updates"
    ]
    assert [a["parsed"] for a in answers] == [VOTE(choice="P01")]
