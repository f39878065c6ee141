"""The White Wolf King (docs/rules.md §12) plays to the end on 12-W with random, heuristic
(when the lone Seer claimant names him or a fellow wolf, he explodes and takes her) and
scripted seats, and the export and report of the games; his LLM, human and PettingZoo games
are tests/roles/test_power_seats.py's."""

from pathlib import Path

from autowerewolf.rules.events import EventKind
from tests.roles.seats import batch_export_report, heuristic_powers, random_powers, scripted_game

BOARD = "12-W"


def test_random_games_end_and_some_king_takes_a_player() -> None:
    assert random_powers(BOARD, EventKind.WOLF_KING_TAKE, 30)


def test_heuristic_king_takes_the_lone_seer_claimant(tmp_path: Path) -> None:
    records = batch_export_report(BOARD, "heuristic", 12, tmp_path)
    takes = 0
    for record, e, said in heuristic_powers(records, EventKind.WOLF_KING_TAKE):
        takes += 1
        claimants = {s.actor for s in said if "I am the seer" in (s.text or "")}
        assert claimants == {e.target}, (record.game_id, e)
    assert takes > 0


def test_a_script_explodes_the_king_taking_the_seer(tmp_path: Path) -> None:
    deal = ["white_wolf_king"] + ["werewolf"] * 3 + ["villager"] * 4
    deal += ["seer", "witch", "hunter", "guard"]
    everyone = [f"P{n:02d}" for n in range(1, 13)]
    decisions = {
        "d1:election_signup:r1": {**dict.fromkeys(everyone, "pass"), "P01": "explode"},
        "d1:wolf_king_take:P01": "P09",
    }
    record = scripted_game(BOARD, deal, decisions, tmp_path)
    (take,) = [e for e in record.events if e.kind is EventKind.WOLF_KING_TAKE]
    assert (take.day, take.actor, take.target) == (1, "P01", "P09")
