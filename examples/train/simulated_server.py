"""A simulated model behind an OpenAI-compatible chat endpoint on 127.0.0.1, for trying the
verifiers environment without a model: it answers each question with a seeded random
choice among the ones its prompt lists ("Choices: ..."), as the JSON object the
environment asks for, after `--latency` seconds; with `--invalid-every N` every N-th
answer is prose, which the environment counts as invalid. A request with `"stream": true`
(verifiers 0.4's chat harness always streams) is answered as server-sent events.

Usage: python examples/train/simulated_server.py [--port 8642] [--latency 0] [--invalid-every 0]
"""

import argparse
import hashlib
import json
import random
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CHOICES = re.compile(r"^Choices: (.*)$", re.M)


def listed_choices(prompt: str) -> list[str]:
    """The option tokens of the prompt's last "Choices:" line (`P03 (Kai, sheriff)` -> P03)."""
    found = CHOICES.findall(prompt)
    if not found:
        return []
    line = found[-1].split(". Also legal")[0].rstrip(".")
    return [re.sub(r" \(.*", "", item).strip() for item in re.split(r", (?![^(]*\))", line)]


def make_server(port: int, latency_s: float = 0.0, invalid_every: int = 0) -> ThreadingHTTPServer:
    calls = [0]
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            last = request["messages"][-1]["content"]
            prompt = last if isinstance(last, str) else "".join(p.get("text", "") for p in last)
            with lock:
                calls[0] += 1
                number = calls[0]
            time.sleep(latency_s)
            choices = listed_choices(prompt)
            if not choices or (invalid_every and number % invalid_every == 0):
                content = "Let me think about this some more."
            else:
                seed = hashlib.blake2b(prompt.encode(), digest_size=8).digest()
                choice = random.Random(seed).choice(choices)
                answer = {"reasoning": "A simulated hunch.", "choice": choice,
                          "speech": "I am watching the votes.", "message": "This one."}  # fmt: skip
                content = json.dumps(answer)
            usage = {"prompt_tokens": len(prompt) // 4, "completion_tokens": len(content) // 4,
                     "total_tokens": (len(prompt) + len(content)) // 4}  # fmt: skip
            head = {"id": f"sim-{number}", "created": int(time.time()),
                    "model": request.get("model", "simulated")}  # fmt: skip
            if request.get("stream"):
                self._stream(head, content, usage)
                return
            body = json.dumps({
                **head, "object": "chat.completion", "usage": usage,
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": content}}],
            }).encode()  # fmt: skip
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _stream(self, head: dict[str, Any], content: str, usage: dict[str, int]) -> None:
            """The answer as OpenAI's chunks: the message, its end, the usage, [DONE]."""
            chunk = {**head, "object": "chat.completion.chunk"}
            deltas = [
                {"index": 0, "delta": {"role": "assistant", "content": content},
                 "finish_reason": None},
                {"index": 0, "delta": {}, "finish_reason": "stop"},
            ]  # fmt: skip
            events = [{**chunk, "choices": [d]} for d in deltas]
            events.append({**chunk, "choices": [], "usage": usage})
            body = "".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n"
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Length", str(len(body.encode())))
            self.end_headers()
            self.wfile.write(body.encode())

        def log_message(self, *args: Any) -> None:
            pass

    return ThreadingHTTPServer(("127.0.0.1", port), Handler)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=8642)
    parser.add_argument("--latency", type=float, default=0.0)
    parser.add_argument("--invalid-every", type=int, default=0)
    args = parser.parse_args()
    server = make_server(args.port, args.latency, args.invalid_every)
    print(f"simulated model on http://127.0.0.1:{server.server_address[1]}/v1", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
