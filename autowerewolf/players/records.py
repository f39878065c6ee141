"""What each decision was, saved with the game. Stored in checkpoints: keep this module path."""

from pydantic import BaseModel, ConfigDict


class DecisionRecord(BaseModel):
    """One seat's answer to one decision, with enough detail to audit or score it later."""

    model_config = ConfigDict(frozen=True)

    seat: str
    player: str  # player kind: random, scripted, human, llm, heuristic
    model: str | None = None
    day: int
    step: str
    key: str
    options: tuple[str, ...]
    option: str
    text: str = ""
    reasoning: str | None = None  # private: never shown to another seat
    prompt: str | None = None  # the new part of the prompt sent for this call
    prompt_chars: int | None = None  # size of the whole prompt
    raw: str | None = None
    valid: bool = True  # answered legally without a fallback
    retries: int = 0
    fallback: bool = False
    error: str | None = None
    tokens_in: int | None = None
    tokens_out: int | None = None
    cached_tokens: int | None = None
    latency_s: float = 0.0
