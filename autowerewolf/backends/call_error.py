"""A failed model call, as the players and the gate see it: the original error's message
with every secret redacted."""

from langchain_core.messages import AIMessage

from autowerewolf.backends.gate import is_timeout, is_transient, retry_after_of, status_of
from autowerewolf.backends.redact import redact_secrets


class ModelCallError(RuntimeError):
    """A model call failed; the message is the original error's, with secrets redacted.

    It keeps what the gate needs to decide on a retry (backends/gate.py): the HTTP status,
    the server's Retry-After, whether the connection itself failed and whether the call
    timed out; and `answer`, the
    server's answer (redacted) when the call failed because it did not fit the schema; and
    `notes`, the backend's notes on the call (its answer format stepped down on the way)."""

    def __init__(
        self,
        message: str,
        status_code: int | None = None,
        retry_after_s: float | None = None,
        connection_failed: bool = False,
        answer: AIMessage | None = None,
        notes: tuple[str, ...] = (),
        timed_out: bool = False,
    ) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.retry_after_s = retry_after_s
        self.connection_failed = connection_failed
        self.answer = answer
        self.notes = notes
        self.timed_out = timed_out


def redacted(
    err: Exception, answer: AIMessage | None = None, notes: tuple[str, ...] = ()
) -> ModelCallError:
    if answer is not None and isinstance(answer.content, str):
        answer = answer.model_copy(update={"content": redact_secrets(answer.content)})
    return ModelCallError(
        redact_secrets(f"{type(err).__name__}: {err}"),
        status_of(err),
        retry_after_of(err),
        is_transient(err) and status_of(err) is None,
        answer,
        notes,
        is_timeout(err),
    )
