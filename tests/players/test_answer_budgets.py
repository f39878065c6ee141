"""Answer budgets (prompts/answers.py). `terse`: no private reasoning in any answer schema
or answer line, the default's words unchanged, and a game plays to its end on it.
`focused`, the local default: private reasoning before a night power, a shot or the badge
only, in the schema and the answer line alike."""

from dataclasses import replace
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from pydantic import ValidationError

from autowerewolf.backends.config import Budget, ModelConfig, PlayerModels
from autowerewolf.players.agents.choice import AgentChoice
from autowerewolf.prompts.answers import COMPACT, FOCUSED, POWER_DECISIONS, TERSE, answer_schema
from autowerewolf.prompts.question import answer_line, prompt_key
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
    assert answer_line("message", False, True) == (
        "Answer with your private reasoning first, then your choice, then your message: what "
        "you whisper to your fellow wolves."
    )
    # A structured speaker's whisper is its choice and a ground (prompts/grounds.py).
    assert answer_line("message", True, True).endswith("your fellow wolves hear both.")
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


def test_focused_is_the_local_default_and_reasons_only_before_a_power() -> None:
    assert ModelConfig(backend="local", model="m").bounds() == replace(FOCUSED, speech_acts=True)
    for key in ("wolves", "witch_poison", "hunter_shot", "badge"):
        assert FOCUSED.for_decision(key) is FOCUSED
    for key in ("exile_vote", "discussion", "election_signup", "last_words"):
        assert FOCUSED.for_decision(key) == replace(FOCUSED, reasoning=0)
    assert COMPACT.for_decision("exile_vote") is COMPACT


def test_a_game_on_the_focused_budget_reasons_before_powers_and_nowhere_else() -> None:
    fake = FakeChatModel()
    models = PlayerModels(default=ModelConfig(backend="local", model="m"))
    out = play(fake, seed=7, models=models)
    assert out["game"].winner is not None
    decisions = [r for r in out["records"] if r.player == "llm" and r.purpose == "decision"]
    powers = [r for r in decisions if prompt_key(r.step) in POWER_DECISIONS]
    others = [r for r in decisions if prompt_key(r.step) not in POWER_DECISIONS]
    assert len(powers) > 5 and len(others) > 50
    assert all(r.reasoning and "private reasoning" in (r.prompt or "") for r in powers)
    assert not any(r.reasoning or "private reasoning" in (r.prompt or "") for r in others)
