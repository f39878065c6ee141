"""docs/rules.md §10: games recorded from Kaggle's own engine (kaggle-environments 1.33.2,
`kaggle_games.json`, written by `python -m tests.kaggle.kaggle_record`) replay identically in
ours on the `kaggle` board through their scripts: every death, proposal, ballot, tally, tie
break and draw, reveal, speaking and voting order, the winner, the scores and the final day.

This runs without Kaggle's engine; `test_kaggle_differential.py` (`pytest -m kaggle`, the
`kaggle` extra) records fresh games from it, checks these against it and compares 170.
"""

import copy
import json
from typing import Any

import pytest
import yaml

from autowerewolf.gamefile import load_game_file
from autowerewolf.rules.decisions import IllegalAction
from tests.graph.graph_helpers import new_games
from tests.kaggle.kaggle_record import RECORDED
from tests.kaggle.kaggle_replay import Divergence, differences, replay, script

GAMES: list[dict[str, Any]] = json.loads(RECORDED.read_text())


def name(game: dict[str, Any]) -> str:
    return f"{game['agent']}-{game['seed']}"


@pytest.mark.parametrize("game", GAMES, ids=name)
def test_a_kaggle_game_replays_identically_in_ours(game: dict[str, Any]) -> None:
    assert differences(game, replay(game)) == []


def test_the_recorded_games_play_every_kaggle_rule() -> None:
    """The committed games reach every rule the `kaggle` board changes."""
    nights = [n for g in GAMES for n in g["nights"]]
    days = [d for g in GAMES for d in g["days"]]
    ballots = [b for d in days for b in d["ballots"]]
    reached = {
        "night tie": any(n["vote"]["how"] == "tie" for n in nights),
        "every wolf abstains": any(n["vote"]["how"] == "all_abstained" for n in nights),
        "a wolf abstains": any(t is None for n in nights for _, t in n["proposals"]),
        "a save": any(n["saved"] for n in nights),
        "the Guard protects nobody": any(n["guard"] == "none" for n in nights),
        "day tie": any(d["vote"]["how"] == "tie" for d in days),
        "everyone abstains": any(d["vote"]["how"] == "all_abstained" for d in days),
        "a self-vote": any(voter == target for voter, target in ballots),
        "good wins": any(g["winner"] == "good" for g in GAMES),
        "wolves win": any(g["winner"] == "wolf" for g in GAMES),
        "a night's death ends the game": any(
            g["final_day"] == g["nights"][-1]["night"]
            and g["nights"][-1]["died"] is not None
            and all(d["day"] < g["final_day"] for d in g["days"])
            for g in GAMES
        ),
    }
    assert [rule for rule, seen in reached.items() if not seen] == []


def changed(game: dict[str, Any], change: str) -> dict[str, Any]:
    game = copy.deepcopy(game)
    if change == "ballot":  # a voter named someone else
        day = game["days"][0]
        voter, target = day["ballots"][0]
        other = next(s for s in day["voters"] if s not in (voter, target))
        day["ballots"][0] = [voter, other]
    elif change == "tally":
        game["days"][0]["vote"]["tally"] = {}
    elif change == "tie break":
        vote = next(d["vote"] for d in game["days"] if d["vote"]["how"] == "tie")
        vote["chosen"] = next(s for s in vote["among"] if s != vote["chosen"])
    elif change == "speaking order":  # the first two speakers swap places
        speakers = game["days"][0]["speakers"]
        speakers[0], speakers[1] = speakers[1], speakers[0]
    elif change == "reveal":
        night = next(n for n in game["nights"] if n["died"])
        night["died"][1] = "seer" if night["died"][1] != "seer" else "villager"
    elif change == "winner":
        game["winner"] = "good" if game["winner"] == "wolf" else "wolf"
    return game


@pytest.mark.parametrize(
    "change", ["ballot", "tally", "tie break", "speaking order", "reveal", "winner"]
)
def test_a_changed_record_is_caught(change: str) -> None:
    """The comparison is not vacuous: a record changed in one field no longer agrees."""
    game = next(g for g in GAMES if any(d["vote"]["how"] == "tie" for d in g["days"]))
    altered = changed(game, change)
    try:
        found = differences(altered, replay(altered))
    except (Divergence, IllegalAction) as err:
        found = [str(err)]
    assert found


def test_a_recorded_game_is_a_script_autowerewolf_plays(tmp_path: Any) -> None:
    """docs/scripts.md: the script is an ordinary game file; `Games` (as `autowerewolf play
    --script`) plays it to Kaggle's winner and final day, draw for draw."""
    game = next(g for g in GAMES if g["agent"] == "often_abstaining")
    path = tmp_path / "kaggle.yaml"
    path.write_text(yaml.safe_dump(script(game)))
    game_file = load_game_file(path)
    games = new_games(tmp_path / "g.db")
    try:
        record = games.start("k", game_file.setup(game["seed"]), game_file.seating("scripted"))
    finally:
        games.close()
    assert record.game.winner is not None and record.game.winner.value == game["winner"]
    assert record.game.day == game["final_day"]
    assert all(r.player == "scripted" for r in record.records if r.purpose == "decision")
