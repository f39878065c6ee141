"""The verifiers environment (docs/training.md, "verifiers") loads the way the library
loads environments and completes an evaluation with the library's own entry point,
`vf-eval`, against the simulated model of examples/train/simulated_server.py on
127.0.0.1, which answers legally except every fifth answer, which is prose
(`pytest -m verifiers`; needs the `verifiers` extra)."""

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from examples.train.simulated_server import listed_choices, make_server

pytestmark = pytest.mark.verifiers


@contextmanager
def simulated_model() -> Iterator[str]:
    """The example's simulated model, answering every fifth question with prose."""
    server = make_server(0, invalid_every=5)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def test_the_environment_loads_as_verifiers_loads_environments() -> None:
    import verifiers as vf

    env = vf.load_environment("autowerewolf.verifiers_env", board="8-arena", games=3, camp="wolf")
    rows = env.get_dataset()
    infos = [json.loads(row["info"]) for row in rows]
    assert [i["seed"] for i in infos] == [0, 1, 2]
    assert all(i["board"] == "8-arena" for i in infos)


def test_vf_eval_completes_an_evaluation_against_a_local_model(tmp_path: Path) -> None:
    vf_eval = Path(sys.executable).with_name("vf-eval")
    args = {"board": "9-standard", "games": 3, "opponents": "random", "role": "seer"}
    with simulated_model() as url:
        done = subprocess.run(
            [
                str(vf_eval),
                "autowerewolf.verifiers_env",
                "-a",
                json.dumps(args),
                "-m",
                "fake",
                "-b",
                url,
                "-k",
                "FAKE_KEY",
                "-n",
                "3",
                "-r",
                "1",
                "-d",
                "-s",
                "-o",
                str(tmp_path),
            ],
            env={"PATH": str(vf_eval.parent), "FAKE_KEY": "unused", "HOME": str(tmp_path)},
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,
        )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (results,) = tmp_path.glob("evals/*/*/results.jsonl")
    rollouts = [json.loads(line) for line in results.read_text().splitlines()]
    assert len(rollouts) == 3
    for rollout in rollouts:
        assert rollout["stop_condition"] == "has_final_env_response", rollout.get("error")
        assert "Your role: seer." in rollout["prompt"][0]["content"]  # the role asked for
        assert rollout["camp_won"] in (0.0, 1.0)
        expected = rollout["camp_won"] - 0.5 * rollout["invalid_share"]
        assert rollout["reward"] == pytest.approx(expected)
        last = rollout["completion"][-1]["content"]
        assert "The game is over" in last
    assert any(r["invalid_share"] > 0 for r in rollouts)


def test_the_simulated_model_reads_the_listed_choices() -> None:
    prompt = (
        "Vote.\nChoices: P01 (Kai, sheriff, claims seer), P03 (Lee), abstain. Also legal but x."
    )
    assert listed_choices(prompt) == ["P01", "P03", "abstain"]


def test_answers_a_reasoning_model_writes_are_played_and_their_repairs_counted() -> None:
    """A think block before the JSON and a seat chosen by its player's name in lower case
    (an option word in upper case) are played as answers, not scored invalid, and every
    repair is counted in the rollout's result and its `repaired_share` metric."""
    import asyncio

    from verifiers.types import AssistantMessage, State

    from autowerewolf.verifiers_env import load_environment, repaired_share

    env = load_environment(board="9-standard", games=1, opponents="random", seat="P01")
    state = State(info=json.loads(env.dataset[0]["info"]))
    by_name = 0

    async def play() -> None:
        nonlocal by_name
        await env.setup_state(state)
        while "werewolf" in state:
            table = state["werewolf"]["table"]
            names = {p.seat: p.name for p in table.view("P01").players}
            option = table.asked["P01"][0]
            written = names[option].lower() if option in names else option.upper()
            by_name += option in names
            reply = f'<think>{{draft}} maybe {option}</think>\n{{"choice": "{written}"}}'
            await env.env_response([AssistantMessage(content=reply)], state)

    asyncio.run(play())
    result = state["werewolf_result"]
    assert result["won"] is not None and result["invalid"] == 0
    assert result["answers"] == result["repaired"] > 0
    repairs = result["repairs"]
    assert repairs["think-block"] == result["answers"]
    assert by_name > 0 and repairs["label-choice"] == by_name
    assert asyncio.run(repaired_share(state)) == 1.0
