"""A human seat: one interrupt per decision, answered by resume (Games and CLI)."""

from pathlib import Path

import pytest
from langgraph.types import Command

from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.engine import pending_decision
from autowerewolf.rules.random_play import play_random_game, random_action
from autowerewolf.rules.rng import seat_seed
from autowerewolf.runner import GameError, Games
from tests.fixed import HEX_SECRET, SECRET
from tests.graph.graph_helpers import (
    assert_user_error,
    cli,
    first_option_answers,
    flat,
    load_record,
    new_games,
)

SETUP = GameSetup(secret=SECRET, board="12-A", seed=13)  # P03 is asked only a handful of times
HUMAN = Seating(seats={"P03": "human"})


def test_human_seat_waits_is_reasked_and_finishes(db: Path) -> None:
    games = new_games(db)
    record = games.start("h", SETUP, HUMAN)
    assert record.status == "waiting"
    (pending,) = record.interrupts
    assert set(pending) >= {"id", "key", "step", "seats"} and list(pending["seats"]) == ["P03"]
    prompt = pending["seats"]["P03"]
    assert prompt["seat"] == "P03" and prompt["role"] == record.game.seat("P03").role.value
    assert prompt["options"] == list(pending_decision(record.game).options["P03"])
    assert prompt["transcript"] and all(isinstance(line, str) for line in prompt["transcript"])
    roles_told = [line for line in prompt["transcript"] if "role is" in line]
    assert len(roles_told) == 1 and "Your role is" in roles_told[0]  # its own, and no other
    key, events_before = pending["key"], len(record.events)

    with pytest.raises(GameError, match="waits for human seat"):
        games.resume("h")
    # An illegal answer is refused with the reason before anything runs.
    with pytest.raises(GameError, match="not legal"):
        games.resume("h", {"P03": "bogus"})
    with pytest.raises(GameError, match="not waiting"):
        games.resume("h", {"P03": "run", "P05": "run"})
    # Sent straight to the graph (as a LangGraph API client would), it is asked again with
    # the reason; nothing moves on.
    games.graph.invoke(
        Command(resume={"P03": "bogus"}), games.run_config("h"), context=games.context
    )
    again = games.load("h")
    assert again.status == "waiting" and again.interrupts[-1]["key"] == key
    assert "not legal" in again.interrupts[-1]["errors"]["P03"]
    assert len(again.events) == events_before and again.game.ply == record.game.ply
    games.graph.invoke(
        Command(resume={"P03": {"text": "no option"}}), games.run_config("h"), context=games.context
    )
    again = games.load("h")
    assert "option" in again.interrupts[-1]["errors"]["P03"]

    asked, record = [], again
    while record.status == "waiting":
        if len(asked) == 2:  # carry on from a fresh Games, as a new process would
            games.close()
            games = Games(db)
        asked.append(record.interrupts[-1]["key"])
        record = games.resume("h", first_option_answers(record))
    games.close()

    assert record.status == "finished" and record.game.is_over
    human = [r for r in record.records if r.seat == "P03"]
    assert [r.key for r in human] == asked and len(asked) >= 3
    assert all(r.player == "human" and r.option == r.options[0] for r in human)
    assert len(set(asked)) == len(asked)  # one interrupt per decision


def test_human_answering_like_random_plays_the_random_game(games: Games) -> None:
    """Interrupt and resume do not disturb the game: a human who answers what the random
    player would have answered produces the engine's random game, event for event."""
    record = games.start("like-random", SETUP, HUMAN)
    rounds = 0
    while record.status == "waiting":
        decision = pending_decision(record.game)
        assert decision is not None
        options = decision.options["P03"]
        action = random_action(seat_seed(SETUP.seed, "P03"), decision.key, options, "P03")
        record = games.resume(
            "like-random", {"P03": {"option": action.option, "text": action.text}}
        )
        rounds += 1
    assert rounds >= 3
    final, events = play_random_game(SETUP.build())
    assert record.events == events and record.game == final


def test_cli_human_seat_resumed_with_answers(tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    # A fixed secret (P03 is asked 6 times and speaks twice): a fresh one may ask P03 more often
    # than the loop below answers, or end P03's game before it speaks.
    result = cli(
        "play", "--players", "random", "--seed", 13, "--secret", HEX_SECRET, "--seat",
        "P03=human", "--game-id", "hc", "--db", db,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "waits for human seat(s) P03" in flat(result.stdout)

    assert_user_error(cli("resume", "hc", "--db", db), "waits for human seat(s) P03")
    # An illegal answer, or one for a seat that is not waiting: refused, the game unchanged.
    before = load_record(db, "hc")
    assert_user_error(cli("resume", "hc", "--answer", "P03=P99", "--db", db), "not legal")
    assert_user_error(cli("resume", "hc", "--answer", "P04=P01", "--db", db), "not waiting")
    record = load_record(db, "hc")
    assert record.game == before.game and record.interrupts == before.interrupts

    for _ in range(30):
        option = record.interrupts[-1]["seats"]["P03"]["options"][0]
        result = cli(
            "resume", "hc", "--answer", f"P03={option}", "--say", "P03=I am a villager.",
            "--db", db,
        )  # fmt: skip
        assert result.exit_code == 0, result.stderr
        record = load_record(db, "hc")
        if record.status != "waiting":
            break
    assert record.status == "finished"
    assert "Winner:" in flat(result.stdout) and "Game id: hc" in flat(result.stdout)
    speeches = [r for r in record.records if r.seat == "P03" and r.option == "speak"]
    assert speeches and all(r.text == "I am a villager." for r in speeches)
    # Resuming a finished game is refused in one line; the game is unchanged.
    assert_user_error(cli("resume", "hc", "--db", db, "--json"), "already over")
