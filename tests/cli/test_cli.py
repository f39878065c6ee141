"""The command line: bad input gives exit code 2 and one line, the view commands, batch."""

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.engine import pending_decision
from autowerewolf.rules.random_play import play_random_game
from autowerewolf.runner import Games
from tests.fixed import HEX_SECRET
from tests.graph.graph_helpers import assert_user_error, cli, flat, new_games, start_random

SEED = 108  # a short 12-A game


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Games]]:
    """A database with one finished random 12-A game, `g`."""
    db = tmp_path_factory.mktemp("cli") / "games.db"
    games = new_games(db)
    start_random(games, "g", seed=SEED)
    yield db, games
    games.close()


def _bytes(path: Path) -> bytes:
    return path.read_bytes()


# ---- bad input ----------------------------------------------------------------------------


def test_unknown_game_id(saved: tuple[Path, Games]) -> None:
    db, _ = saved
    for args in (["resume", "nope"], ["inspect", "nope"], ["history", "nope"],
                 ["replay", "nope"], ["fork", "nope", "--step", "1"]):  # fmt: skip
        assert_user_error(cli(*args, "--db", db), "no game 'nope'")


def test_missing_database(tmp_path: Path) -> None:
    missing = tmp_path / "missing.db"
    for args in (["games"], ["resume", "g"], ["inspect", "g"], ["replay", "g"]):
        assert_user_error(cli(*args, "--db", missing), "no game database")
    assert not missing.exists()


@pytest.mark.parametrize(
    "content",
    [b"just some text, not a database\n", b"SQLite format 3\x00" + b"garbage" * 200],
    ids=["text", "bad-sqlite"],
)
def test_corrupt_database_is_refused_and_left_alone(tmp_path: Path, content: bytes) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(content)
    for args in (["games"], ["play", "--players", "random", "--seed", "1"], ["resume", "g"],
                 ["batch", "--games", "1", "--players", "random"]):  # fmt: skip
        assert_user_error(cli(*args, "--db", bad), "bad.db")
    assert bad.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.db"]  # no -wal/-shm either


def test_directory_as_database(tmp_path: Path) -> None:
    assert_user_error(cli("games", "--db", tmp_path), "directory")


