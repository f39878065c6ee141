"""The web reader reads a game's record once per checkpoint: a seat's page asks for its
header and its question together at each turn, and each read is of the whole game."""

from pathlib import Path

import pytest

from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import Games
from autowerewolf.web.reader import GameReader
from tests.fixed import SECRET
from tests.graph.graph_helpers import first_option_answers


def test_a_record_is_read_once_per_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "games.db"
    games = Games(db, create=True)
    record = games.start("human", GameSetup(secret=SECRET, seed=5), Seating(seats={"P03": "human"}))
    assert record.status == "waiting"
    reader = GameReader(db)
    reads: list[str] = []
    peek = reader.games.peek

    def counted(game_id: str) -> object:
        reads.append(game_id)
        return peek(game_id)

    monkeypatch.setattr(reader.games, "peek", counted)
    try:
        first = reader.load("human")
        assert reader.row("human").steps == first.game.ply and reader.load("human") is first
        assert reads == ["human"]
        record = games.resume("human", first_option_answers(record))
        moved = reader.load("human")
        assert reads == ["human", "human"] and moved.game.ply == record.game.ply > first.game.ply
        assert moved.events == record.events
    finally:
        reader.close()
        games.close()
