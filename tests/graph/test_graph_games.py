"""Complete games through the compiled graph with a SQLite checkpointer; determinism;
scripted games from a YAML script file, through `Games` and through `autowerewolf play`."""

import json
from pathlib import Path

import pytest

from autowerewolf.gamefile import load_game_file
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.random_play import play_random_game
from autowerewolf.rules.state import Step
from autowerewolf.runner import GameError, Games
from tests.fixed import HEX_SECRET, SECRET
from tests.graph.graph_helpers import (
    BOARDS,
    assert_user_error,
    cli,
    load_record,
    new_games,
    of_kind,
    start_random,
)

DEAL = [
    "werewolf", "werewolf", "werewolf", "werewolf", "seer", "witch",
    "hunter", "guard", "villager", "villager", "villager", "villager",
]  # fmt: skip
WOLVES = ("P01", "P02", "P03", "P04")
SCRIPT = f"""\
# Wolves P01-P04 kill P09 on Night 1 (no save, no guard on P09); the village exiles P01.
board: 12-A
seed: 5
secret: ""  # the seed alone draws the rest (tests/fixed.py): the same game every run
deal: [{", ".join(DEAL)}]
decisions:
  n1:wolves:P01: P09
  n1:wolves:P02: P09
  n1:wolves:P03: {{option: P09, text: "The quiet one."}}
  n1:wolves:P04: P09
  n1:witch_cure: none
  n1:witch_poison: none
  n1:guard: P10
  d1:exile_vote:r1:
    P05: P01
    P06: P01
    P07: P01
    P08: P01
    P10: P01
    P11: P01
    P12: P01
    P02: P03
    P03: P02
    P04: P02
"""
GOOD_VOTERS = ("P05", "P06", "P07", "P08", "P10", "P11", "P12")


@pytest.fixture
def script(tmp_path: Path) -> Path:
    path = tmp_path / "script.yaml"
    path.write_text(SCRIPT, encoding="utf-8")
    return path


@pytest.mark.parametrize("board", BOARDS)
def test_random_game_completes_on_every_board(games: Games, board: str) -> None:
    record = start_random(games, f"g-{board}", board=board, seed=11)

    assert record.status == "finished"
    assert record.game.is_over and record.game.winner is not None and record.game.win_reason
    assert record.events[-1].kind is EventKind.GAME_OVER
    assert record.events[-1].value == record.game.winner.value
    # The graph with default random seating plays exactly the rules engine's own random game.
    final, events = play_random_game(GameSetup(secret=SECRET, board=board, seed=11).build())
    assert record.events == events
    assert record.game == final
    # Every decision was answered legally by a random player and recorded once per seat.
    assert record.records
    assert all(r.player == "random" and r.option in r.options for r in record.records)
    assert len({(r.key, r.seat) for r in record.records}) == len(record.records)
    # The last checkpoint is the end of the graph: nothing left to run.
    snapshot = games.graph.get_state(games.run_config(f"g-{board}"))
    assert snapshot.next == () and snapshot.tasks == ()
    assert games.resume(f"g-{board}") == record  # resuming a finished game is a no-op


def test_finished_game_reads_back_from_a_new_process_state(games: Games, db: Path) -> None:
    record = start_random(games, "g1", board="8-arena", seed=2)
    games.close()
    again = Games(db)
    try:
        assert again.ids() == ["g1"]
        loaded = again.load("g1")
        assert loaded.events == record.events and loaded.game == record.game
        assert loaded.records == record.records and loaded.status == "finished"
        plies = [s.values["game"].ply for s in again.history("g1")]
        # One checkpoint per step, in order; the game_over node adds a last one at the same ply.
        assert plies == [*range(record.game.ply + 1), record.game.ply]
        assert again.at_ply("g1", 0).game.step == Step.WOLVES
    finally:
        again.close()


def test_same_seed_same_players_same_log(games: Games) -> None:
    a = start_random(games, "a", seed=7)
    b = start_random(games, "b", seed=7)
    assert a.events == b.events and a.records == b.records and a.game == b.game
    c = start_random(games, "c", seed=8)
    assert c.events != a.events


def test_player_seed_is_independent_of_the_deal(games: Games) -> None:
    setup = GameSetup(secret=SECRET, board="9-standard", seed=3)
    record = games.start("ps", setup, Seating(player_seed=40))
    final, events = play_random_game(setup.build(), player_seed=40)
    assert record.events == events and record.game == final
    default = games.start("ps-default", setup, Seating())
    assert of_kind(default.events, EventKind.DEAL) == of_kind(record.events, EventKind.DEAL)
    assert default.events != record.events


def test_existing_game_id_is_refused(games: Games) -> None:
    start_random(games, "dup", board="8-arena")
    with pytest.raises(GameError, match="already exists"):
        start_random(games, "dup", board="8-arena")


