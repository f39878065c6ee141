"""A game of agent designs on a deterministic fake model, killed with SIGKILL mid-game and
resumed, sends every seat the same prompts as the game played without interruption."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from autowerewolf.graph.context import GameContext
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import Games
from tests.agents.helpers import MIXED, builder, repo_root
from tests.fakes.chat import FakeChatModel

SEED = 3
GAME = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path

    from autowerewolf.graph.context import GameContext
    from autowerewolf.players.seating import Seating
    from autowerewolf.rules.config import GameSetup
    from autowerewolf.runner import Games
    from tests.agents.helpers import MIXED, builder
    from tests.fakes.chat import FakeChatModel

    class Logged(FakeChatModel):
        def _answer(self, messages, schema):
            prompt = "\\n".join(m.content for m in messages if isinstance(m.content, str))
            with self.lock, open(sys.argv[2], "a", encoding="utf-8") as log:
                log.write(json.dumps(prompt) + "\\n")
            return super()._answer(messages, schema)

    chat = Logged(latency_s=0.01)
    games = Games(Path(sys.argv[1]), create=True, context=GameContext(builder(chat)))
    print("started", flush=True)
    games.start("crash", GameSetup(seed=int(sys.argv[3])), Seating(default="llm", agents=MIXED))
    print("finished", flush=True)
    """
)


def _checkpoints(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
            return conn.execute("SELECT count(*) FROM checkpoints").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_kill_and_resume_sends_the_same_prompts(tmp_path: Path) -> None:
    db, log, script = tmp_path / "crash.db", tmp_path / "prompts.jsonl", tmp_path / "game.py"
    script.write_text(GAME, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(repo_root())}
    proc = subprocess.Popen(
        [sys.executable, str(script), str(db), str(log), str(SEED)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        deadline = time.monotonic() + 120
        while _checkpoints(db) < 40:  # well into Day 1, after the night's estimates
            assert proc.poll() is None, f"game ended early: {proc.communicate()}"
            assert time.monotonic() < deadline, "no checkpoints written in time"
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
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
            "crash", GameSetup(seed=SEED), Seating(default="llm", agents=MIXED)
        )
    finally:
        reference.close()
    assert resumed.events == expected.events
    # The decision in flight at the kill is asked again after the resume, with the same
    # prompts: together the two runs sent exactly the uninterrupted game's prompts.
    assert before_kill | set(resumed_chat.prompts) == set(reference_chat.prompts)
    assert before_kill and resumed_chat.prompts
