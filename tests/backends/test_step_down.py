"""A server that refuses the schema it is sent (OpenAI's and vLLM's 400s, as the fake server
answers them) makes the model step down once for the process: strict json_schema, then
non-strict, then JSON mode with the schema in the prompt; the games finish, every answer
valid, and the one call that stepped down says so in its seat's record."""

import asyncio
import json
import re
from typing import Any, Literal

import pytest
from langchain_core.messages import BaseMessage, HumanMessage
from pydantic import BaseModel

from autowerewolf.backends.answer_format import ANSWER_NOTES, STEPPED_DOWN, AnswerFormat
from autowerewolf.backends.call_error import ModelCallError
from autowerewolf.evaluation.bootstrap import GameTable, Resamples, Sums
from autowerewolf.evaluation.games.facts import game_row
from autowerewolf.evaluation.report.validity import ALL_STEPS, game_columns, validity_table
from tests.backends.schema_games import play
from tests.fakes.chat import (
    FakeChatModel,
    legal_json,
    openai_schema_refusal,
    prompt_text,
    vllm_schema_refusal,
)

_SCHEMA_IN_PROMPT = re.compile(r"fitting this JSON Schema: (\{.*\})\s*$", re.S)


def format_of(body: dict[str, Any]) -> AnswerFormat:
    format_ = body["response_format"]
    if format_["type"] == "json_object":
        return AnswerFormat.JSON_MODE
    strict = format_["json_schema"]["strict"]
    return AnswerFormat.STRICT if strict else AnswerFormat.LOOSE


def step_downs(out: dict[str, Any]) -> list[str]:
    return [
        note
        for r in out["records"]
        for note in (r.error or "").split("; ")
        if note.startswith(STEPPED_DOWN)
    ]


def step_downs_in_validity_table(games: list[dict[str, Any]]) -> dict[str, int]:
    """The report's validity table's step downs per player over all its decisions."""
    table = GameTable()
    for number, out in enumerate(games):
        values: dict[Any, float] = {}
        row = game_row(f"g{number}", out["events"], out["records"], out["seating"])
        game_columns(row, values)
        table.add(values)
    sums = Sums(table, Resamples(table.games, 20, 0))
    return {e["player"]: e["step_downs"] for e in validity_table(sums) if e["step"] == ALL_STEPS}


def json_mode_answer(messages: list[BaseMessage], schema: dict[str, Any]) -> str:
    """A reasoning model's JSON-mode answer: a think block, then the answer fenced, to the
    schema the prompt gives (JSON mode carries none)."""
    if not schema:
        found = _SCHEMA_IN_PROMPT.search(prompt_text(messages))
        assert found is not None, "JSON mode without the schema in the prompt"
        schema = json.loads(found[1])
    return f"<think>Let me see.</think>\n```json\n{legal_json(messages, schema)}\n```"


def test_openais_refusal_of_the_strict_schema_steps_down_once_to_a_loose_schema() -> None:
    chat = FakeChatModel(refuse=openai_schema_refusal, model="refuses-strict")
    first = play([chat], seed=3)
    second = play([chat], seed=4)
    for out in (first, second):
        assert out["game"].is_over
        assert all(r.valid and not r.fallback and r.retries == 0 for r in out["records"])
    (note,) = step_downs(first) + step_downs(second)
    assert "from strict json_schema to non-strict json_schema for refuses-strict:" in note
    assert "127.0.0.1" not in note  # the model's name, not its server's address
    assert "'maxLength' is not permitted" in note
    forms = [format_of(body) for body in chat.requests]
    # Only the calls already on their way when the first refusal came were asked strictly.
    strict = forms.count(AnswerFormat.STRICT)
    assert 1 <= strict <= 12 and AnswerFormat.STRICT not in forms[strict:]
    assert AnswerFormat.JSON_MODE not in forms
    assert step_downs_in_validity_table([first, second]) == {"refuses-strict": 1}


