"""A reasoning model's separate reasoning content is kept in the seat's own record and
never reaches another seat's prompt."""

import json
import warnings
from typing import Any

from langchain_core.messages import BaseMessage
from openai.types.chat import ParsedChatCompletion
from pydantic import BaseModel, SecretStr

from autowerewolf.backends.openai_chat import RedactingChatOpenAI
from autowerewolf.players.agents.choice import AgentChoice
from tests.agents.helpers import play
from tests.fakes.chat import FakeChatModel, prompt_text, seat_of


def thought(messages: list[BaseMessage], number: int) -> str:
    seat = seat_of(prompt_text(messages))
    return f"THOUGHT-{seat}-{number}"


def test_thinking_is_recorded_privately() -> None:
    chat = FakeChatModel(reason=thought)
    out = play(chat, agents=AgentChoice())
    records = [r for r in out["records"] if r.purpose == "decision"]
    assert records and all((r.thinking or "").startswith(f"THOUGHT-{r.seat}-") for r in records)
    for prompt in chat.prompts:
        me = seat_of(prompt)
        assert "THOUGHT-" not in prompt.replace(f"THOUGHT-{me}-", "")
    assert not any("THOUGHT-" in (e.text or "") for e in out["events"])


def test_the_openai_client_keeps_reasoning_content() -> None:
    chat = RedactingChatOpenAI(model="m", base_url="http://127.0.0.1:9/v1", api_key=SecretStr("x"))
    response: dict[str, Any] = {
        "id": "1",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {
                    "role": "assistant",
                    "content": json.dumps({"choice": "P01"}),
                    "reasoning_content": "private chain of thought",
                },
            }
        ],
        "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5},
    }
    result = chat._create_chat_result(response)
    message = result.generations[0].message
    assert message.additional_kwargs["reasoning_content"] == "private chain of thought"


def test_a_parsed_structured_answer_keeps_reasoning_without_a_warning() -> None:
    """The OpenAI client's `.parse()` puts the answer object in `message.parsed`, a field its
    types declare as None: dumping the whole response warned on every structured call."""

    class Choice(BaseModel):
        choice: str

    chat = RedactingChatOpenAI(model="m", base_url="http://127.0.0.1:9/v1", api_key=SecretStr("x"))
    message = {
        "role": "assistant",
        "content": json.dumps({"choice": "P01"}),
        "reasoning_content": "private chain of thought",
    }
    response = ParsedChatCompletion[None].model_validate(
        {
            "id": "1",
            "object": "chat.completion",
            "created": 0,
            "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop", "message": message}],
        }
    )
    response.choices[0].message.parsed = Choice(choice="P01")  # type: ignore[assignment]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = chat._create_chat_result(response)
    answer = result.generations[0].message
    assert answer.additional_kwargs["reasoning_content"] == "private chain of thought"
    assert answer.additional_kwargs["parsed"] == Choice(choice="P01")
