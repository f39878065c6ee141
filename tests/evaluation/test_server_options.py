"""`benchmarks/server_options.py` asks the same saved decisions on each server variant:
the decisions it reads are the finished games' own, every `every`-th checkpoint's, at most
`limit`, and reading them writes nothing."""

from pathlib import Path

from autowerewolf.graph.context import GameContext
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import Games
from benchmarks.server_options import saved_requests
from tests.agents.helpers import builder
from tests.fakes.chat import FakeChatModel, legal_json


def test_the_saved_decisions_are_the_finished_games_asked_seats_up_to_the_limit(
    tmp_path: Path,
) -> None:
    db = tmp_path / "m.db"
    games = Games(db, create=True, context=GameContext(builder(FakeChatModel(legal_json))))
    try:
        game = games.start("m-s2", GameSetup(board="8-arena", seed=2, secret=""), Seating())
    finally:
        games.close()
    before = db.read_bytes()
    every_third = saved_requests(db, 3, 1000)
    assert every_third and len(saved_requests(db, 3, 2)) == 2
    assert len(saved_requests(db, 1, 1000)) > len(every_third)
    keys = {r.key for r in game.records if r.purpose == "decision"}
    for request in every_third:
        # A seat asked at that checkpoint, with its legal options: a real question of the game.
        assert request.view.decision_key in keys and request.view.options
    assert db.read_bytes() == before
