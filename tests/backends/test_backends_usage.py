"""Offline tests for usage extraction, using message shapes recorded from real servers."""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage

from autowerewolf.backends.usage import usage_from_message


def test_chat_openai_message_from_llama_server() -> None:
    # As returned by ChatOpenAI -> llama-server for a prefix-cached call.
    msg = AIMessage(
        content="{}",
        usage_metadata={
            "input_tokens": 82,
            "output_tokens": 36,
            "total_tokens": 118,
            "input_token_details": {"cache_read": 81},
            "output_token_details": {},
        },
        response_metadata={
            "token_usage": {
                "prompt_tokens": 82,
                "completion_tokens": 36,
                "prompt_tokens_details": {"cached_tokens": 81},
            }
        },
    )
    assert usage_from_message(msg) == {
        "prompt_tokens": 82,
        "completion_tokens": 36,
        "cached_tokens": 81,
    }


def test_chat_ollama_message_has_no_cache_count() -> None:
    msg = AIMessage(
        content="{}",
        usage_metadata={"input_tokens": 42, "output_tokens": 33, "total_tokens": 75},
        response_metadata={"prompt_eval_count": 42, "eval_count": 33},
    )
    assert usage_from_message(msg) == {
        "prompt_tokens": 42,
        "completion_tokens": 33,
        "cached_tokens": None,
    }


def test_message_without_usage() -> None:
    expected = {"prompt_tokens": None, "completion_tokens": None, "cached_tokens": None}
    assert usage_from_message(AIMessage(content="hi")) == expected
    assert usage_from_message(HumanMessage(content="hi")) == expected
