"""The `terse` budget (prompts/answers.py): no private reasoning in any answer schema or
answer line, the default's words unchanged, and a game plays to its end on it."""

from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from pydantic import ValidationError

from autowerewolf.backends.config import Budget, ModelConfig, PlayerModels
from autowerewolf.players.agents.choice import AgentChoice
from autowerewolf.prompts.answers import COMPACT, TERSE, answer_schema
from autowerewolf.prompts.question import answer_line
from autowerewolf.prompts.strategy import strategy_schema
from tests.agents.helpers import play
from tests.fakes.chat import FakeChatModel, legal_json


def test_terse_schemas_have_no_reasoning_and_start_with_the_choice() -> None:
    for text in (None, "speech", "message"):
        fields = list(answer_schema(text, ("P01", "P02"), TERSE).model_json_schema()["properties"])
        assert fields[0] == "choice" and "reasoning" not in fields, (text, fields)
    acts = answer_schema("speech", ("speak",), TERSE, ("accuse P02", "pass"))
    assert "reasoning" not in acts.model_json_schema()["properties"]
    assert list(strategy_schema(0).model_json_schema()["properties"]) == ["strategy"]
    # The other budgets still think first.
    compact = answer_schema(None, ("P01",), COMPACT).model_json_schema()["properties"]
    assert list(compact) == ["reasoning", "choice"]


def test_the_answer_line_asks_for_reasoning_only_where_the_schema_has_it() -> None:
    # The compact budget's words are byte for byte those its games were measured on.
    assert answer_line(None, False, True) == (
        "Answer with your private reasoning first, then your choice."
    )
    assert answer_line("message", True, True) == (
        "Answer with your private reasoning first, then your choice, then your message: what "
        "you whisper to your fellow wolves."
    )
    assert answer_line(None, False, False) == "Answer with your choice."
    assert answer_line("speech", True, False).startswith("Answer with your choice, then your ")


def test_terse_is_a_named_budget_and_zero_reasoning_a_number() -> None:
    local = ModelConfig(backend="local", model="m", budget="terse").bounds()
    assert (local.reasoning, local.speech, local.message, local.speech_acts) == (0, 280, 120, True)
    numbers = ModelConfig(
        backend="local", model="m", budget=Budget(reasoning=0, speech=60, message=70)
    )
    assert numbers.bounds().reasoning == 0
    with pytest.raises(ValidationError):
        Budget(reasoning=-1, speech=60, message=70)
    with pytest.raises(ValidationError):
        Budget(reasoning=10, speech=0, message=70)


def test_a_game_on_the_terse_budget_asks_no_reasoning_and_uses_every_answer() -> None:
    properties: list[set[str]] = []

    def respond(messages: list[BaseMessage], schema: dict[str, Any]) -> str:
        properties.append(set(schema["properties"]))
        return legal_json(messages, schema)

    fake = FakeChatModel(respond)
    models = PlayerModels(default=ModelConfig(backend="local", model="m", budget="terse"))
    out = play(fake, seed=7, agents=AgentChoice(default="adaptive"), models=models)
    assert out["game"].winner is not None
    assert len(properties) > 50 and not any("reasoning" in p for p in properties)
    assert not any("private reasoning" in prompt for prompt in fake.prompts)
    llm = [r for r in out["records"] if r.player == "llm"]
    assert llm and all(r.reasoning is None and not r.fallback for r in llm)
