"""The training table asks its seats as the graph does (players/asker.py): the same seeds
played through the graph and through the table, the trainer's seat answered by the same
player from the table's view, give the same game, event for event."""

import pytest

from autowerewolf.graph.builder import RECURSION_LIMIT, build_graph
from autowerewolf.graph.context import GameContext
from autowerewolf.players.base import DecisionRequest
from autowerewolf.players.heuristic import HeuristicPlayer
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import BOARDS, GameSetup
from autowerewolf.table import Table
from tests.fixed import SECRET

TRAINER = "P01"


def graph_game(board: str, seed: int) -> dict:
    setup = GameSetup(secret=SECRET, board=board, seed=seed)
    return (
        build_graph()
        .compile()
        .invoke(
            {"setup": setup, "seating": Seating(default="heuristic")},
            {"recursion_limit": RECURSION_LIMIT},
            context=GameContext(),
        )
    )


def table_game(board: str, seed: int) -> tuple[Table, list[DecisionRecord]]:
    table = Table(board, secret=SECRET, controlled=[TRAINER], seating=Seating(default="heuristic"))
    table.reset(seed)
    player, history = HeuristicPlayer(), []
    while not table.over:
        for seat in table.asked:
            view = table.view(seat)
            request = DecisionRequest(view=view, seed=table.seed_of(seat), history=tuple(history))
            answer = player.decide(request)
            history.append(answer.record)
            table.answer(seat, {"option": answer.action.option, "text": answer.action.text})
        table.advance()
    return table, history


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_the_graph_and_the_training_table_play_the_same_game(board: str) -> None:
    for seed in (3, 4):
        graph = graph_game(board, seed)
        table, trainer = table_game(board, seed)
        assert [e.model_dump() for e in table.events] == [e.model_dump() for e in graph["events"]]
        mine = [r for r in graph["records"] if r.seat == TRAINER]
        assert [(r.key, r.option, r.text) for r in trainer] == [
            (r.key, r.option, r.text) for r in mine
        ]
