"""The White Wolf King (docs/rules.md §12) plays to the end on 12-W with every kind of seat:
random, heuristic (when the lone Seer claimant names him or a fellow wolf, he explodes and
takes her), scripted,
an LLM on the fake server, a human answering through the CLI, the PettingZoo environment, and
the export and report of the games."""

from pathlib import Path

from autowerewolf.prompts.table_rules import system_prompt
from autowerewolf.rules.events import EventKind
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


def test_llm_king_reads_the_take_and_explodes() -> None:
    fake = FakeChatModel(llm_preferring("explode"))
    out = play_llm_game(fake, seed=4, board=BOARD)
    assert out["game"].is_over
    assert all(r.valid and not r.fallback for r in out["records"])
    assert any("As the White Wolf King you then name one player" in p for p in fake.prompts)
    king = next(s.id for s in out["game"].seats if s.role is Role.WHITE_WOLF_KING)
    rules = system_prompt(seat_view(out["game"], out["events"], king))
    assert "The White Wolf King is a werewolf who, when he self-explodes, may take" in rules


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


def test_a_human_king_explodes_through_the_cli(tmp_path: Path) -> None:
    seed = 1
    king = seat_of_role(BOARD, seed, HEX_SECRET, Role.WHITE_WOLF_KING)
    record = human_game(BOARD, seed, HEX_SECRET, king, preferring("explode"), tmp_path)
    assert [e.actor for e in record.events if e.kind is EventKind.WOLF_KING_TAKE] == [king]


def test_the_environment_plays_a_king_game_with_a_take() -> None:
    events = env_game(BOARD, 3, "explode")
    assert [e for e in events if e.kind is EventKind.WOLF_KING_TAKE]
