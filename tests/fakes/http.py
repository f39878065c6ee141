"""Local HTTP fakes: a handler class served on 127.0.0.1, its JSON answers, and the body of
an OpenAI-compatible chat completion (one that fills the request's answer schema)."""

import json
import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from autowerewolf.backends.simulated import fill


@contextmanager
def serving(handler: type[BaseHTTPRequestHandler], path: str = "/v1") -> Iterator[str]:
    """The server's base URL (`http://127.0.0.1:PORT` + `path`) while it runs."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{path}"
    finally:
        server.shutdown()
        server.server_close()


class QuietHandler(BaseHTTPRequestHandler):
    """A handler that keeps the test's terminal free of request lines."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def json_body(self) -> Any:
        return json.loads(self.rfile.read(int(self.headers["Content-Length"])))


def send_json(
    handler: BaseHTTPRequestHandler, body: bytes, status: int = 200, **headers: str
) -> None:
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(body)))
    for name, value in headers.items():
        handler.send_header(name.replace("_", "-"), value)
    handler.end_headers()
    handler.wfile.write(body)


def response_schema(request: dict[str, Any]) -> dict[str, Any]:
    """The JSON schema a chat request asks its answer to follow; {} for a request without
    one (the embedded server's slot priming)."""
    schema = request.get("response_format", {}).get("json_schema", {}).get("schema", {})
    assert isinstance(schema, dict)
    return schema


def completion(
    message: dict[str, Any], model: str = "m", number: int = 1, tokens: tuple[int, int] = (1, 1)
) -> bytes:
    """A chat completion answering `message` (its role and content, and any extra fields)."""
    prompt_tokens, completion_tokens = tokens
    return json.dumps(
        {
            "id": f"chatcmpl-{number}",
            "object": "chat.completion",
            "created": 0,
            "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }
    ).encode()


def filled_completion(request: dict[str, Any], rng: random.Random) -> bytes:
    """A completion whose content fills the request's answer schema, drawn from `rng`."""
    content = json.dumps(fill(response_schema(request), rng))
    return completion({"role": "assistant", "content": content})