def test_vllms_refusal_of_any_schema_steps_each_model_down_to_json_mode_once() -> None:
    """Two models at one table, on a vLLM that refuses every schema: each model steps down
    twice (strict, non-strict, JSON mode), once each, and reads JSON mode's fenced answers
    after a think block."""
    chats = [
        FakeChatModel(json_mode_answer, refuse=vllm_schema_refusal, model=f"vllm-{name}")
        for name in ("a", "b")
    ]
    out = play(chats, board="9-standard", seed=5)
    assert out["game"].is_over
    assert all(r.valid and not r.fallback and r.retries == 0 for r in out["records"])
    notes = step_downs(out)
    for chat in chats:
        mine = [note for note in notes if note.endswith("xgrammar.") and chat.model_name in note]
        assert len(mine) == 2, mine
        assert any("from strict json_schema to non-strict json_schema" in n for n in mine)
        assert any("from non-strict json_schema to JSON mode" in n for n in mine)
        forms = [format_of(body) for body in chat.requests]
        assert forms[-1] is AnswerFormat.JSON_MODE
        answered = forms.count(AnswerFormat.JSON_MODE)
        assert answered == len(chat.prompts)  # every answer came in JSON mode
    assert len(notes) == 4
    assert step_downs_in_validity_table([out]) == {"vllm-a": 2, "vllm-b": 2}


def test_a_refusal_of_json_mode_too_fails_the_call_without_a_loop() -> None:
    """Nothing below JSON mode: a server that refuses everything fails each call (the seat
    falls back to a seeded random choice), after one step down per format."""

    def refuse_all(body: dict[str, Any]) -> Any:
        refusal = vllm_schema_refusal(body)
        if refusal is None:  # JSON mode, refused in the same words
            refusal = vllm_schema_refusal({"response_format": {"type": "json_schema"}})
        return refusal

    chat = FakeChatModel(refuse=refuse_all, model="refuses-everything")
    out = play([chat], board="8-arena", seed=6)
    assert out["game"].is_over
    assert all(r.fallback for r in out["records"])
    assert len(step_downs(out)) == 2
    # Each call after the step downs is refused once, in JSON mode, and not asked again.
    forms = [format_of(body) for body in chat.requests]
    assert forms.count(AnswerFormat.STRICT) + forms.count(AnswerFormat.LOOSE) <= 2 * 8
    assert forms[-1] is AnswerFormat.JSON_MODE


class Ballot(BaseModel):
    choice: Literal["P01", "P02"]


def refuse_every_format(body: dict[str, Any]) -> Any:
    refusal = vllm_schema_refusal(body)
    if refusal is None and "response_format" in body:  # JSON mode, refused in the same words
        refusal = vllm_schema_refusal({"response_format": {"type": "json_schema"}})
    return refusal


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_a_call_steps_down_and_fails_alike_on_the_synchronous_and_asynchronous_client(
    asynchronous: bool,
) -> None:
    """The same call through `invoke` and `ainvoke`: a structured answer steps down through
    every format and is read in JSON mode; a server that refuses every format fails the
    call with a redacted error carrying its step downs; a plain call is answered as sent."""

    def ask(chat: FakeChatModel, structured: bool) -> Any:
        model: Any = chat
        if structured:
            model = chat.with_structured_output(Ballot, method="json_schema", include_raw=True)
        messages = [HumanMessage("Vote: P01 or P02.")]
        return asyncio.run(model.ainvoke(messages)) if asynchronous else model.invoke(messages)

    mode = "async" if asynchronous else "sync"
    chat = FakeChatModel(json_mode_answer, refuse=vllm_schema_refusal, model=f"steps-{mode}")
    out = ask(chat, structured=True)
    assert out["parsed"] == Ballot(choice="P01")
    notes = out["raw"].additional_kwargs[ANSWER_NOTES]
    assert [n.startswith(STEPPED_DOWN) for n in notes] == [True, True]
    assert [format_of(body) for body in chat.requests] == list(AnswerFormat)

    refusing = FakeChatModel(refuse=refuse_every_format, model=f"refuses-{mode}")
    with pytest.raises(ModelCallError) as failed:
        ask(refusing, structured=True)
    assert len(failed.value.notes) == 2 and "xgrammar" in str(failed.value)
    assert len(refusing.requests) == len(AnswerFormat)  # no loop below JSON mode
    assert ask(refusing, structured=False).content  # a plain call has no format to refuse
    down = FakeChatModel(refuse=lambda _: refuse_every_format({"response_format": {}}))
    with pytest.raises(ModelCallError, match="xgrammar"):
        ask(down, structured=False)
