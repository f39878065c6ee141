"""examples/tournament-kaggle.yaml: an LLM contestant against the heuristic baseline on the
`kaggle` board, each holding each camp; played here on a fake chat model."""

from pathlib import Path

from autowerewolf.evaluation.tournament.config import load_tournament
from autowerewolf.evaluation.tournament.schedule import plan
from autowerewolf.graph.context import GameContext
from autowerewolf.rules.events import EventKind
from autowerewolf.runner import Games
from tests.agents.helpers import builder, repo_root
from tests.fakes.chat import FakeChatModel

EXAMPLE = repo_root() / "examples" / "tournament-kaggle.yaml"


def test_the_kaggle_tournament_plays_on_the_kaggle_board(tmp_path: Path) -> None:
    config = load_tournament(EXAMPLE)
    games = plan(config)
    assert config.board == "kaggle" and len(games) == config.games
    wolf_camp = []
    for game in games:
        deal = game.setup.build().deal
        assert deal is not None
        wolves = {
            game.seating.contestants[f"P{i + 1:02d}"] for i, r in enumerate(deal) if r == "werewolf"
        }
        assert len(wolves) == 1 and set(game.seating.contestants.values()) == {
            "qwen-local",
            "heuristic",
        }
        wolf_camp.append(wolves.pop())
    assert sorted(wolf_camp) == ["heuristic", "heuristic", "qwen-local", "qwen-local"]
    store = Games(tmp_path / "games.db", create=True, context=GameContext(builder(FakeChatModel())))
    try:
        record = store.start(games[0].game_id, games[0].setup, games[0].seating)
    finally:
        store.close()
    assert record.status == "finished"
    kinds = {e.kind for e in record.events}
    assert EventKind.BALLOT in kinds and EventKind.SHERIFF not in kinds
    steps = {r.step for r in record.records if r.purpose == "decision"}
    assert "exile_roll_call" in steps and "last_words" not in steps
    llm = [r for r in record.records if r.player == "llm"]
    assert llm and all("roll call" in (r.prompt or "") for r in llm if r.step == "exile_roll_call")
