"""The OpenEnv server (docs/training.md, "OpenEnv server") under OpenEnv's own client: the
real server (uvicorn on 127.0.0.1) plays whole games of one seat over the WebSocket session,
keeps sessions apart, answers bad actions with an error message, and shows a seat nothing
of the game it may not know (`pytest -m openenv`; needs the `openenv` extra). The last test
runs without the extra: the command then says in one line which extra to install."""

import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.leaks import leaks

REPO = Path(__file__).resolve().parents[2]
OBSERVATION_FIELDS = {
    "seat", "agent", "day", "step", "text", "options", "action_mask", "features", "winner",
    "win_reason",
}  # fmt: skip
STATE_FIELDS = {"episode_id", "step_count", "board", "seat", "day", "step", "done", "total_reward"}

openenv = pytest.mark.openenv


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    from autowerewolf.env.openenv_server import create_app, served

    with served(create_app("12-A", "P01", "heuristic")) as base:
        yield base


def client(base: str) -> Any:
    from openenv.core.generic_client import GenericEnvClient

    return GenericEnvClient(base_url=base).sync()


def choose(rng: random.Random, observation: dict[str, Any]) -> dict[str, Any]:
    option = rng.choice(observation["options"])
    return {"option": option, "text": "I trust P02." if option == "speak" else ""}


def play(session: Any, seed: int, **reset: Any) -> tuple[list[Any], list[dict[str, Any]]]:
    """One game: (every result, the actions sent), with a seeded random legal policy."""
    rng = random.Random(seed)
    results = [session.reset(seed=seed, **reset)]
    actions = []
    while not results[-1].done:
        actions.append(choose(rng, results[-1].observation))
        results.append(session.step(actions[-1]))
    return results, actions


@openenv
def test_a_seat_plays_a_whole_game_through_openenvs_client(url: str) -> None:
    with client(url) as session:
        results, actions = play(session, 5, episode_id="game-5")
        first, last = results[0], results[-1]
        assert set(first.observation) == OBSERVATION_FIELDS
        assert first.observation["seat"] == "P01" and first.observation["step"] is not None
        assert first.observation["options"] and "seat P01" in first.observation["text"]
        assert sum(first.observation["action_mask"]) == len(first.observation["options"])
        assert last.done and last.reward in (-1.0, 1.0)
        assert last.observation["winner"] in ("good", "wolf") and last.observation["options"] == []
        state = session.state()
        assert set(state) == STATE_FIELDS
        assert state["episode_id"] == "game-5" and state["step_count"] == len(actions)
        assert state["done"] and state["step"] is None and state["total_reward"] == last.reward


@openenv
def test_the_typed_client_carries_the_servers_models(url: str) -> None:
    from autowerewolf.env.openenv_server import (
        WerewolfAction,
        WerewolfClient,
        WerewolfObservation,
        WerewolfState,
    )

    with WerewolfClient(base_url=url).sync() as session:
        result = session.reset(seed=9, seat="role:witch")
        steps = 0
        while not result.done:
            assert isinstance(result.observation, WerewolfObservation)
            index = result.observation.action_mask.index(1)
            result = session.step(WerewolfAction(option=index))
            steps += 1
        state = session.state()
        assert isinstance(state, WerewolfState) and state.done and state.step_count == steps
        assert result.reward == state.total_reward and result.observation.winner is not None


@openenv
def test_two_sessions_play_their_own_games(url: str) -> None:
    with client(url) as a, client(url) as b:
        first_a = a.reset(seed=7)
        first_b = b.reset(seed=7)
        assert first_a.observation == first_b.observation
        rng = random.Random(0)
        steps_a = []
        for _ in range(3):
            action = choose(rng, (steps_a[-1][1] if steps_a else first_a).observation)
            steps_a.append((action, a.step(action)))
            if steps_a[-1][1].done:
                break
        assert b.state()["step_count"] == 0 and a.state()["step_count"] == len(steps_a)
        for action, result in steps_a:  # the same answers in b: the same game
            assert b.step(action).observation == result.observation
        other = b.reset(seed=8, seat="P02", board="9-standard")
        assert other.observation["seat"] == "P02" and a.state()["board"] == "12-A"


@openenv
def test_bad_actions_and_options_are_error_messages_and_the_session_goes_on(url: str) -> None:
    with client(url) as session:
        with pytest.raises(RuntimeError, match="no game: reset first"):
            session.step({"option": "pass"})
        result = session.reset(seed=3)
        legal = result.observation["options"]
        bad = [
            ({"option": "nonsense"}, "'nonsense' is not legal"),
            ({"option": 10_000}, "10000 is not legal"),
            ({"option": result.observation["action_mask"].index(0)}, "is not legal"),
            ({"option": ["run"]}, "VALIDATION_ERROR|validation"),
            ({"option": "run", "colour": "red"}, "VALIDATION_ERROR|xtra"),
        ]
        for action, message in bad:
            with pytest.raises(RuntimeError, match=message):
                session.step(action)
        assert session.state()["step_count"] == 0
        session.step({"option": legal[0]})
        assert session.state()["step_count"] == 1
        for options, message in [
            ({"seat": "P99"}, "P99"),
            ({"board": "no-such-board"}, "no-such-board"),
            ({"seat": "role:werewolf"}, "names 4 seats, not one"),
            ({"opponents": "llm"}, "opponents must be one of"),
            ({"colour": "red"}, "unknown reset option 'colour'"),
        ]:
            with pytest.raises(RuntimeError, match=message):
                session.reset(seed=1, **options)
        results, _ = play(session, 4)
        assert results[-1].done


