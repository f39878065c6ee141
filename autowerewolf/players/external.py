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
may add its `reasoning` (kept private with the game). The seat's model `timeout_s` is a
hard deadline for each decision: a `cmd:` program runs in a process group of its own, which
is killed at the deadline (its children with it; its pipes are closed, never read to their
end), and an `http:` POST is cut at the deadline however its time is spent. A late answer
(its record's latency is the deadline), a malformed or illegal one, or a dead program is
replaced by a seeded random legal answer, recorded as a fallback with the reason; a `cmd:`
program that timed out or died is started again for its next decision. Answers are strict
JSON, not read by the LLM reply parser: a program is held to its protocol, and a repair
would hide its bug. Probes are answered by seeded random play.
"""

import asyncio
import contextlib
import json
import logging
import os
import selectors
import shlex
import signal
import subprocess
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
# An answer line past this is refused: a program that writes without end is broken.
MAX_ANSWER_BYTES = 1_000_000
# How long a killed program may take to end before it is left to the system to reap.
KILL_WAIT_S = 1.0
# The variables an agent program inherits: enough to find and run a program.
PASSED_ENVIRONMENT = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")


class AgentFailure(Exception):
    """An agent that did not answer in time, or answered what cannot be used."""


def bare_environment() -> dict[str, str]:
    return {k: os.environ[k] for k in PASSED_ENVIRONMENT if k in os.environ}


class AgentTimeout(AgentFailure):
    """An agent that did not answer by its deadline."""

    def __init__(self, timeout_s: float) -> None:
        super().__init__(f"no answer within {timeout_s:g} s")


class _Process:
    """A running agent program, in a process group of its own so that its deadline ends
    every process it started (a shell wrapper's child, `sudo`'s or `docker run`'s client)."""

    def __init__(self, argv: list[str]) -> None:
        self.popen = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=bare_environment(),
            close_fds=True,
            start_new_session=True,
        )
        assert self.popen.stdin is not None and self.popen.stdout is not None
        self._stdin, self._stdout = self.popen.stdin.fileno(), self.popen.stdout.fileno()
        # Never blocked on a pipe: a child that holds it open must not outlast the deadline.
        os.set_blocking(self._stdin, False)
        os.set_blocking(self._stdout, False)
        self._unread = bytearray()  # what the program wrote past its last full line
        # Ended with the game's process even if nobody closes it.
        self._finalizer = weakref.finalize(self, _kill, self.popen)

    def ask(self, request: str, timeout_s: float) -> str:
        """The program's next non-blank line, written to it `request` and read by the
        deadline; AgentTimeout after it, AgentFailure if the program ends first."""
        deadline = time.monotonic() + timeout_s
        outgoing = memoryview((request + "\n").encode("utf-8"))
        with selectors.DefaultSelector() as selector:
            selector.register(self._stdout, selectors.EVENT_READ)
            selector.register(self._stdin, selectors.EVENT_WRITE)
            while True:
                if not outgoing and (line := self._next_line()) is not None:
                    return line
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AgentTimeout(timeout_s)
                for key, _ in selector.select(remaining):
                    if key.fd == self._stdin:
                        outgoing = outgoing[self._write(outgoing) :]
                        if not outgoing:
                            selector.unregister(self._stdin)
                    else:
                        self._read(deadline)

    def _write(self, data: memoryview) -> int:
        try:
            return os.write(self._stdin, data)
        except BlockingIOError:
            return 0
        except OSError:  # the pipe is broken: the program closed its input or ended
            raise AgentFailure(f"the agent program exited (code {self.popen.poll()})") from None

    def _read(self, deadline: float) -> None:
        try:
            chunk = os.read(self._stdout, 65536)
        except BlockingIOError:
            return
        if not chunk:  # end of output: the program exited, or is about to
            try:
                code: int | None = self.popen.wait(max(deadline - time.monotonic(), 0.0))
            except subprocess.TimeoutExpired:
                code = None
            raise AgentFailure(f"the agent program exited (code {code})")
        self._unread += chunk
        if len(self._unread) > MAX_ANSWER_BYTES:
            raise AgentFailure(f"an answer line longer than {MAX_ANSWER_BYTES} bytes")

    def _next_line(self) -> str | None:
        """The next non-blank full line read, if there is one."""
        while (end := self._unread.find(b"\n")) != -1:
            line = self._unread[: end + 1].decode("utf-8", errors="replace")
            del self._unread[: end + 1]
            if line.strip():
                return line
        return None

    def close(self) -> None:
        self._finalizer()


def _kill(popen: subprocess.Popen[bytes]) -> None:
    """End the program's whole process group and close the pipes without reading them:
    a process that left the group may still hold them, and nobody waits for it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(popen.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):  # one we may not signal (setuid)
        popen.wait(KILL_WAIT_S)
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
        # A worker thread's own event loop: its timeout bounds connecting, sending and
        # reading together, which httpx's per-phase timeouts do not (a server trickling
        # its answer a byte at a time would hold the game for as long as it likes).
        return asyncio.run(_post_by_deadline(self.design, body, self.timeout_s))

    def decide(self, request: DecisionRequest) -> Answer:
        if request.purpose != "decision":
            return RandomPlayer().decide(request)
        view = request.view
        self._sent += 1
        payload = request_json(view, Actions([p.seat for p in view.players]), request.seed,
                               self._sent)  # fmt: skip
        started = time.perf_counter()
        raw, reasoning, error, timed_out = "", None, None, False
        try:
            raw = self._exchange(payload)
            action, reasoning = parse_answer(raw, payload)
        except AgentFailure as err:
            error = str(err)
            timed_out = isinstance(err, AgentTimeout)
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
            timeouts=int(timed_out),
            # A late answer took its deadline: the kill and the fallback are the table's.
            latency_s=self.timeout_s if timed_out else time.perf_counter() - started,
        )
        return Answer(action=action, record=record)

    def close(self) -> None:
        if self._process is not None:
            self._process.close()
            self._process = None


async def _post_by_deadline(url: str, body: str, timeout_s: float) -> str:
    """The body of the endpoint's answer to one POST, all of it by the deadline."""
    try:
        async with asyncio.timeout(timeout_s):
            async with httpx.AsyncClient(timeout=None, trust_env=False) as client:
                response = await client.post(
                    url, content=body, headers={"Content-Type": "application/json"}
                )
    except TimeoutError:
        raise AgentTimeout(timeout_s) from None
    except httpx.HTTPError as err:
        raise AgentFailure(f"the agent's server failed: {type(err).__name__}") from None
    if response.status_code != 200:
        raise AgentFailure(f"the agent's server answered HTTP {response.status_code}")
    return response.text


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
