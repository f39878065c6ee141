"""Promise: an API key never reaches a database, a log, a prompt or the terminal, even when
the model server echoes it in its error text. Checked against a real HTTP server on
127.0.0.1 that puts the request's Authorization header into every error body.
"""

import json
import logging
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Literal

import pytest
from langchain_core.messages import HumanMessage
from langchain_openai import ChatOpenAI
from pydantic import BaseModel

from autowerewolf.backends.call_error import ModelCallError
from autowerewolf.backends.config import ModelConfig
from autowerewolf.backends.factory import make_chat_model
from autowerewolf.backends.redact import RedactingFormatter, redact_secrets
from tests.fakes.chat import FakeChatModel

from .helpers import cli

KEY = "sk-echo-7f3a9c1e5b2d4f60"
KEY_ENV = "AW_ECHO_TEST_KEY"


class EchoServer(ThreadingHTTPServer):
    """Answers every request with an error whose body repeats the request's key."""

    def __init__(self, status: int) -> None:
        super().__init__(("127.0.0.1", 0), _EchoHandler)
        self.status = status
        self.bodies: list[str] = []  # every request body received: the prompts

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class _EchoHandler(BaseHTTPRequestHandler):
    server: EchoServer

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", 0))
        self.server.bodies.append(self.rfile.read(length).decode("utf-8"))
        auth = self.headers.get("Authorization", "")
        body = json.dumps({"error": {
            "message": f"invalid credentials: {auth}; headers were {dict(self.headers)}",
            "type": "invalid_request_error", "key": auth.removeprefix("Bearer "),
        }}).encode()  # fmt: skip
        self.send_response(self.server.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass  # no request lines on the test's terminal


@pytest.fixture(params=[401, 500])
def echo(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[EchoServer]:
    monkeypatch.setenv(KEY_ENV, KEY)
    server = EchoServer(request.param)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _config(echo: EchoServer) -> ModelConfig:
    return ModelConfig(backend="api", model="echo", base_url=echo.base_url,
                       api_key_env=KEY_ENV, retries=0, timeout_s=10)  # fmt: skip


def test_the_server_really_echoes_the_key(echo: EchoServer) -> None:
    """Without the factory's wrapper the key is in the error: the test below is not empty."""
    plain = ChatOpenAI(model="echo", base_url=echo.base_url, api_key=KEY, max_retries=0)
    with pytest.raises(Exception) as caught:
        plain.invoke([HumanMessage("hi")])
    text = f"{type(caught.value).__name__}: {caught.value}"
    assert KEY in text
    assert KEY not in redact_secrets(text)


def test_model_errors_from_the_factory_never_carry_the_key(echo: EchoServer) -> None:
    chat = make_chat_model(_config(echo))
    with pytest.raises(ModelCallError) as caught:
        chat.invoke([HumanMessage("hi")])
    err = caught.value
    text = f"{type(err).__name__}: {err}"
    assert KEY not in text and "[REDACTED]" in text
    assert f"Error code: {echo.status}" in text  # the server's message itself is kept
    assert err.__cause__ is None and err.__suppress_context__
    assert KEY not in redact_secrets(text)


def test_an_answer_outside_the_schema_is_kept_without_the_key() -> None:
    """The server's answer that the OpenAI client refused (it does not fit the schema) is
    kept on the error to be recorded (backends/factory.py): redacted like the error."""

    class Vote(BaseModel):
        choice: Literal["P01"]

    echoing = json.dumps({"choice": f"Authorization: Bearer {KEY}"})
    chat = FakeChatModel(respond=lambda messages, schema: echoing)
    structured = chat.with_structured_output(Vote, method="json_schema", include_raw=True)
    with pytest.raises(ModelCallError) as caught:
        structured.invoke([HumanMessage("vote")])
    answer = caught.value.answer
    assert answer is not None and isinstance(answer.content, str)
    assert KEY not in answer.content and "[REDACTED]" in answer.content
    assert KEY not in str(caught.value)
    assert answer.usage_metadata and answer.usage_metadata["output_tokens"] > 0


def test_the_log_formatter_redacts_messages_and_tracebacks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)
    make_chat_model(ModelConfig(backend="api", model="m", base_url="http://127.0.0.1:9/v1",
                                api_key_env=KEY_ENV))  # fmt: skip
    try:
        raise ValueError(f"server said Authorization: Bearer {KEY}")
    except ValueError:
        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "key %s", (KEY,), None)
        record.exc_info = sys.exc_info()
    formatted = RedactingFormatter("%(message)s").format(record)
    assert KEY not in formatted and "Traceback" in formatted


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Authorization: Bearer abc.def-ghi", "Authorization: Bearer [REDACTED]"),
        ("{'authorization': 'Basic dXNlcjpwdw=='}", "{'authorization': 'Basic [REDACTED]'}"),
        ('{"api-key": "q1w2e3r4"}', '{"api-key": "[REDACTED]"}'),
        ("x-api-key=zz99yy88 next", "x-api-key=[REDACTED] next"),
        ("sent bearer tok_1234 to the server", "sent bearer [REDACTED] to the server"),
        ("Basic checks failed; api_key_env: MY_KEY", "Basic checks failed; api_key_env: MY_KEY"),
    ],
)
def test_header_values_are_redacted(text: str, expected: str) -> None:
    assert redact_secrets(text) == expected


def test_a_game_against_an_echoing_server_keeps_the_key_out(
    echo: EchoServer, tmp_path: Path, log_dir: Path
) -> None:
    models = tmp_path / "models.yaml"
    models.write_text(
        f"default: {{backend: api, base_url: '{echo.base_url}', model: echo, "
        f"api_key_env: {KEY_ENV}, retries: 0, timeout_s: 10}}\n",
        encoding="utf-8",
    )
    db = tmp_path / "games.db"
    result = cli("play", "--players", "llm", "--board", "8-arena", "--seed", "5",
                 "--models", models, "--db", db, "--game-id", "g")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert len(echo.bodies) > 10  # every decision asked the server, and got its error
    assert KEY not in result.stdout + result.stderr
    assert not any(KEY in body for body in echo.bodies)  # re-prompts quote the error
    assert any("REDACTED" in body for body in echo.bodies)
    for path in db.parent.glob("games.db*"):
        assert KEY.encode() not in path.read_bytes(), path
    for path in log_dir.glob("*"):
        assert KEY not in path.read_text(encoding="utf-8"), path
