"""Every structured-answer schema a game sends, on every board and discussion protocol with
every agent design and budget, read from the requests the fake server received: each is
in the strict subset (tests/backends/strict_subset.py), is left as it is by the OpenAI
SDK's own strict conversion, and compiles in llguidance, outlines-core and xgrammar
(vLLM's default decoder, whose import of torch takes about 20 s)."""

import copy
import json
from typing import Any

import pytest

from tests.backends.schema_games import every_kind_of_game, play
from tests.backends.strict_subset import strict_subset_problems
from tests.fakes.chat import FakeChatModel

# A game per board and discussion protocol, and one with every probe: about 80 s on two
# busy cores.
pytestmark = pytest.mark.long

# The answer format as a request carries it: {"type": "json_schema", "json_schema": {...}}.
Format = dict[str, Any]


@pytest.fixture(scope="module")
def sent() -> list[Format]:
    """Each distinct `json_schema` a game's requests carried."""
    chat = FakeChatModel(model="schemas-of-every-game")
    for game in every_kind_of_game():
        assert play([chat], **game)["game"].is_over
    # Written as sent: the order of properties is part of the schema (and of `required`).
    distinct = {json.dumps(body["response_format"]["json_schema"]) for body in chat.requests}
    return [json.loads(text) for text in sorted(distinct)]


def test_every_request_asks_for_a_strict_schema(sent: list[Format]) -> None:
    names = {format_["name"] for format_ in sent}
    # Votes, speeches, wolf messages, acts, role estimates and the probes all came.
    assert {"ChoiceAnswer", "SpeechAnswer", "MessageAnswer", "RoleEstimates"} <= names
    assert all(format_["strict"] is True for format_ in sent)


def test_every_schema_is_in_the_strict_subset(sent: list[Format]) -> None:
    problems = {f["name"]: strict_subset_problems(f["schema"]) for f in sent}
    assert not {name: found for name, found in problems.items() if found}


def test_the_openai_sdk_strict_conversion_leaves_every_schema_as_it_is(
    sent: list[Format],
) -> None:
    """The SDK's converter (what `client.chat.completions.parse` sends for a pydantic
    class) adds what strict mode needs and changes nothing of a schema already strict."""
    from openai.lib._pydantic import _ensure_strict_json_schema

    for format_ in sent:
        schema = copy.deepcopy(format_["schema"])
        converted = _ensure_strict_json_schema(schema, path=(), root=schema)
        assert converted == format_["schema"], format_["name"]


def test_every_schema_compiles_in_llguidance(sent: list[Format]) -> None:
    import llguidance

    for format_ in sent:
        grammar = llguidance.grammar_from("json_schema", json.dumps(format_["schema"]))
        assert llguidance.LLMatcher.validate_grammar(grammar) == "", format_["name"]


def test_every_schema_compiles_in_outlines_core(sent: list[Format]) -> None:
    from outlines_core.json_schema import build_regex_from_schema

    for format_ in sent:
        assert build_regex_from_schema(json.dumps(format_["schema"])), format_["name"]


@pytest.mark.xgrammar
def test_every_schema_compiles_in_xgrammar(sent: list[Format]) -> None:
    import xgrammar

    for format_ in sent:
        schema = json.dumps(format_["schema"])
        assert str(xgrammar.Grammar.from_json_schema(schema, strict_mode=True)), format_["name"]
