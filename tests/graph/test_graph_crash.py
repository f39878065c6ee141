"""A game process killed with SIGKILL mid-game resumes to exactly the uninterrupted result."""

import signal
import sys
import textwrap
from pathlib import Path

import pytest

from autowerewolf.runner import Games
from tests.graph.graph_helpers import kill_after, new_games, start_random

SEED = 1
# A random player that thinks for a few milliseconds per decision, so that the game
# takes long enough to be killed in the middle.
PLAYER_SCRIPT = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path

    from autowerewolf.graph.context import GameContext
    from autowerewolf.players.seating import Seating
    from autowerewolf.players.simple import RandomPlayer
    from autowerewolf.rules.config import GameSetup
    from autowerewolf.runner import Games


    class SlowRandom(RandomPlayer):
        def decide(self, request):
            time.sleep(0.01)
            return super().decide(request)


    def slow_players(*_seat_kind_seating_game):
        return SlowRandom()


    games = Games(Path(sys.argv[1]), create=True, context=GameContext(player_factory=slow_players))
    print("started", flush=True)
    games.start("crash", GameSetup(secret="", board="12-A", seed=int(sys.argv[2])), Seating())
    print("finished", flush=True)
    """
)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_mid_game_then_resume_matches_uninterrupted(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    script = tmp_path / "slow_game.py"
    script.write_text(PLAYER_SCRIPT, encoding="utf-8")
    returncode, out = kill_after([sys.executable, str(script), str(db), str(SEED)], db, 15, 60)
    assert returncode == -signal.SIGKILL
    assert "finished" not in out, "the game ended before it was killed"

    games = Games(db)
    try:
        crashed = games.load("crash")
        assert crashed.status == "unfinished"
        assert not crashed.game.is_over and crashed.game.ply >= 10
        resumed = games.resume("crash")  # default random players: same choices, no sleep
    finally:
        games.close()

    reference = new_games(tmp_path / "reference.db")
    try:
        expected = start_random(reference, "crash", seed=SEED)
    finally:
        reference.close()
    assert resumed.status == "finished"
    assert resumed.game.winner == expected.game.winner
    assert resumed.game.win_reason == expected.game.win_reason
    assert resumed.events == expected.events  # no lost or repeated events
    assert resumed.records == expected.records
    assert resumed.game == expected.game
