"""Recorded answers: every model call's request and answer kept in a SQLite file, so a run
can be played again from them without asking the model.

`RecordedChatModel` wraps a chat model (backends/factory.py wraps every model it builds
while an `AnswerBook` is active). A structured call's request is the messages, the response
format (the schema and its options) and the model's identity; its key is the SHA-256 of
that request, the game it belongs to (LangGraph's thread id) and how many times that game
asked the same request before, so a request asked twice gets its two answers back in order.
A key found in the book's `replay` file is answered from it (a hit); any other call goes to
the model (a miss) and its answer is written to `record`. No API key is part of a request,
and the file is created 0600 (private_files.py).
"""

import hashlib
import json
import sqlite3
import threading
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, message_to_dict, messages_from_dict
from langchain_core.runnables import Runnable, RunnableConfig, ensure_config
from pydantic import BaseModel

from autowerewolf.backends.call_error import ModelCallError
from autowerewolf.backends.redact import redact_secrets
from autowerewolf.backends.wrapped import WrappedChatModel
from autowerewolf.private_files import create_private_file

TABLE = "model_answers"
SCHEMA = (
    f"CREATE TABLE IF NOT EXISTS {TABLE} "
    "(key TEXT PRIMARY KEY, request TEXT NOT NULL, answer TEXT NOT NULL)"
)


def _connect(path: Path) -> sqlite3.Connection:
    create_private_file(path)
    connection = sqlite3.connect(path, timeout=30, check_same_thread=False)
    connection.execute(SCHEMA)
    connection.commit()
    return connection


@dataclass
class AnswerBook:
    """Where answers are written (`record`) and read back from (`replay`, may be the same
    file); `tally` counts hits and misses of this process."""

    record: Path
    replay: Path | None = None
    tally: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        # Opened at the first call, once the game store has made the file a game database.
        self._writer: sqlite3.Connection | None = None
        self._reader: sqlite3.Connection | None = None
        self._asked: Counter[str] = Counter()

    def _connections(self) -> tuple[sqlite3.Connection, sqlite3.Connection | None]:
        if self._writer is None:
            self._writer = _connect(self.record)
            if self.replay is not None:
                same = self.replay == self.record
                self._reader = self._writer if same else _connect(self.replay)
        return self._writer, self._reader

    def key(self, request: str) -> str:
        """The request's hash within its game, with how often the game asked it before."""
        thread = str(ensure_config().get("configurable", {}).get("thread_id", ""))
        digest = hashlib.sha256(request.encode()).hexdigest()
        with self._lock:
            ordinal = self._asked[(scope := f"{thread}:{digest}")]
            self._asked[scope] += 1
        return f"{scope}:{ordinal}"

    def find(self, key: str) -> dict[str, Any] | None:
        if self.replay is None:
            return None
        with self._lock:
            _, reader = self._connections()
            assert reader is not None  # opened with the writer when there is a replay
            row = reader.execute(f"SELECT answer FROM {TABLE} WHERE key = ?", (key,))
            found = row.fetchone()
        self.tally["hits" if found else "misses"] += 1
        return None if found is None else dict(json.loads(found[0]))

    def keep(self, key: str, request: str, answer: dict[str, Any]) -> None:
        with self._lock:
            writer, _ = self._connections()
            writer.execute(
                f"INSERT OR REPLACE INTO {TABLE} VALUES (?, ?, ?)",
                (key, redact_secrets(request), redact_secrets(json.dumps(answer))),
            )
            writer.commit()

    def close(self) -> None:
        if self._reader is not None and self._reader is not self._writer:
            self._reader.close()
        if self._writer is not None:
            self._writer.close()
        self._writer = self._reader = None


_active: AnswerBook | None = None


def activate(book: AnswerBook | None) -> None:
    """Models built from now on (backends/factory.py) record into `book` (None: stop)."""
    global _active
    _active = book


def active_book() -> AnswerBook | None:
    return _active