@openenv
def test_no_observation_or_state_shows_what_the_seat_may_not_know(url: str) -> None:
    """The attack: games of every seat of 12-A and of the night roles by role slot; every
    field of every observation and state is scanned against the deal, and a local replay of
    the same game shows the server sends exactly the seat's observation and nothing more."""
    from autowerewolf.env.openenv_server import WerewolfAction, WerewolfEnvironment

    games = [(1, f"P{i:02d}") for i in range(1, 13)]
    games += [(2, s) for s in ("role:seer", "role:witch", "role:guard", "role:hunter")]
    scanned = 0
    with client(url) as session:
        for seed, seat in games:
            results, actions = play(session, seed, seat=seat)
            state = session.state()
            local = WerewolfEnvironment("12-A", "P01", "heuristic")
            replay = [local.reset(seed=seed, seat=seat)]
            replay += [local.step(WerewolfAction(**a)) for a in actions]
            for remote, mine in zip(results, replay, strict=True):
                assert remote.observation == mine.model_dump(exclude={"reward", "done", "metadata"})
                assert (remote.reward, remote.done) == (mine.reward, mine.done)
            truth = local._aec.table.game  # type: ignore[union-attr]
            me = results[0].observation["seat"]
            payloads = [r.observation for r in results] + [state]
            payloads += [json.dumps(p) for p in payloads]
            assert leaks(payloads, truth, me) == [], (seed, seat)
            for other in truth.seats:
                if other.id != me:
                    assert f"{other.id} is a {other.role.value}" not in json.dumps(payloads)
            assert set(state) == STATE_FIELDS
            hidden = next(s for s in truth.seats if s.id != me)
            planted = {**state, "note": f"{hidden.id}'s role is {hidden.role.value}"}
            assert leaks([planted], truth, me) != []  # the scan sees a planted leak
            scanned += len(results)
    assert scanned > 100


@openenv
def test_the_rollout_example_plays_one_seat_through_the_server() -> None:
    done = subprocess.run(
        [sys.executable, "examples/train/openenv_rollout.py", "--episodes", "2", "--seed", "3"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith("episode 0: ") and lines[1].startswith("episode 1: ")
    assert lines[-1].endswith("triples from 2 episodes")
    assert done.stderr == ""


@openenv
def test_the_rollout_function_returns_prompt_completion_reward_triples(url: str) -> None:
    from examples.train.openenv_rollout import random_policy, rollout

    games = rollout(url, random_policy(1), 2, seed=11, seat="role:seer")
    assert len(games) == 2 and all(games)
    for triples in games:
        rewards = {reward for _, _, reward in triples}
        assert len(rewards) == 1 and rewards <= {-1.0, 1.0}
        for prompt, completion, _ in triples:
            assert "(You are " in prompt and json.loads(completion)["option"]


def cli_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a CLI subprocess: its command log in `tmp_path`."""
    return {**os.environ, "AUTOWEREWOLF_LOG_DIR": str(tmp_path)}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@openenv
def test_the_env_serve_command_serves_openenvs_client(tmp_path: Path) -> None:
    port = free_port()
    command = [sys.executable, "-m", "autowerewolf", "env", "serve", "--port", str(port),
               "--board", "9-standard", "--seat", "role:seer"]  # fmt: skip
    server = subprocess.Popen(
        command, cwd=REPO, env=cli_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2).close()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "did not start"
                time.sleep(0.2)
        with client(f"http://127.0.0.1:{port}") as session:
            first = session.reset(seed=2)
            assert first.observation["step"] == "seer"
            assert session.step({"option": first.observation["options"][0]}).reward is not None
    finally:
        server.terminate()
        server.wait(timeout=20)


@openenv
def test_env_serve_refuses_a_host_other_machines_can_reach(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "autowerewolf", "env", "serve", "--host", "0.0.0.0"],
        cwd=REPO,
        env=cli_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip().startswith("error: --host 0.0.0.0 is not a loopback address")


def test_env_serve_without_the_extra_is_one_line_naming_it(tmp_path: Path) -> None:
    """Without the `openenv` extra (its modules hidden) the command prints one `error:` line."""
    blocked = ("openenv", "fastapi", "uvicorn")
    code = (
        "import importlib.util, sys\n"
        f"blocked = {blocked!r}\n"
        "real = importlib.util.find_spec\n"
        "def find_spec(name, package=None):\n"
        "    return None if name.split('.')[0] in blocked else real(name, package)\n"
        "importlib.util.find_spec = find_spec\n"
        "class Missing:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in blocked:\n"
        "            raise ModuleNotFoundError(name)\n"
        "sys.meta_path.insert(0, Missing())\n"
        "from autowerewolf.cli import app\n"
        "app(['env', 'serve', '--port', '1'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=cli_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "error: this needs the 'openenv' extra (module 'openenv' is missing): "
        "pip install 'autowerewolf[openenv]'"
    ]
