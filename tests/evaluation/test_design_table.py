"""The agent-design table counts a camp's seats in one game as one outcome: four villagers
who win together are one win, not four, or the interval would be as narrow as four games';
its interval resamples games."""

from typing import Any, cast

import pytest

from autowerewolf.evaluation.bootstrap import GameTable, Resamples, Sums
from autowerewolf.evaluation.games.facts import GameRow
from autowerewolf.evaluation.report.designs import design_table, game_columns

CAMP_WIN = {"good": 0.6, "wolf": 0.3}  # the camps' rates over the report's games


def _seat(agent: str, camp: str) -> dict[str, Any]:
    return {
        "agent": agent,
        "model": "m",
        "camp": camp,
        "est": [1.0, 2.0, 0.5],
        "blunders": {"overall": [1, 4, 0.8, 4]},
    }


def _game(game_id: str, winner: str | None, seats: dict[str, tuple[str, str]]) -> GameRow:
    return cast(
        GameRow,
        {
            "game_id": game_id,
            "winner": winner,
            "seats": {seat: _seat(agent, camp) for seat, (agent, camp) in seats.items()},
        },
    )


def _by_agent(rows: list[GameRow]) -> dict[str, dict[str, Any]]:
    table = GameTable()
    for row in rows:
        values: dict[Any, float] = {}
        game_columns(row, values)
        table.add(values)
    sums = Sums(table, Resamples(table.games, 200, 0))
    return {d["agent"]: d for d in design_table(sums, CAMP_WIN)}


def test_a_camp_of_one_design_is_one_outcome_per_game() -> None:
    good = {f"P0{i}": ("adaptive", "good") for i in range(1, 7)}
    wolves = {"P07": ("plain", "wolf"), "P08": ("plain", "wolf")}
    rows = [_game("g1", "good", {**good, **wolves}), _game("g2", None, {**good, **wolves})]
    adaptive = _by_agent(rows)["adaptive"]
    assert adaptive["seats"] == 12 and adaptive["games"] == 2
    win = adaptive["win"]
    assert win["n"] == 2 and win["games"] == 2 and win["value"] == 0.5
    # Resampling two games, one won and one drawn: 0, 1/2 or 1.
    assert (win["lo"], win["hi"]) == (0.0, 1.0)
    assert win["chance"] == CAMP_WIN["good"]
    assert adaptive["win_by_camp"]["good"]["value"] == 0.5
    # Est and blunders: ratios of sums over the design's seats (12 of them).
    assert adaptive["est"]["value"] == 0.5 and adaptive["est"]["chance"] == 0.25
    overall = adaptive["blunders"]["overall"]
    assert (overall["value"], overall["n"], overall["chance"]) == (0.25, 48, pytest.approx(0.2))


def test_a_design_in_both_camps_of_a_game_fields_a_winning_and_a_losing_team() -> None:
    seats = {"P01": ("plain", "good"), "P02": ("plain", "good"), "P03": ("plain", "wolf")}
    plain = _by_agent([_game("g1", "wolf", seats)])["plain"]
    assert plain["win"]["n"] == 2 and plain["win"]["value"] == 0.5
    assert plain["win"]["chance"] == pytest.approx((0.6 + 0.3) / 2)
    assert {c: v["value"] for c, v in plain["win_by_camp"].items()} == {"good": 0.0, "wolf": 1.0}
