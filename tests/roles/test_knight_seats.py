"""The Knight (docs/rules.md §11) plays to the end on 12-K with random, heuristic (he duels
the seat a lone Seer claimant named a wolf) and scripted seats, and the export and report of
the games; his LLM, human and PettingZoo games are tests/roles/test_power_seats.py's."""

import re
from pathlib import Path

from autowerewolf.rules.events import EventKind
from tests.roles.seats import batch_export_report, heuristic_powers, random_powers, scripted_game

BOARD = "12-K"
SEER_NAMES_A_WOLF = re.compile(r"\bI am the seer\b.*?\b(P\d\d) is a wolf", re.I)
NAMED_WOLF = re.compile(r"\b(P\d\d) is a wolf", re.I)  # a claim may name several


def test_random_games_end_and_some_knight_duels() -> None:
    duels = random_powers(BOARD, EventKind.DUEL, 10)
    assert {d.value for d in duels} == {"wolf", "good"}


def test_heuristic_knight_duels_the_wolf_a_lone_seer_claimant_named(tmp_path: Path) -> None:
    records = batch_export_report(BOARD, "heuristic", 8, tmp_path)
    duels = 0
    for record, e, said in heuristic_powers(records, EventKind.DUEL):
        duels += 1
        claims = {s.actor for s in said if SEER_NAMES_A_WOLF.search(s.text or "")}
        named = {
            seat for s in said if s.actor in claims for seat in NAMED_WOLF.findall(s.text or "")
        }
        assert len(claims) == 1 and e.target in named, (record.game_id, e)
    assert duels > 0


def test_a_script_duels(tmp_path: Path) -> None:
    deal = ["werewolf"] * 4 + ["villager"] * 4 + ["seer", "witch", "hunter", "knight"]
    everyone = [f"P{n:02d}" for n in range(1, 13)]
    decisions = {
        **{f"n1:wolves:P0{n}": "P05" for n in range(1, 5)},
        "n1:witch_cure": "none",
        "n1:witch_poison": "none",
        "d1:election_signup:r1": dict.fromkeys(everyone, "pass"),
        "d1:discussion:P12": "duel",
        "d1:duel:P12": "P03",
    }
    record = scripted_game(BOARD, deal, decisions, tmp_path)
    (duel,) = [e for e in record.events if e.kind is EventKind.DUEL]
    assert (duel.day, duel.actor, duel.target, duel.value) == (1, "P12", "P03", "wolf")
