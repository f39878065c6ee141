"""The multi-agent verifiers environment (autowerewolf/verifiers_multiagent.py, verifiers
0.4) loads the way the library loads plugins and completes an evaluation with the library's
own `vf-eval` (its `main` and runner), every agent a seat of one game, against the
simulated model of examples/train/simulated_server.py on 127.0.0.1, which answers every
fifth question with prose (`pytest -m verifiers tests/env/test_verifiers_multiagent.py`;
needs the `verifiers-next` extra)."""

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from autowerewolf.rules.config import make_config
from autowerewolf.rules.engine import new_game
from tests.env.test_verifiers_env import simulated_model
from tests.web.leaks import leaks

pytestmark = pytest.mark.verifiers

BOARD = "8-arena"
SEATS = ("P01", "P02", "P03", "P04")  # the agents' seats; the others are heuristic players


def test_the_environment_loads_as_verifiers_loads_plugins() -> None:
    from verifiers.v1.utils.loaders import environment_class, taskset_class

    from autowerewolf.verifiers_multiagent import (
        TASKSET_ID,
        WerewolfEnv,
        WerewolfTaskset,
        load_environment,
    )

    assert environment_class(TASKSET_ID) is WerewolfEnv
    assert taskset_class(TASKSET_ID) is WerewolfTaskset
    env = load_environment(board=BOARD, games=3, seed_start=5, seats=SEATS, p02={"model": "x"})
    assert [(t.data.board, t.data.seed) for t in env.taskset] == [
        (BOARD, 5),
        (BOARD, 6),
        (BOARD, 7),
    ]
    assert env.config.seats == "P01,P02,P03,P04"
    # One agent per seat of the largest board (12), each a chat loop in a subprocess.
    names = list(env._agent_specs)
    assert names == [f"p{i:02d}" for i in range(1, 13)]
    assert {env._harnesses[n].config.id for n in names} == {"null"}
    assert env._agent_specs["p02"].model == "x" and env._agent_specs["p01"].model is None


def eval_run(tmp_path: Path, options: list[str]) -> list[dict[str, Any]]:
    """The episodes of `vf-eval` on the environment with `options`, against the simulated
    model answering every fifth question with prose."""
    bin_dir = Path(sys.executable).parent
    # `uv` (the extra's) installs the chat loop's dependencies from the package index: its
    # TLS, proxy and index settings pass through; `sh` runs its commands.
    index = {k: v for k, v in os.environ.items()
             if k.startswith(("SSL_", "UV_")) or k.lower().endswith("_proxy")}  # fmt: skip
    env = {**index, "PATH": f"{bin_dir}:/usr/bin:/bin", "FAKE_KEY": "unused", "HOME": str(tmp_path)}
    with simulated_model() as url:
        done = subprocess.run(
            [sys.executable, "-m", "autowerewolf.verifiers_multiagent", *options,
             "-m", "fake", "--client.base-url", url, "--client.api-key-var", "FAKE_KEY",
             "-r", "1", "-o", str(tmp_path / "out"), "--rich", "None"],
            env=env, cwd=tmp_path, capture_output=True, text=True, timeout=900,
        )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (traces,) = (tmp_path / "out").glob("*/traces.jsonl")
    return [json.loads(line) for line in traces.read_text().splitlines()]


def seat_texts(trace: dict[str, Any]) -> list[str]:
    """Everything the seat's model was sent: its system prompt and user messages."""
    return [
        n["message"]["content"]
        for n in trace["nodes"]
        if n["message"]["role"] in ("system", "user")
    ]


def test_vf_eval_plays_every_seat_as_an_agent_with_its_own_reward(tmp_path: Path) -> None:
    options = ["--env.taskset.board", BOARD, "--env.taskset.games", "2", "-n", "2",
               "--env.seats", ",".join(SEATS), "--env.trainable", "camp:wolf"]  # fmt: skip
    episodes = eval_run(tmp_path, options)
    assert len(episodes) == 2
    trainable_flags = set()
    for episode in episodes:
        assert episode["ok"], episode["errors"]
        seed = episode["task"]["data"]["seed"]
        truth, _ = new_game(make_config(BOARD, seed=seed))
        by_seat = {t["info"]["werewolf"]["seat"]: t for t in episode["traces"]}
        assert set(by_seat) <= set(SEATS) and len(by_seat) >= 2  # heuristic seats have none
        camps: dict[str, float] = {}
        for seat, trace in by_seat.items():
            me = truth.seat(seat)
            record = trace["info"]["werewolf"]
            assert trace["agent"]["name"] == seat.lower()
            assert trace["stop_condition"] == "user_closed" and trace["ok"]
            assert trace["task"]["data"]["seat"] == seat
            assert (record["role"], record["camp"]) == (me.role.value, me.camp.value)
            # camp:wolf resolved against this deal: the wolves' traces are training data.
            assert trace["agent"]["trainable"] is me.is_wolf
            trainable_flags.add(me.is_wolf)
            rewards = trace["rewards"]
            won = rewards["camp_won"]["score"]
            assert won == (1.0 if record["won"] else 0.0)
            assert rewards["invalid_share"] == {
                "score": pytest.approx(record["invalid"] / record["answers"]),
                "weight": -0.5,
            }
            camps.setdefault(me.camp.value, won)
            assert camps[me.camp.value] == won  # one result per camp
            assert "The game is over" in record["outcome"]
            texts = seat_texts(trace)
            assert f"Your role: {me.role.value}." in texts[0] + texts[1]
            assert record["answers"] == len(texts) - 1  # a question per answer
            assert leaks(texts, truth, seat) == [], seat
            other = next(s for s in truth.seats if s.id != seat)
            planted = f"{other.id}'s role is {other.role.value}"
            assert leaks([*texts, planted], truth, seat) != []  # the scan sees a planted leak
        winner = next(iter(by_seat.values()))["info"]["werewolf"]["winner"]
        if len(camps) == 2 and winner is not None:
            assert sorted(camps.values()) == [0.0, 1.0]
    assert trainable_flags == {True, False}
    seat_records = [t["info"]["werewolf"] for e in episodes for t in e["traces"]]
    assert any(r["invalid"] > 0 for r in seat_records)  # every fifth answer was prose


class Interaction:
    """Stands in for verifiers' `Interaction`: records each turn's message; the run ends
    (a terminated segment, as a turn limit or a model error gives) at turn `ends_at`."""

    def __init__(self, ends_at: int) -> None:
        self.sent: list[str] = []
        self.ends_at = ends_at

    async def turn(self, message: str) -> Any:
        from verifiers.v1 import AssistantMessage, Segment

        self.sent.append(message)
        if len(self.sent) >= self.ends_at:
            return Segment(messages=[], terminated=True)
        return Segment(messages=[AssistantMessage(content='{"choice": "abstain"}')])


def test_a_seat_whose_run_ended_is_asked_no_more_and_its_notes_lead_its_next_message() -> None:
    import asyncio

    from autowerewolf.verifiers_multiagent import SeatRun

    interaction = Interaction(ends_at=2)
    run = SeatRun(interaction)
    note = "That answer was invalid (x); abstain was played for you."

    async def ask_three() -> list[str]:
        first = await run.ask("Q1")
        run.notes = [note]
        return [first, await run.ask("Q2"), await run.ask("Q3")]

    replies = asyncio.run(ask_three())
    assert replies == ['{"choice": "abstain"}', "", ""]
    assert interaction.sent == ["Q1", f"{note}\n\nQ2"]
    assert run.over and run.notes == []