def test_invalid_config_files(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    cases = {
        "broken.yaml": ("board: [12-A\n", "bad YAML in"),
        "unknown.yaml": ("board: 12-A\nboardz: 1\n", "boardz: unknown field"),
        "list.yaml": ("- 1\n- 2\n", "must hold a mapping"),
        "badseed.json": ('{"seed": "abc"}', "seed"),
        "baddeal.yaml": ("deal: {P01: werewolf}\n", "deal"),
        "badroles.yaml": ("roles: [werewolf, wizard]\n", "unknown role 'wizard'"),
    }
    for name, (text, fragment) in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        assert_user_error(cli("play", "--config", path, "--db", db), fragment)
    assert_user_error(cli("play", "--config", tmp_path / "absent.yaml", "--db", db), "not found")
    assert not db.exists()  # nothing is created for a game that cannot start


def test_bad_flags(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    play = ("play", "--players", "random", "--db", db)
    assert_user_error(cli(*play, "--variant", "no_such_flag=true"), "unknown rule flag")
    assert_user_error(cli(*play, "--variant", "sheriff_vote_weight=lots"), "sheriff_vote_weight")
    assert_user_error(cli(*play, "--variant", "missing-equals"), "KEY=VALUE")
    assert_user_error(cli(*play, "--board", "13-Z"), "unknown board '13-Z'")
    assert_user_error(cli(*play, "--seat", "P03=wizard"), "wizard")
    assert_user_error(
        cli("batch", "--players", "random", "--seat", "P01=human", "--db", db), "human"
    )
    assert not db.exists()


def test_bad_fork_requests(saved: tuple[Path, Games]) -> None:
    db, games = saved
    before = [s.config["configurable"]["checkpoint_id"] for s in games.history("g")]
    assert_user_error(cli("fork", "g", "--step", 999, "--db", db), "no step 999")
    assert_user_error(cli("fork", "g", "--step", -1, "--db", db), "no step -1")
    # Step 0 is the first wolf's proposal.
    assert_user_error(cli("fork", "g", "--step", 0, "--set", "garbage", "--db", db), "KEY=VALUE")
    assert_user_error(
        cli("fork", "g", "--step", 0, "--set", "P01.exile_vote=P02", "--db", db), "wolves"
    )
    first_wolf = next(iter(pending_decision(games.at_ply("g", 0).game).options))
    assert_user_error(
        cli("fork", "g", "--step", 0, "--set", f"{first_wolf}.wolves=P99", "--db", db),
        "not legal",
    )
    assert_user_error(
        cli("fork", "g", "--step", 0, "--set", "P99.wolves=P01", "--db", db), "no decision"
    )
    assert_user_error(cli("fork", "g", "--step", 1, "--new-id", "g", "--db", db), "already exists")
    assert games.ids() == ["g"]
    assert [s.config["configurable"]["checkpoint_id"] for s in games.history("g")] == before


# ---- views ----------------------------------------------------------------------------------


def test_games_lists_status(saved: tuple[Path, Games]) -> None:
    db, games = saved
    result = cli("games", "--db", db)
    assert result.exit_code == 0, result.stderr
    row = next(line for line in result.stdout.splitlines() if " g " in line)
    record = games.load("g")
    assert "12-A" in row and "finished" in row and str(record.game.ply) in row
    assert record.game.winner.value in row


def test_inspect_at_a_step(saved: tuple[Path, Games]) -> None:
    db, games = saved
    result = cli("inspect", "g", "--step", 0, "--db", db)
    assert result.exit_code == 0, result.stderr
    out = flat(result.stdout)
    assert "step 0, day 1, wolves" in out and "Pending: n1:wolves:" in out
    roles = {s.id: s.role.value for s in games.load("g").game.seats}
    assert all(role in out for role in roles.values())  # omniscient view shows roles
    public = flat(cli("inspect", "g", "--step", 0, "--as", "public", "--db", db).stdout)
    assert "werewolf" not in public and "Pending: n1:wolves:" in public
    assert not any(f"{seat}: P" in public for seat in roles)  # who is asked stays hidden
    last = flat(cli("inspect", "g", "--db", db).stdout)
    assert "Winner:" in last and "(finished)" in last
    assert_user_error(cli("inspect", "g", "--as", "P77", "--db", db), "--as")


def test_history_lists_every_step(saved: tuple[Path, Games]) -> None:
    db, games = saved
    result = cli("history", "g", "--db", db)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    ply = games.load("g").game.ply
    assert "n1:wolves:" in out and "d1:exile_vote:r1" in out and "game_over" in out
    ids = [s.config["configurable"]["checkpoint_id"] for s in games.history("g")]
    assert len(ids) == ply + 2
    assert all(cid[:8] in out for cid in ids)


def test_replay_by_audience(saved: tuple[Path, Games]) -> None:
    db, games = saved
    record = games.load("g")
    outputs = {}
    for audience in ("public", "P03", "omniscient"):
        result = cli("replay", "g", "--as", audience, "--db", db)
        assert result.exit_code == 0, result.stderr
        outputs[audience] = flat(result.stdout)
    (public, public_end), (p03, p03_end) = (
        outputs[a].split("The moderator reveals:") for a in ("public", "P03")
    )
    everything = outputs["omniscient"]
    # The game is over: after its transcript the moderator reveals the deal and the nights
    # to every audience (what the seat saw already is not repeated).
    assert "Roles:" in public_end and "Roles:" in p03_end and " dies: " in public_end
    assert "The moderator reveals:" not in everything

    assert "role is" not in public and " dies: " not in public and "Roles:" not in public
    assert "[wolves]" not in public and "[seer" not in public and "Game over" in public
    assert p03.count("role is") == 1 and "Your role is" in p03
    assert " dies: " not in p03 and "Roles:" not in p03
    p03_is_wolf = record.game.seat("P03").is_wolf
    assert ("[wolves]" in p03) == p03_is_wolf
    assert everything.count("'s role is") == 12 and "Roles:" in everything
    assert everything.count(" dies: ") == sum(1 for s in record.game.seats if not s.alive)
    assert len(public) < len(p03) < len(everything)
    assert len(public_end) >= len(p03_end)
    assert_user_error(cli("replay", "g", "--as", "wolves", "--db", db), "--as")


# ---- batch ----------------------------------------------------------------------------------


@pytest.mark.long
def test_batch_then_rerun_continues_and_skips(tmp_path: Path) -> None:
    db = tmp_path / "batch.db"
    args = ["batch", "--games", 4, "--concurrency", 2, "--players", "random",
            "--board", "8-arena", "--secret", HEX_SECRET, "--db", db]  # fmt: skip
    first = subprocess.run(
        [sys.executable, "-c", "from autowerewolf.cli import app; app()", *map(str, args)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert first.returncode == 0, first.stderr
    assert "Traceback" not in first.stderr

    games = Games(db)
    try:
        assert games.ids() == ["batch-0", "batch-1", "batch-2", "batch-3"]
        finished = {i: games.load(i) for i in games.ids()}
        assert all(r.status == "finished" for r in finished.values())
        for seed, record in enumerate(finished.values()):
            _, events = play_random_game(
                GameSetup(secret=HEX_SECRET, board="8-arena", seed=seed).build()
            )
            assert record.events == events
        # Leave a fifth game half-played, as a killed batch would.
        stream = games.graph.stream(
            {"setup": GameSetup(secret=HEX_SECRET, board="8-arena", seed=4), "seating": Seating()},
            games.run_config("batch-4"),
            context=games.context,
            durability="sync",
            stream_mode="updates",
        )
        for n, _ in enumerate(stream):
            if n == 10:
                break
        stream.close()
        assert games.load("batch-4").status == "unfinished"
        history_before = {i: len(list(games.history(i))) for i in finished}
    finally:
        games.close()

    # In-process this time, one game at a time (no process pool forked from the test run).
    again = cli("batch", "--games", 5, "--concurrency", 1, *args[5:])
    assert again.exit_code == 0, again.stderr
    assert "already finished: 4" in flat(again.stdout)

    games = Games(db)
    try:
        assert games.ids() == [f"batch-{i}" for i in range(5)]
        assert all(games.load(i).status == "finished" for i in games.ids())
        _, events = play_random_game(GameSetup(secret=HEX_SECRET, board="8-arena", seed=4).build())
        assert games.load("batch-4").events == events
        # The finished games were skipped, not replayed.
        assert {i: len(list(games.history(i))) for i in finished} == history_before
    finally:
        games.close()
    listing = cli("games", "--db", db)
    assert listing.exit_code == 0
    assert flat(listing.stdout).count("finished") == 5


def test_json_result_of_a_random_play(tmp_path: Path) -> None:
    result = cli("play", "--players", "random", "--board", "9-standard", "--seed", 4,
                 "--secret", HEX_SECRET, "--json", "--db", tmp_path / "g.db",
                 "--game-id", "j")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    final, events = play_random_game(
        GameSetup(secret=HEX_SECRET, board="9-standard", seed=4).build()
    )
    assert summary["winner"] == final.winner.value and summary["events"] == len(events)
    assert summary["days"] == final.day and summary["steps"] == final.ply


def test_a_bad_server_binary_stops_play_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AUTOWEREWOLF_LLAMA_SERVER", str(tmp_path / "no-such-server"))
    db = tmp_path / "g.db"
    assert_user_error(
        cli("play", "--narration", "off", "--db", db),
        "AUTOWEREWOLF_LLAMA_SERVER=",
        "no-such-server",
    )
