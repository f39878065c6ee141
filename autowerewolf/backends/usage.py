"""Token usage from a LangChain ``AIMessage``, whichever backend produced it.

Where the numbers live (measured against llama-server and ollama-proxy-plus):

* ChatOpenAI (``api`` and ``local``): ``msg.usage_metadata`` has ``input_tokens`` /
  ``output_tokens``, and ``input_token_details["cache_read"]`` copied from the server's
  ``usage.prompt_tokens_details.cached_tokens``. The raw ``usage`` dict is also kept in
  ``msg.response_metadata["token_usage"]``.
* ChatOllama: ``usage_metadata`` is built from ``prompt_eval_count`` / ``eval_count``
  and has no cache field; Ollama does not report cached tokens. Behind
  ollama-proxy-plus those counts are whitespace-separated words, not tokens.

``with_structured_output`` returns the parsed object, not the message; pass
``include_raw=True`` and read ``result["raw"]`` to get usage.
"""

from __future__ import annotations

from typing import Any, TypedDict

from langchain_core.messages import BaseMessage


class Usage(TypedDict):
    """Token counts; ``None`` means the backend did not report that number."""

    prompt_tokens: int | None
    completion_tokens: int | None
    cached_tokens: int | None


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def usage_from_message(msg: BaseMessage) -> Usage:
    # Only AIMessage carries usage; other messages yield all-None rather than an error.
    usage: dict[str, Any] = dict(getattr(msg, "usage_metadata", None) or {})
    details: dict[str, Any] = dict(usage.get("input_token_details") or {})
    return Usage(
        prompt_tokens=_int_or_none(usage.get("input_tokens")),
        completion_tokens=_int_or_none(usage.get("output_tokens")),
        cached_tokens=_int_or_none(details.get("cache_read")),
    )
