"""The Knight (docs/rules.md §11) plays to the end on 12-K with every kind of seat: random,
heuristic (he duels the seat a lone Seer claimant named a wolf), scripted, an LLM on the
fake server, a human answering through the CLI, the PettingZoo environment, and the export
and report of the games."""

import re
from pathlib import Path

from autowerewolf.prompts.table_rules import system_prompt
from autowerewolf.rules.config import make_config
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.random_play import play_random_game
from autowerewolf.rules.roles import Role
from autowerewolf.rules.views import seat_view
from tests.fakes.chat import FakeChatModel
from tests.fixed import HEX_SECRET
from tests.players.test_llm_player import play_llm_game
from tests.roles.seats import (
    batch_export_report,
    env_game,
    heuristic_powers,
    human_game,
    llm_preferring,
    preferring,
    random_powers,
    scripted_game,
    seat_of_role,
)

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


def test_llm_knight_reads_the_duel_and_duels(tmp_path: Path) -> None:
    fake = FakeChatModel(llm_preferring("duel"))
    out = play_llm_game(fake, seed=4, board=BOARD)
    assert out["game"].is_over
    assert [e for e in out["events"] if e.kind is EventKind.DUEL]
    assert all(r.valid and not r.fallback for r in out["records"])
    assert any("As the Knight you may also answer 'duel'" in p for p in fake.prompts)
    knight = next(s.id for s in out["game"].seats if s.role is Role.KNIGHT)
    rules = system_prompt(seat_view(out["game"], out["events"], knight))
    assert "The Knight, once per game in his discussion turn, may duel" in rules


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


def knight_asked_on_day_one(seed: int) -> bool:
    """Whether the Knight of the random game of `seed` lives to his Day-1 discussion turn."""
    state, events = play_random_game(make_config(BOARD, seed=seed, secret=HEX_SECRET))
    knight = next(s.id for s in state.seats if s.role is Role.KNIGHT)
    turns = (EventKind.DUEL, EventKind.SPEECH)
    return any(
        e.day == 1 and e.actor == knight and e.kind in turns and e.value != "last_words"
        for e in events
    )


def test_a_human_knight_duels_through_the_cli(tmp_path: Path) -> None:
    # The night and the others' answers are the random game's: its Knight lives to speak.
    seed = next(s for s in range(20) if knight_asked_on_day_one(s))
    knight = seat_of_role(BOARD, seed, HEX_SECRET, Role.KNIGHT)
    record = human_game(BOARD, seed, HEX_SECRET, knight, preferring("duel", "pass"), tmp_path)
    assert [e.actor for e in record.events if e.kind is EventKind.DUEL] == [knight]


def test_the_environment_plays_a_knight_game_with_a_duel() -> None:
    events = env_game(BOARD, 3, "duel")
    assert [e for e in events if e.kind is EventKind.DUEL]
