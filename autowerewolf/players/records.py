"""What each decision was, saved with the game. Stored in checkpoints: keep this module path."""

from typing import Any, Literal

from autowerewolf.rules.frozen import FrozenModel

# decision: an answer the rules applied. probe: a measurement question, never applied and
# never shown to any player. note: a player module's intermediate output (role estimates,
# a strategy, retrieved experiences), kept so that a resumed or forked game continues with
# the same memory.
Purpose = Literal["decision", "probe", "note"]


class DecisionRecord(FrozenModel):
    """One seat's answer to one question, with enough detail to audit or score it later."""

    seat: str
    player: str  # player kind: random, scripted, human, llm, heuristic, override
    purpose: Purpose = "decision"
    agent: str | None = None  # the agent design that answered (LLM seats and plug-ins)
    # An LLM seat's harness factors for this question: private reasoning (characters),
    # speech form, second look (prompts/answers.py Bounds.harness)
    harness: dict[str, int | str | bool] | None = None
    model: str | None = None
    day: int
    step: str  # the step, or the probe's or note's name
    key: str
    options: tuple[str, ...]
    option: str
    text: str = ""
    data: dict[str, Any] | None = None  # structured output: estimates, a strategy, a bid...
    reasoning: str | None = None  # private: never shown to another seat
    thinking: str | None = None  # a reasoning model's separate reasoning content: private too
    prompt: str | None = None  # the new part of the prompt sent for this call
    prompt_chars: int | None = None  # size of the whole prompt
    raw: str | None = None  # what the model answered, kept (bounded) for audits
    valid: bool = True  # answered legally without a fallback
    retries: int = 0
    # Attempts that got no answer by their deadline: a model call retried after its client
    # timed out, or an agent program or endpoint past its deadline (then a fallback).
    timeouts: int = 0
    fallback: bool = False
    error: str | None = None
    tokens_in: int | None = None
    tokens_out: int | None = None
    cached_tokens: int | None = None
    latency_s: float = 0.0
