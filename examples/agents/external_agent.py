#!/usr/bin/env python3
"""An agent across a process boundary, as a plain script (standard library only): it plays
one seat of a game over the protocol of docs/agent-protocol.md.

    autowerewolf play --agent "cmd:python3 examples/agents/external_agent.py"
    python3 examples/agents/external_agent.py --http 8642 &
    autowerewolf play --agent http://127.0.0.1:8642/agent

Its policy reads the request's features: at a step whose `effect` is harm (a kill, a vote,
a shot, a duel) it never names itself or a fellow wolf and names a seat its own Seer checks
found to be a wolf; otherwise it picks at random (seeded by the seat's own seed), speaking a
short line where it must speak."""

import json
import random
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def seat_features(request: dict) -> dict[str, dict[str, float]]:
    """The per-seat features of the request, by seat and name."""
    names = request["feature_names"]
    values = request["features"]
    by_seat: dict[str, dict[str, float]] = {}
    for name, value in zip(names, values, strict=True):
        seat, dot, feature = name.partition(".")
        if dot:
            by_seat.setdefault(seat, {})[feature] = value
    return by_seat


def answer(request: dict) -> dict:
    rng = random.Random(f"{request['seed']}:{request['key']}")
    options = request["options"]
    seats = seat_features(request)
    if request["effect"] == "harm":
        wolves = [o for o in options if seats.get(o, {}).get("checked_wolf")]
        if wolves:
            return {"option": wolves[0], "reasoning": "my own check found a wolf"}
        safe = [
            o
            for o in options
            if not (seats.get(o, {}).get("me") or seats.get(o, {}).get("teammate"))
        ]
        options = safe or options
    options = [o for o in options if o != "explode"] or options
    choice = rng.choice(options)
    reply = {"option": choice, "reasoning": "seeded random among sensible options"}
    if request["takes_text"] == "speech" and choice == "speak":
        reply["text"] = "I have listened carefully; let us vote with care."
    return reply


def serve_lines() -> None:
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(answer(json.loads(line))), flush=True)


def serve_http(port: int) -> None:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            data = json.dumps(answer(json.loads(body))).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--http":
        serve_http(int(sys.argv[2]))
    else:
        serve_lines()