def _stored(result: dict[str, Any]) -> dict[str, Any]:
    raw, parsed, error = result.get("raw"), result.get("parsed"), result.get("parsing_error")
    return {
        "raw": message_to_dict(raw) if isinstance(raw, BaseMessage) else None,
        "parsed": parsed.model_dump(mode="json") if isinstance(parsed, BaseModel) else None,
        "parsing_error": None if error is None else str(error),
    }


def _restored(stored: dict[str, Any], schema: type[BaseModel]) -> dict[str, Any]:
    if "call_error" in stored:
        answer = stored["answer"]
        raise ModelCallError(
            stored["call_error"],
            answer=None if answer is None else messages_from_dict([answer])[0],  # type: ignore[arg-type]
            notes=tuple(stored["notes"]),
            status_code=stored.get("status_code"),
            retry_after_s=stored.get("retry_after_s"),
            connection_failed=bool(stored.get("connection_failed")),
            timed_out=bool(stored.get("timed_out")),
        )
    raw = stored["raw"]
    error = stored["parsing_error"]
    return {
        "raw": None if raw is None else messages_from_dict([raw])[0],
        "parsed": None if stored["parsed"] is None else schema.model_validate(stored["parsed"]),
        "parsing_error": None if error is None else ValueError(error),
    }


def _failure(err: ModelCallError) -> dict[str, Any]:
    return {
        "call_error": str(err),
        "answer": None if err.answer is None else message_to_dict(err.answer),
        "notes": list(err.notes),
        # What the gate decides a retry on: a replay retries where the recorded run did.
        "status_code": err.status_code,
        "retry_after_s": err.retry_after_s,
        "connection_failed": err.connection_failed,
        "timed_out": err.timed_out,
    }


class RecordedRunnable(Runnable[Any, Any]):
    """A structured-output call answered from the book when it holds the request."""

    # `inner.with_structured_output(schema, **options)` answers the misses.

    def __init__(
        self,
        inner: BaseChatModel,
        options: dict[str, Any],
        schema: type[BaseModel],
        request_head: dict[str, Any],
        book: AnswerBook,
    ) -> None:
        self.inner = inner
        self.options = options
        self._structured: Runnable[Any, Any] | None = None
        self.schema = schema
        self.request_head = request_head
        self.book = book

    @property
    def structured(self) -> Runnable[Any, Any]:
        """The model's own structured output, built at the first miss: a replay that hits
        every call never touches the model."""
        if self._structured is None:
            self._structured = self.inner.with_structured_output(self.schema, **self.options)
        return self._structured

    def _request(self, messages: list[BaseMessage]) -> str:
        said = [{"type": m.type, "content": m.content} for m in messages]
        return json.dumps({**self.request_head, "messages": said}, sort_keys=True, default=str)

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        request = self._request(input)
        key = self.book.key(request)
        if (found := self.book.find(key)) is not None:
            return _restored(found, self.schema)
        try:
            result = self.structured.invoke(input, config, **kwargs)
        except ModelCallError as err:
            self.book.keep(key, request, _failure(err))
            raise
        self.book.keep(key, request, _stored(result))
        return result

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        request = self._request(input)
        key = self.book.key(request)
        if (found := self.book.find(key)) is not None:
            return _restored(found, self.schema)
        try:
            result = await self.structured.ainvoke(input, config, **kwargs)
        except ModelCallError as err:
            self.book.keep(key, request, _failure(err))
            raise
        self.book.keep(key, request, _stored(result))
        return result


class RecordedChatModel(WrappedChatModel):
    """`inner`, its structured calls kept in (and answered from) `book`; `identity` names
    the model in each request (never its key). Plain (unstructured) calls are not part of
    a game's decisions: they pass through."""

    prefix = "recorded"
    book: AnswerBook
    identity: dict[str, Any]

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Runnable[Any, Any]:
        head = {
            "model": self.identity,
            "format": {"schema": schema.model_json_schema(), **kwargs},
        }
        return RecordedRunnable(self.inner, kwargs, schema, head, self.book)


def recorded(model: BaseChatModel, identity: dict[str, Any]) -> BaseChatModel:
    """`model` recorded into the active book, or `model` itself when none is active."""
    book = active_book()
    return model if book is None else RecordedChatModel(inner=model, book=book, identity=identity)
