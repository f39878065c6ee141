"""The strategy-adaptation example, played on a fake model: every block pits a design
against the plain baseline, and the report shows each design's win rate with its interval
and its Est."""

from pathlib import Path

import pytest

from autowerewolf.evaluation.report.build import build_report
from autowerewolf.evaluation.tournament.config import load_tournament
from autowerewolf.evaluation.tournament.results import row_of
from autowerewolf.evaluation.tournament.schedule import plan
from autowerewolf.graph.context import GameContext
from autowerewolf.runner import Games
from tests.agents.helpers import builder, repo_root
from tests.fakes.chat import FakeChatModel

EXAMPLE = repo_root() / "examples" / "strategy-adaptation.yaml"


def test_every_block_is_a_design_against_the_baseline() -> None:
    config = load_tournament(EXAMPLE)
    games = plan(config)
    assert len(games) == config.games
    designs = set()
    for game in games:
        holders = set(game.seating.contestants.values())
        assert "plain" in holders and len(holders) == 2
        designs |= holders
        assert {game.seating.agents.seats[s] for s in game.seating.seats} <= {
            "plain",
            "estimator",
            "adaptive",
            "support",
            "attack",
        }
    assert designs == {c.name for c in config.contestants}


@pytest.mark.long
def test_the_example_plays_and_reports_win_rates_and_est(tmp_path: Path) -> None:
    config = load_tournament(EXAMPLE)
    chat = FakeChatModel()
    games = Games(tmp_path / "games.db", create=True, context=GameContext(builder(chat)))
    rows = []
    try:
        for game in plan(config)[:6]:  # plain-mirror, then two more designs, in both camps
            record = games.start(game.game_id, game.setup, game.seating)
            assert record.status == "finished"
            rows.append(row_of(record))
    finally:
        games.close()
    report = build_report(rows, tmp_path / "report", resamples=100)
    designs = {d["agent"]: d for d in report.data["designs"]}
    estimating = [
        d for a, d in designs.items() if a in ("estimator", "adaptive", "support", "attack")
    ]
    assert "plain" in designs and estimating
    assert all(d["est"]["value"] is not None and 0 <= d["est"]["value"] <= 1 for d in estimating)
    assert all(
        0 <= d["win"]["lo"] <= d["win"]["value"] <= d["win"]["hi"] <= 1 for d in designs.values()
    )
    markdown = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert "## Agent designs" in markdown and "| Est |" in markdown
