"""Agents across a process boundary (docs/agent-protocol.md): `cmd:` and `http:` agents
play complete games in `play` and `batch`, each receives its own seat's requests only
(valid against the protocol's schema, leaking nothing), and an agent that times out or
answers garbage costs counted fallbacks, never the game."""

import json
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from autowerewolf.errors import SettingsError
from autowerewolf.players.observation import request_json
from autowerewolf.players.records import DecisionRecord
from autowerewolf.prompts.probes import PROBES
from autowerewolf.rules.config import BOARDS
from autowerewolf.rules.steps import STEPS, effect_of, steps_where
from autowerewolf.runner import Games
from autowerewolf.table import Table
from examples.agents.external_agent import answer
from tests.fakes.http import QuietHandler, serving
from tests.fixed import HEX_SECRET
from tests.graph.graph_helpers import assert_user_error, cli, load_records
from tests.web.leaks import leaks

REPO = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("agent_script.py")
SCHEMAS = REPO / "docs" / "agent-protocol"


def schema(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(
        json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    )


def cmd(mode: str, log: Path) -> str:
    return f"cmd:{sys.executable} {SCRIPT} {mode} {log}"


def external_records(db: Path) -> tuple[list[DecisionRecord], Any]:
    (record,) = load_records(db).values()
    assert record.status == "finished"
    return [r for r in record.records if r.player == "external"], record.game


def test_cmd_agents_play_a_game_and_see_only_their_own_requests(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AW_TEST_OWNER_KEY", "sk-must-not-reach-agents")
    logs = {seat: tmp_path / f"{seat}.jsonl" for seat in ("P01", "P02", "P03")}
    agents = [a for seat, log in logs.items() for a in ("--agent", f"{seat}={cmd('normal', log)}")]
    seats = [a for seat in logs for a in ("--seat", f"{seat}=llm")]
    result = cli("play", "--board", "9-standard", "--players", "random", *seats, *agents,
                 "--seed", 5, "--narration", "off", "--db", tmp_path / "g.db")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    records, game = external_records(tmp_path / "g.db")
    assert {r.seat for r in records} == set(logs) and all(r.valid for r in records)
    assert all(r.agent and r.agent.startswith("cmd:") for r in records)
    requests = schema("request")
    for seat, log in logs.items():
        lines = [json.loads(line) for line in log.read_text().splitlines()]
        environment = lines[0]["environment"]
        passed = {"PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT", "LC_CTYPE", "PWD"}
        assert "AW_TEST_OWNER_KEY" not in environment and set(environment) <= passed
        asked = lines[1:]
        assert asked and all(r["seat"] == seat for r in asked)
        for request in asked:
            requests.validate(request)
        assert len(asked) == sum(r.seat == seat for r in records)
        seeds = {r.pop("seed") for r in asked}  # the seat's own seed: derived one-way
        assert seeds.isdisjoint({game.config.seed, game.config.root})
        assert leaks(asked, game, seat) == []


def test_a_slow_agent_and_a_garbage_agent_cost_counted_fallbacks(tmp_path: Path) -> None:
    slow, garbage = tmp_path / "slow.jsonl", tmp_path / "garbage.jsonl"
    # A fixed secret: both seats must be asked often enough for the slow agent to answer
    # after its timeout and for the garbage agent to name an illegal option.
    result = cli("play", "--board", "9-standard", "--players", "random", "--seat", "P01=llm",
                 "--seat", "P02=llm", "--agent", f"P01={cmd('slow', slow)}",
                 "--agent", f"P02={cmd('garbage', garbage)}", "--model", "default.timeout_s=1",
                 "--seed", 6, "--secret", HEX_SECRET, "--narration", "off",
                 "--db", tmp_path / "g.db")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    records, _ = external_records(tmp_path / "g.db")
    late = [r for r in records if r.seat == "P01" and r.fallback]
    assert [r.error for r in late] == ["no answer within 1 s"]
    assert any(r.seat == "P01" and r.valid for r in records)  # restarted, then answered
    bad = [r for r in records if r.seat == "P02" and r.fallback]
    errors = {r.error for r in bad}
    assert "the answer is not JSON" in errors
    assert any(e and "'P99' is not legal" in e for e in errors)
    assert all(r.raw for r in bad)


@contextmanager
def agent_server(mode: str = "normal") -> Iterator[tuple[str, list[dict[str, Any]]]]:
    seen: list[dict[str, Any]] = []

    class Handler(QuietHandler):
        def do_POST(self) -> None:
            request = self.json_body()
            seen.append(request)
            if mode == "slow" and len(seen) == 1:
                time.sleep(2.5)
            body = (
                b"<html>oops</html>" if mode == "garbage" else json.dumps(answer(request)).encode()
            )
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    with serving(Handler, "/agent") as url:
        yield url, seen


def test_http_agents_play_a_batch(tmp_path: Path) -> None:
    with agent_server() as (url, seen):
        result = cli("batch", "--games", 2, "--board", "8-arena", "--players", "random",
                     "--seat", "P02=llm", "--seat", "P05=llm", "--agent", url,
                     "--db", tmp_path / "b.db", "--concurrency", 2)  # fmt: skip
        assert result.exit_code == 0, result.stderr
    assert "good: " in result.stdout or "wolf: " in result.stdout
    assert seen and {r["seat"] for r in seen} == {"P02", "P05"}
    played = load_records(tmp_path / "b.db").values()
    records = [r for game in played for r in game.records if r.player == "external"]
    assert len(records) == len(seen) and all(r.valid and r.agent == url for r in records)


def test_a_slow_and_a_garbage_http_agent_cost_counted_fallbacks(tmp_path: Path) -> None:
    # A fixed secret: a fresh deal may, rarely, leave P01 or P02 unasked.
    with agent_server("slow") as (slow, _), agent_server("garbage") as (garbage, _):
        result = cli("play", "--board", "8-arena", "--players", "random", "--seat", "P01=llm",
                     "--seat", "P02=llm", "--agent", f"P01={slow}", "--agent", f"P02={garbage}",
                     "--model", "default.timeout_s=1", "--seed", 4, "--secret", HEX_SECRET,
                     "--narration", "off", "--db", tmp_path / "g.db")  # fmt: skip
        assert result.exit_code == 0, result.stderr
    records, _ = external_records(tmp_path / "g.db")
    assert [r.error for r in records if r.seat == "P01" and r.fallback] == ["no answer within 1 s"]
    assert {r.error for r in records if r.seat == "P02"} == {"the answer is not JSON"}


def test_the_example_agents_answers_validate(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    result = cli("play", "--board", "8-arena", "--players", "random", "--seat", "P03=llm",
                 "--agent", f"P03={cmd('normal', log)}", "--seed", 2, "--narration", "off",
                 "--db", tmp_path / "g.db")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    answers = schema("answer")
    for line in log.read_text().splitlines()[1:]:
        answers.validate(answer(json.loads(line)))


def played_requests(
    board: str, seed: int, steps: frozenset[str] | None = None
) -> Iterator[tuple[Table, dict[str, Any]]]:
    """Every request of one game of `board` whose seats the example agent plays at `steps`
    (None: every step; the others are random seats), answered by it."""
    table = Table(board, controlled="all", steps=sorted(steps) if steps is not None else None)
    table.reset(seed)
    while not table.over:
        for n, seat in enumerate(table.asked, 1):
            request = request_json(table.view(seat), table.actions, table.seed_of(seat), n)
            yield table, request
            table.answer(seat, answer(request))
        table.advance()


def test_a_requests_effect_is_its_steps_entry_on_every_board() -> None:
    asked = set()
    for board in BOARDS:
        for _, request in played_requests(board, 1):
            assert request["effect"] == STEPS[request["step"]].effect, request["key"]
            asked.add(request["step"])
    assert {"wolves", "seer", "guard", "exile_vote", "badge", "discussion"} <= asked
    assert all(effect_of(probe) is None for probe in PROBES)  # steps outside the table


def test_the_example_agent_never_harms_itself_or_a_packmate() -> None:
    harm = steps_where(lambda entry: entry.effect == "harm")
    asked = set()
    for board in BOARDS:
        for seed in range(3):
            for table, request in played_requests(board, seed, harm):
                assert request["effect"] == "harm"
                asked.add(request["step"])
                chosen = answer(request)["option"]
                if chosen in table.seats:
                    me, target = table.game.seat(request["seat"]), table.game.seat(chosen)
                    assert chosen != me.id and not (me.is_wolf and target.is_wolf), request["key"]
    assert asked == harm  # each harm step of the table, the Knight's duel and the take too


def test_bad_agent_flags_are_one_line_errors(tmp_path: Path) -> None:
    for flag, problem in (("P01=cmd:", "cmd: needs a program"),
                          ("P01=ftp://x", "unknown agent design")):  # fmt: skip
        played = cli("play", "--players", "random", "--seat", "P01=llm", "--agent", flag,
                     "--db", tmp_path / "g.db")  # fmt: skip
        assert_user_error(played, problem)


@pytest.mark.long
def test_an_http_agent_is_a_tournament_contestant(tmp_path: Path) -> None:
    from autowerewolf.evaluation.tournament.config import TournamentConfig
    from autowerewolf.evaluation.tournament.play import run_tournament

    with agent_server() as (url, seen):
        config = TournamentConfig.model_validate({
            "name": "agents", "board": "8-arena", "games": 2, "seed": 3, "concurrency": 2,
            "contestants": [{"name": "external", "kind": "llm", "agent": url},
                            {"name": "random", "kind": "random"}],
        })  # fmt: skip
        outcomes = run_tournament(config, tmp_path / "t.db")
    assert sum(v for k, v in outcomes.items() if k != "already finished") == 2
    games = Games(tmp_path / "t.db")
    try:
        records = [r for i in games.ids() for r in games.load(i).records if r.player == "external"]
    finally:
        games.close()
    assert seen and len(records) == len(seen) and all(r.valid for r in records)


def test_the_lobby_form_seats_external_agents_without_a_model() -> None:
    from autowerewolf.players.factory import PlayerBuilder
    from autowerewolf.web import lobby

    agents = {"default": "http://127.0.0.1:9/agent", "seats": {"P02": "cmd:agent"}}
    form = {"board": "8-arena", "seed": 3, "default": "llm", "agents": agents}
    setup, seating = lobby.parse_form(form)
    assert seating.agents.resolve("P02", "seer") == "cmd:agent"
    # Every LLM seat is an external agent: the embedded model (the `local` extra) is not needed.
    assert lobby.check_game(setup, seating, PlayerBuilder()) == []
    with pytest.raises(SettingsError, match="unknown agent design") as err:
        lobby.parse_form({**form, "agents": {"seats": {"P02": "ftp://x"}}})
    assert "\n" not in str(err.value)


def test_cmd_agents_play_a_batch(tmp_path: Path) -> None:
    log = tmp_path / "agent.jsonl"
    result = cli("batch", "--games", 2, "--board", "8-arena", "--players", "random",
                 "--seat", "P04=llm", "--agent", f"P04={cmd('normal', log)}",
                 "--db", tmp_path / "b.db", "--concurrency", 2)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    games = Games(tmp_path / "b.db")
    try:
        loaded = [games.load(i) for i in games.ids()]
    finally:
        games.close()
    assert len(loaded) == 2 and all(r.status == "finished" for r in loaded)
    records = [r for g in loaded for r in g.records if r.player == "external"]
    asked = [line for line in log.read_text().splitlines() if '"protocol"' in line]
    assert records and len(records) == len(asked) and all(r.valid for r in records)
    assert {json.loads(line)["seat"] for line in asked} == {"P04"}
