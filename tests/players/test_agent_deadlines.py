"""Hard deadlines for agents across a process boundary (docs/agent-protocol.md, "Timeouts
and fallbacks"): a `cmd:` agent behind a shell wrapper whose child sleeps, holding the
pipe, costs its deadline and no more, and leaves no process behind; an `http:` endpoint
that trickles its answer is cut at the deadline too. The late decision's record takes the
deadline as its latency and the seat's fallback answers."""

import json
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from autowerewolf.players.base import DecisionRequest
from autowerewolf.players.external import ExternalAgent
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import Seating
from autowerewolf.table import Table
from tests.fakes.http import QuietHandler, serving
from tests.fixed import HEX_SECRET
from tests.graph.graph_helpers import cli
from tests.players.test_external_agents import external_records

SCRIPT = Path(__file__).with_name("agent_script.py")
DEADLINE_S = 1.5


def wrapped_agent(tmp_path: Path, mode: str) -> tuple[str, Path]:
    """A `cmd:` design running the test agent under a shell script that waits for it, as
    `sudo -u` or `docker run -i` do: the agent is the wrapper's child, holding its stdout."""
    log = tmp_path / f"{mode}.jsonl"
    wrapper = tmp_path / "wrapper.sh"
    wrapper.write_text(f'"{sys.executable}" "{SCRIPT}" "$1" "$2"\nexit $?\n')
    return f"cmd:sh {wrapper} {mode} {log}", log


def agent_pids(log: Path) -> list[int]:
    return [json.loads(line)["pid"] for line in log.read_text().splitlines() if '"pid"' in line]


def running(pid: int) -> bool:
    """Whether the process runs (a zombie left to the system to reap does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def still_running(pids: list[int], grace_s: float = 2.0) -> list[int]:
    """The processes still running after `grace_s`: a kill is delivered, not awaited."""
    end = time.monotonic() + grace_s
    while (alive := [pid for pid in pids if running(pid)]) and time.monotonic() < end:
        time.sleep(0.05)
    return alive


def first_night_request() -> DecisionRequest:
    table = Table("9-standard", controlled="all", seating=Seating(default="random"))
    table.reset(1)
    (seat,) = table.asked
    return DecisionRequest(view=table.view(seat), seed=1)


def assert_timed_out(record: DecisionRecord, deadline_s: float) -> None:
    assert (record.fallback, record.valid) == (True, False)
    assert record.error == f"no answer within {deadline_s:g} s"
    assert record.latency_s == deadline_s
    assert record.timeouts == 1
    assert record.option in record.options


@pytest.mark.long
def test_a_wrapped_cmd_agent_whose_child_sleeps_costs_its_deadline_and_leaves_nothing(
    tmp_path: Path,
) -> None:
    design, log = wrapped_agent(tmp_path, "sleepy")
    agent = ExternalAgent(design, DEADLINE_S)
    request = first_night_request()
    started = time.monotonic()
    try:
        records = [agent.decide(request).record for _ in range(3)]
    finally:
        agent.close()
    elapsed = time.monotonic() - started
    assert elapsed < 2 * 3 * DEADLINE_S, elapsed  # the child's 20 s sleeps are not waited for
    for record in records:
        assert_timed_out(record, DEADLINE_S)
    pids = agent_pids(log)
    assert len(pids) == 3  # each decision restarted the program, and its child ran
    assert still_running(pids) == []


@pytest.mark.long
def test_a_game_with_a_wrapped_agent_that_sleeps_ends_within_twice_its_deadlines(
    tmp_path: Path,
) -> None:
    design, log = wrapped_agent(tmp_path, "sleepy-twice")
    started = time.monotonic()
    result = cli("play", "--board", "9-standard", "--players", "random", "--seat", "P01=llm",
                 "--agent", f"P01={design}", "--model", f"default.timeout_s={DEADLINE_S}",
                 "--seed", 6, "--secret", HEX_SECRET, "--narration", "off",
                 "--db", tmp_path / "g.db")  # fmt: skip
    elapsed = time.monotonic() - started
    assert result.exit_code == 0, result.stderr
    records, _ = external_records(tmp_path / "g.db")
    assert len(records) >= 3
    assert elapsed < 2 * len(records) * DEADLINE_S, (elapsed, len(records))
    late = [r for r in records if r.fallback]
    assert len(late) == 2
    for record in late:
        assert_timed_out(record, DEADLINE_S)
    assert all(r.valid for r in records if not r.fallback)  # restarted, then answered
    assert still_running(agent_pids(log)) == []


@contextmanager
def trickling_server(seconds: float) -> Iterator[str]:
    """An endpoint that sends its answer's headers at once and then its body a byte at a
    time over `seconds`: no single read waits long, the whole answer does."""

    class Handler(QuietHandler):
        def do_POST(self) -> None:
            self.json_body()
            body = json.dumps({"option": "none"}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            for i in range(len(body)):
                try:
                    self.wfile.write(body[i : i + 1])
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    return  # the client left at its deadline
                time.sleep(seconds / len(body))

    with serving(Handler, "/agent") as url:
        yield url


def test_an_http_agent_trickling_its_answer_is_cut_at_the_deadline() -> None:
    deadline_s = 1.0
    with trickling_server(seconds=10) as url:
        agent = ExternalAgent(url, deadline_s)
        started = time.monotonic()
        record = agent.decide(first_night_request()).record
        elapsed = time.monotonic() - started
        agent.close()
    assert elapsed < 2 * deadline_s, elapsed
    assert_timed_out(record, deadline_s)


def test_an_http_agent_answering_in_time_through_the_deadline_client_is_valid() -> None:
    with trickling_server(seconds=0.2) as url:
        agent = ExternalAgent(url, 5.0)
        record = agent.decide(first_night_request()).record
        agent.close()
    assert (record.valid, record.option, record.error) == (True, "none", None)
    assert 0.2 <= record.latency_s < 5.0
