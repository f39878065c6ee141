"""Forks: a new game from a step of a finished one, with changed decisions or a new player
seed. The original game's history and final state never change."""

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.engine import apply, is_terminal, new_game, pending_decision
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.random_play import random_answers
from autowerewolf.runner import GameError, GameRecord, Games
from tests.fixed import SECRET
from tests.graph.graph_helpers import cli, new_games, of_kind, start_random

SEED = 108  # a short 12-A game (40 steps) with a Day-1 exile vote at step 32
EXILE_KEY = "d1:exile_vote:r1"


def decision_plies(board: str, seed: int) -> dict[str, int]:
    """The step at which each decision of the seeded random game is asked (rules only)."""
    state, _ = new_game(GameSetup(secret=SECRET, board=board, seed=seed).build())
    plies: dict[str, int] = {}
    while not is_terminal(state):
        decision = pending_decision(state)
        if decision is not None:
            plies.setdefault(decision.key, state.ply)
        state, _ = apply(state, random_answers(seed, decision) if decision else {})
    return plies


def snapshot_of(games: Games, game_id: str) -> tuple[list[str], GameRecord]:
    ids = [s.config["configurable"]["checkpoint_id"] for s in games.history(game_id)]
    return ids, games.load(game_id)


@pytest.fixture(scope="module")
def exile_ply() -> int:
    return decision_plies("12-A", SEED)[EXILE_KEY]


@pytest.fixture
def forked(tmp_path: Path) -> Iterator[tuple[Games, GameRecord]]:
    games = new_games(tmp_path / "fork.db")
    original = start_random(games, "orig", seed=SEED)
    assert original.status == "finished"
    yield games, original
    games.close()


def test_fork_without_changes_replays_the_same_game(
    forked: tuple[Games, GameRecord], exile_ply: int
) -> None:
    games, original = forked
    branch = games.fork("orig", exile_ply, "same")
    assert branch.status == "unfinished" and branch.game.ply == exile_ply
    assert pending_decision(branch.game).key == EXILE_KEY
    done = games.resume("same")
    assert done.status == "finished"
    assert done.events == original.events and done.game == original.game
    assert done.records == original.records


def test_fork_with_changed_votes_continues_differently(
    forked: tuple[Games, GameRecord], exile_ply: int
) -> None:
    games, original = forked
    before = snapshot_of(games, "orig")
    at_fork = games.at_ply("orig", exile_ply)
    decision = pending_decision(at_fork.game)
    assert decision is not None and decision.key == EXILE_KEY
    (exiled,) = [e.target for e in of_kind(original.events, EventKind.EXILE, day=1)]
    target = next(
        s.id for s in at_fork.game.seats
        if s.alive and s.is_wolf and s.id != exiled and s.id in decision.options
    )  # fmt: skip
    overrides = {
        voter: target if target in options else next(o for o in options if o.startswith("P"))
        for voter, options in decision.options.items()
    }
    games.fork("orig", exile_ply, "changed", overrides)
    changed = games.resume("changed")

    assert changed.status == "finished"
    assert [e.target for e in of_kind(changed.events, EventKind.EXILE, day=1)] == [target]
    ballots = {
        e.actor: e.target for e in of_kind(changed.events, EventKind.BALLOT, day=1)
        if e.value == "exile"
    }  # fmt: skip
    assert ballots == overrides
    forced = [r for r in changed.records if r.key == EXILE_KEY]
    assert {r.seat for r in forced} == set(overrides) and {r.player for r in forced} == {"override"}
    # Same past, different future.
    assert changed.events[: len(at_fork.events)] == at_fork.events
    assert changed.events != original.events
    # The original game is untouched: same checkpoints, same final state.
    assert snapshot_of(games, "orig") == before
    assert games.load("orig").status == "finished"


def test_fork_with_a_new_player_seed(forked: tuple[Games, GameRecord], exile_ply: int) -> None:
    games, original = forked
    before = snapshot_of(games, "orig")
    games.fork("orig", exile_ply, "reseeded", player_seed=12345)
    reseeded = games.resume("reseeded")
    assert reseeded.status == "finished" and reseeded.seating.player_seed == 12345
    prefix = len(games.at_ply("orig", exile_ply).events)
    assert reseeded.events[:prefix] == original.events[:prefix]
    assert reseeded.events != original.events
    assert reseeded.game.config == original.game.config  # same deal and rules, other choices
    assert snapshot_of(games, "orig") == before


def test_fork_from_the_first_step(forked: tuple[Games, GameRecord]) -> None:
    games, original = forked
    games.fork("orig", 0, "from-start")
    assert games.resume("from-start").events == original.events


def test_fork_refuses_bad_requests(forked: tuple[Games, GameRecord], exile_ply: int) -> None:
    games, _ = forked
    with pytest.raises(GameError, match="no step 999"):
        games.fork("orig", 999, "x")
    with pytest.raises(GameError, match="no game 'nope'"):
        games.fork("nope", 1, "x")
    with pytest.raises(GameError, match="already exists"):
        games.fork("orig", 1, "orig")
    decision = pending_decision(games.at_ply("orig", exile_ply).game)
    voter = next(iter(decision.options))
    with pytest.raises(GameError, match="not legal"):
        games.fork("orig", exile_ply, "x", {voter: voter})  # nobody votes for themself
    with pytest.raises(GameError, match="no decision to make"):
        games.fork("orig", 0, "x", {"P99": "P01"})
    assert not games.exists("x")


def test_cli_fork_with_set_and_with_seed(tmp_path: Path, exile_ply: int) -> None:
    db = tmp_path / "cli.db"
    games = new_games(db)
    try:
        original = start_random(games, "orig", seed=SEED)
        before = snapshot_of(games, "orig")
        decision = pending_decision(games.at_ply("orig", exile_ply).game)
    finally:
        games.close()
    voter, options = next(iter(decision.options.items()))
    choice = options[-2]  # a seat, not "abstain"

    result = cli(
        "fork", "orig", "--step", exile_ply, "--set", f"{voter}.exile_vote={choice}",
        "--new-id", "cli-set", "--db", db, "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["game_id"] == "cli-set" and summary["finished"] is True
    ballot = next(
        b for b in summary["ballots"]
        if b["day"] == 1 and b["vote"] == "exile" and b["voter"] == voter
    )  # fmt: skip
    assert ballot["target"] == choice

    result = cli("fork", "orig", "--step", exile_ply, "--seed", 777, "--db", db, "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["game_id"] == f"orig-fork{exile_ply}"

    games = Games(db)
    try:
        assert snapshot_of(games, "orig") == before
        reseeded = games.load(f"orig-fork{exile_ply}")
        assert reseeded.seating.player_seed == 777 and reseeded.status == "finished"
        assert reseeded.events != original.events
        assert sorted(games.ids()) == ["cli-set", "orig", f"orig-fork{exile_ply}"]
    finally:
        games.close()
