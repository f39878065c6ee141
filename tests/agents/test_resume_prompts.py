"""A game of agent designs on a deterministic fake model, killed with SIGKILL mid-game and
resumed, sends every seat the same prompts as the game played without interruption."""

import json
import os
import signal
import sys
import textwrap
from pathlib import Path

import pytest

from autowerewolf.graph.context import GameContext
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import Games
from tests.agents.helpers import MIXED, builder, repo_root
from tests.fakes.chat import FakeChatModel
from tests.fixed import SECRET
from tests.graph.graph_helpers import kill_after

SEED = 3
GAME = textwrap.dedent(
    """
    import json, sys, threading
    from pathlib import Path

    from autowerewolf.graph.context import GameContext
    from autowerewolf.players.seating import Seating
    from autowerewolf.rules.config import GameSetup
    from autowerewolf.runner import Games
    from tests.agents.helpers import MIXED, builder
    from tests.fakes.chat import FakeChatModel, legal_json, prompt_text
    from tests.fixed import SECRET

    lock = threading.Lock()

    def logged(messages, schema):
        with lock, open(sys.argv[2], "a", encoding="utf-8") as log:
            log.write(json.dumps(prompt_text(messages)) + "\\n")
        return legal_json(messages, schema)

    chat = FakeChatModel(logged, latency_s=0.01)
    games = Games(Path(sys.argv[1]), create=True, context=GameContext(builder(chat)))
    print("started", flush=True)
    setup = GameSetup(secret=SECRET, seed=int(sys.argv[3]))
    games.start("crash", setup, Seating(default="llm", agents=MIXED))
    print("finished", flush=True)
    """
)


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_kill_and_resume_sends_the_same_prompts(tmp_path: Path) -> None:
    db, log, script = tmp_path / "crash.db", tmp_path / "prompts.jsonl", tmp_path / "game.py"
    script.write_text(GAME, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(repo_root())}
    command = [sys.executable, str(script), str(db), str(log), str(SEED)]
    # 40 checkpoints: well into Day 1, after the night's estimates.
    _, out = kill_after(command, db, 40, within_s=120, env=env)
    assert "finished" not in out, "the game ended before it was killed"
    # The kill may cut the log's last line short.
    lines = log.read_text(encoding="utf-8").splitlines()
    before_kill = {json.loads(line) for line in lines if line.endswith('"')}

    resumed_chat = FakeChatModel()
    games = Games(db, context=GameContext(builder(resumed_chat)))
    try:
        resumed = games.resume("crash")
    finally:
        games.close()
    assert resumed.status == "finished"

    reference_chat = FakeChatModel()
    reference = Games(
        tmp_path / "ref.db", create=True, context=GameContext(builder(reference_chat))
    )
    try:
        expected = reference.start(
            "crash", GameSetup(secret=SECRET, seed=SEED), Seating(default="llm", agents=MIXED)
        )
    finally:
        reference.close()
    assert resumed.events == expected.events
    # The decision in flight at the kill is asked again after the resume, with the same
    # prompts: together the two runs sent exactly the uninterrupted game's prompts.
    assert before_kill | set(resumed_chat.prompts) == set(reference_chat.prompts)
    assert before_kill and resumed_chat.prompts
