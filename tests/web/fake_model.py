"""A stand-in OpenAI-compatible model server on 127.0.0.1 for the web tests' LLM seats: it
answers chat completions with a legal structured answer (a seeded fill of the request's
JSON schema), reports token usage, and writes a marker into every answer's private
reasoning (`SECRET-P03-7`) so that leak scans can look for it. As a reasoning model it also
sends separate reasoning content (`reasoning_content`, marked `SECRET-THINKING-P03-7`)."""

import hashlib
import json
import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from typing import Any, ClassVar

from autowerewolf.backends.simulated import fill
from autowerewolf.prompts.question import IDENTITY_LINE
from tests.fakes.http import completion, response_schema, send_json, serving


class _Handler(BaseHTTPRequestHandler):
    calls = 0
    lock = threading.Lock()
    thinks = False  # a reasoning model: each answer carries its reasoning content
    # (seat, the request's llama.cpp `id_slot`) of each call; (path, file) of each slot
    # save or restore. Each fake_model_server has a list of its own.
    slots: ClassVar[list[tuple[str, object]]] = []

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path.startswith("/slots/"):  # llama-server's slot save and restore
            self.slots.append((self.path, request.get("filename")))
            send_json(self, b'{"ok": true}')
            return
        prompt = "\n".join(str(m.get("content", "")) for m in request["messages"])
        digest = hashlib.blake2b(prompt.encode(), digest_size=8).digest()
        answer = fill(response_schema(request), random.Random(int.from_bytes(digest, "big")))
        with _Handler.lock:
            _Handler.calls += 1
            number = _Handler.calls
        # The seat a prompt was written for: its question's identity line (the last one).
        seat = next((found[1] for found in IDENTITY_LINE.findall(prompt)[-1:]), "")
        self.slots.append((seat, request.get("id_slot")))
        if "reasoning" in answer:
            answer["reasoning"] = f"SECRET-{seat or 'P00'}-{number}"
        content = json.dumps(answer)
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if self.thinks:
            message["reasoning_content"] = f"SECRET-THINKING-{seat or 'P00'}-{number}"
        model = request.get("model", "fake")
        tokens = (len(prompt) // 4, len(content) // 4)
        send_json(self, completion(message, model, number, tokens))


@contextmanager
def fake_model_server(
    thinks: bool = False, slots: list[tuple[str, object]] | None = None
) -> Iterator[str]:
    """The server's base URL (`http://127.0.0.1:PORT/v1`) while it runs; `slots` collects
    each call's seat and `id_slot`, and each slot save or restore (llama-server's API)."""
    handler = type(
        "Handler", (_Handler,), {"thinks": thinks, "slots": [] if slots is None else slots}
    )
    with serving(handler) as url:
        yield url
