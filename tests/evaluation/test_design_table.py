"""The agent-design table counts a camp's seats in one game as one outcome: four villagers
who win together are one win, not four, or the interval would be as narrow as four games'."""

from typing import Any, cast

from autowerewolf.evaluation.design_report import design_table
from autowerewolf.evaluation.facts import GameRow
from autowerewolf.evaluation.metrics import wilson


def _seat(agent: str, camp: str) -> dict[str, Any]:
    return {"agent": agent, "model": "m", "camp": camp, "est": [0.0, 0.0], "blunders": {}}


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
    return {d["agent"]: d for d in design_table(rows)}


def test_a_camp_of_one_design_is_one_outcome_per_game() -> None:
    good = {f"P0{i}": ("adaptive", "good") for i in range(1, 7)}
    wolves = {"P07": ("plain", "wolf"), "P08": ("plain", "wolf")}
    rows = [_game("g1", "good", {**good, **wolves}), _game("g2", None, {**good, **wolves})]
    adaptive = _by_agent(rows)["adaptive"]
    assert adaptive["seats"] == 12 and adaptive["games"] == 2
    assert adaptive["win"]["n"] == 2 and adaptive["win"]["rate"] == 0.5
    assert (adaptive["win"]["lo"], adaptive["win"]["hi"]) == wilson(1, 2)
    assert adaptive["win_by_camp"] == {"good": 0.5}


def test_a_design_in_both_camps_of_a_game_fields_a_winning_and_a_losing_team() -> None:
    seats = {"P01": ("plain", "good"), "P02": ("plain", "good"), "P03": ("plain", "wolf")}
    plain = _by_agent([_game("g1", "wolf", seats)])["plain"]
    assert plain["win"]["n"] == 2 and plain["win"]["rate"] == 0.5
    assert plain["win_by_camp"] == {"good": 0.0, "wolf": 1.0}
