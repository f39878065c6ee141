"""Agents across a process boundary (docs/agent-protocol.md): a seat played by another
program, which receives its own requests and nothing else.

- `cmd:PROGRAM ARGS`: the program is started once per seat and game; it reads one JSON
  request per line on its standard input and writes one JSON answer per line on its
  standard output. It starts with a bare environment (PATH, HOME, LANG, TMPDIR: no API
  key or other variable of the game's process) and no other open file of the game.
- `http://HOST:PORT/PATH`: one POST of the JSON request per decision; the response's
  body is the JSON answer.

A request is the training environment's observation of the seat (players/observation.py):
the view as text and messages, the legal options, the action list and mask, the features,
the seat's own seed (never the game's) and the text bounds. An answer names an action
(`{"action": index}` or `{"option": "P03"}`) with a `text` where the step takes one, and
may add its `reasoning` (kept private with the game). A late answer (the seat's model
`timeout_s`), a malformed or illegal one, or a dead program is replaced by a seeded random
legal answer, recorded as a fallback with the reason; a `cmd:` program that timed out or
died is started again for its next decision. Probes are answered by seeded random play.
"""

import contextlib
import json
import logging
import os
import queue
import shlex
import subprocess
import threading
import time
import weakref
from typing import Any

import httpx

from autowerewolf.players.agents.choice import CMD_PREFIX
from autowerewolf.players.base import Answer, DecisionRequest, plain_record
from autowerewolf.players.observation import Actions, request_json
from autowerewolf.players.simple import RandomPlayer, random_answer
from autowerewolf.rules.decisions import MAX_TEXT_CHARS, Action
from autowerewolf.rules.steps import takes_text

log = logging.getLogger(__name__)
# What is kept of an agent's answer in its record, for audits (private with the game).
RAW_KEEP_CHARS = 2000
# The variables an agent program inherits: enough to find and run a program.
PASSED_ENVIRONMENT = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")


class AgentFailure(Exception):
    """An agent that did not answer in time, or answered what cannot be used."""


def bare_environment() -> dict[str, str]:
    return {k: os.environ[k] for k in PASSED_ENVIRONMENT if k in os.environ}


class _Process:
    """A running agent program and the lines it writes."""

    def __init__(self, argv: list[str]) -> None:
        self.popen = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
            env=bare_environment(),
            close_fds=True,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        # Ended with the game's process even if nobody closes it.
        self._finalizer = weakref.finalize(self, _kill, self.popen)

    def _read(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            self.lines.put(line)
        self.lines.put(None)  # end of output: the program exited

    def ask(self, request: str, timeout_s: float) -> str:
        assert self.popen.stdin is not None
        try:
            self.popen.stdin.write(request + "\n")
            self.popen.stdin.flush()
        except OSError:
            raise AgentFailure(f"the agent program exited (code {self.popen.poll()})") from None
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                line = self.lines.get(timeout=max(deadline - time.monotonic(), 0.0))
            except queue.Empty:
                raise AgentFailure(f"no answer within {timeout_s:g} s") from None
            if line is None:
                code = self.popen.wait()
                raise AgentFailure(f"the agent program exited (code {code})")
            if line.strip():
                return line

    def close(self) -> None:
        self._finalizer()


def _kill(popen: subprocess.Popen[str]) -> None:
    if popen.poll() is None:
        popen.kill()
    popen.wait()
    for stream in (popen.stdin, popen.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


class ExternalAgent:
    """A seat played by a program over a pipe (`cmd:`) or by an HTTP endpoint."""

    kind = "external"

    def __init__(self, design: str, timeout_s: float) -> None:
        self.design = design
        self.timeout_s = timeout_s
        self._process: _Process | None = None
        self._http: httpx.Client | None = None
        self._sent = 0

    def _exchange(self, request: dict[str, Any]) -> str:
        body = json.dumps(request, ensure_ascii=False)
        if self.design.startswith(CMD_PREFIX):
            if self._process is None:
                argv = shlex.split(self.design.removeprefix(CMD_PREFIX))
                try:
                    self._process = _Process(argv)
                except OSError as err:
                    raise AgentFailure(f"the agent program cannot start: {err}") from None
            try:
                return self._process.ask(body, self.timeout_s)
            except AgentFailure:
                self._process.close()  # a late answer must not answer the next request
                self._process = None
                raise
        if self._http is None:
            self._http = httpx.Client(timeout=self.timeout_s, trust_env=False)
        try:
            response = self._http.post(
                self.design, content=body, headers={"Content-Type": "application/json"}
            )
        except httpx.TimeoutException:
            raise AgentFailure(f"no answer within {self.timeout_s:g} s") from None
        except httpx.HTTPError as err:
            raise AgentFailure(f"the agent's server failed: {type(err).__name__}") from None
        if response.status_code != 200:
            raise AgentFailure(f"the agent's server answered HTTP {response.status_code}")
        return response.text

    def decide(self, request: DecisionRequest) -> Answer:
        if request.purpose != "decision":
            return RandomPlayer().decide(request)
        view = request.view
        self._sent += 1
        payload = request_json(view, Actions([p.seat for p in view.players]), request.seed,
                               self._sent)  # fmt: skip
        started = time.perf_counter()
        raw, reasoning, error = "", None, None
        try:
            raw = self._exchange(payload)
            action, reasoning = parse_answer(raw, payload)
        except AgentFailure as err:
            error = str(err)
            action = random_answer(request)
            log.warning("%s %s: %s; fallback to %s", view.seat, request.key, error, action.option)
        record = plain_record(
            request,
            self.kind,
            action,
            agent=self.design,
            reasoning=reasoning,
            raw=raw[:RAW_KEEP_CHARS] or None,
            valid=error is None,
            fallback=error is not None,
            error=error,
            latency_s=time.perf_counter() - started,
        )
        return Answer(action=action, record=record)

    def close(self) -> None:
        if self._process is not None:
            self._process.close()
            self._process = None
        if self._http is not None:
            self._http.close()
            self._http = None


def parse_answer(raw: str, request: dict[str, Any]) -> tuple[Action, str | None]:
    """The action an answer names, and its reasoning; AgentFailure saying what is wrong."""
    try:
        answer = json.loads(raw)
    except ValueError:
        raise AgentFailure("the answer is not JSON") from None
    if not isinstance(answer, dict):
        raise AgentFailure("the answer is not a JSON object")
    options: list[str] = request["options"]
    names: list[str] = request["actions"]
    if "action" in answer:
        index = answer["action"]
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(names):
            raise AgentFailure(f"action {index!r} is not an index of the action list")
        option: object = names[index]
    else:
        option = answer.get("option")
    if not isinstance(option, str) or option not in options:
        raise AgentFailure(f"{option!r} is not legal (legal: {', '.join(options)})")
    text = answer.get("text", "")
    reasoning = answer.get("reasoning")
    if not isinstance(text, str) or not (reasoning is None or isinstance(reasoning, str)):
        raise AgentFailure("text and reasoning must be strings")
    step = request["step"]
    if takes_text(step) is None:
        text = ""
    elif not text.strip() and option == "speak":
        text = f"{request['seat']} has nothing to add."
    return Action(option=option, text=text[:MAX_TEXT_CHARS]), reasoning