def _check_scripted_night_and_day(events, records) -> None:
    roles = {e.seat: e.value for e in of_kind(events, EventKind.ROLE)}
    assert [roles[f"P{i:02d}"] for i in range(1, 13)] == DEAL
    proposals = of_kind(events, EventKind.WOLF_PROPOSAL, day=1)
    assert [(e.actor, e.target) for e in proposals] == [(w, "P09") for w in WOLVES]
    assert proposals[2].text == "The quiet one."
    (target,) = of_kind(events, EventKind.WOLF_TARGET, day=1)
    assert target.target == "P09"
    first_death = of_kind(events, EventKind.DEATH)[0]
    assert (first_death.target, first_death.day, first_death.value) == ("P09", 1, "wolf_kill")
    ballots = {
        e.actor: e.target
        for e in of_kind(events, EventKind.BALLOT, day=1)
        if e.value == "exile" and e.round == 1
    }
    assert all(ballots[v] == "P01" for v in GOOD_VOTERS)
    assert (ballots["P02"], ballots["P03"], ballots["P04"]) == ("P03", "P02", "P02")
    exiles = of_kind(events, EventKind.EXILE, day=1)
    assert [e.target for e in exiles] == ["P01"]
    scripted = {(r.key, r.seat) for r in records if r.player == "scripted"}
    assert ("n1:wolves:P03", "P03") in scripted and ("d1:exile_vote:r1", "P12") in scripted
    # Where the script is silent, seats play seeded random.
    assert ("d1:exile_vote:r1", "P01") not in scripted
    assert any(r.player == "random" for r in records)


def test_scripted_game_from_yaml(games: Games, script: Path) -> None:
    game_file = load_game_file(script)
    setup = game_file.setup(game_file.seed, game_file.secret)
    record = games.start("sc", setup, game_file.seating("scripted"))
    assert record.status == "finished" and record.game.winner is not None
    _check_scripted_night_and_day(record.events, record.records)


def test_cli_play_script_json(tmp_path: Path, script: Path) -> None:
    db = tmp_path / "cli.db"
    result = cli("play", "--script", script, "--json", "--db", db, "--game-id", "sc-cli")
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)

    record = load_record(db, "sc-cli")
    assert record.status == "finished"
    _check_scripted_night_and_day(record.events, record.records)

    assert summary["game_id"] == "sc-cli" and summary["board"] == "12-A"
    assert summary["seed"] == 5 and summary["finished"] is True
    assert summary["winner"] == record.game.winner.value
    assert summary["win_reason"] == record.game.win_reason
    assert summary["days"] == record.game.day and summary["steps"] == record.game.ply
    assert summary["events"] == len(record.events)
    assert summary["roles"] == {f"P{i:02d}": role for i, role in enumerate(DEAL, 1)}
    deaths = summary["deaths"]
    assert deaths[0] == {
        "seat": "P09", "role": "villager", "day": 1, "phase": "dawn", "cause": "wolf_kill"
    }  # fmt: skip
    assert deaths[1] == {
        "seat": "P01", "role": "werewolf", "day": 1, "phase": "exile_vote", "cause": "exile"
    }  # fmt: skip
    assert len(deaths) == len(of_kind(record.events, EventKind.DEATH))
    assert all(set(d) == {"seat", "role", "day", "phase", "cause"} for d in deaths)
    assert isinstance(summary["sheriff_history"], list) and summary["sheriff_history"]
    assert all(set(s) == {"day", "change", "seat", "by"} for s in summary["sheriff_history"])
    assert summary["sheriff_history"][0]["day"] == 1
    day1_exile = [b for b in summary["ballots"] if b["day"] == 1 and b["vote"] == "exile"]
    (p05,) = [b for b in day1_exile if b["voter"] == "P05" and b["round"] == 1]
    assert p05["target"] == "P01" and p05["weight"] in (1.0, 1.5)  # 1.5 if P05 is sheriff
    assert len(summary["ballots"]) == len(
        [e for e in of_kind(record.events, EventKind.BALLOT) if e.actor]
    )
    assert set(summary["seat_totals"]) <= {f"P{i:02d}" for i in range(1, 13)}


def test_cli_play_script_matches_games_api(tmp_path: Path, script: Path) -> None:
    result = cli(
        "play", "--script", script, "--secret", HEX_SECRET, "--json", "--db", tmp_path / "a.db"
    )
    assert result.exit_code == 0, result.stderr
    games = new_games(tmp_path / "b.db")
    try:
        game_file = load_game_file(script)
        record = games.start("x", game_file.setup(5, HEX_SECRET), game_file.seating("scripted"))
    finally:
        games.close()
    summary = json.loads(result.stdout)
    assert (summary["winner"], summary["events"]) == (record.game.winner.value, len(record.events))


def test_cli_script_with_an_illegal_answer_fails_cleanly(tmp_path: Path) -> None:
    script = tmp_path / "bad.yaml"
    script.write_text(
        "board: 8-arena\nseed: 1\n"
        "deal: [werewolf, werewolf, villager, villager, villager, villager, seer, guard]\n"
        "decisions:\n  n1:wolves:P01: P05\n  n1:seer: P07\n"  # the Seer checking herself
    )
    # Found before the game starts: nothing is narrated, nothing is saved.
    assert_user_error(
        cli("play", "--script", script, "--db", tmp_path / "g.db"), "not legal", "P07"
    )
    assert not (tmp_path / "g.db").exists()
