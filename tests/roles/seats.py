"""Helpers that play a board's new role with every kind of seat: the CLI's batch, export and
report, a human seat answered by `resume`, an LLM seat on the fake server, a script and the
PettingZoo environment."""

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import yaml
from langchain_core.messages import BaseMessage

from autowerewolf.env import raw_env
from autowerewolf.rules.config import make_config
from autowerewolf.rules.engine import new_game
from autowerewolf.rules.events import Event, EventKind
from autowerewolf.rules.random_play import play_random_game
from autowerewolf.rules.roles import Role
from autowerewolf.runner import GameRecord
from tests.fakes.chat import legal_json
from tests.fixed import HEX_SECRET
from tests.graph.graph_helpers import cli, load_record, load_records


def random_powers(board: str, kind: EventKind, seeds: int) -> list[Event]:
    """The `kind` events of random games of `board` (seeds 0 to `seeds` - 1), each played to
    its end."""
    found = []
    for seed in range(seeds):
        state, events = play_random_game(make_config(board, seed=seed))
        assert state.is_over
        found += [e for e in events if e.kind is kind]
    return found


def heuristic_powers(
    records: list[GameRecord], kind: EventKind
) -> Iterator[tuple[GameRecord, Event, list[Event]]]:
    """Each `kind` event a heuristic seat caused, with its game and the speeches before it."""
    for record in records:
        assert record.game.is_over
        kinds = {r.seat: r.player for r in record.records}
        for i, e in enumerate(record.events):
            if e.kind is kind and kinds.get(e.actor or "") == "heuristic":
                said = [s for s in record.events[:i] if s.kind is EventKind.SPEECH]
                yield record, e, said


def scripted_game(board: str, deal: list[str], decisions: dict[str, Any], tmp: Path) -> GameRecord:
    """The game `play --script` plays from a seed-5 script of `deal` and `decisions`."""
    path = tmp / "script.yaml"
    script = {"board": board, "seed": 5, "deal": deal, "decisions": decisions}
    path.write_text(yaml.safe_dump(script))
    db = tmp / "s.db"
    played = cli("play", "--script", path, "--game-id", "s", "--db", db)
    assert played.exit_code == 0, played.stderr
    record = load_record(db, "s")
    assert record.game.is_over
    return record


def batch_export_report(board: str, players: str, games: int, tmp: Path) -> list[GameRecord]:
    """Play `games` games of `board` with `players` seats (P01 and P07 random: a report
    compares two contestants), export them and report on them; the played games."""
    db = tmp / "games.db"
    played = cli(
        "batch", "--board", board, "--players", players, "--seat", "P01=random",
        "--seat", "P07=random", "--games", games, "--db", db,
        "--secret", HEX_SECRET, "--seed-start", 16,  # the same games every run, some with duels
    )  # fmt: skip
    assert played.exit_code == 0, played.stderr
    exported = cli("export", db, "--out", tmp / "export")
    assert exported.exit_code == 0, exported.stderr
    records = list(load_records(db).values())
    lines = (tmp / "export" / "events.jsonl").read_text().splitlines()
    assert len(lines) == sum(len(r.events) for r in records)
    reported = cli("report", db, "--out", tmp / "report", "--no-gte")
    assert reported.exit_code == 0, reported.stderr
    assert (tmp / "report" / "report.md").is_file()
    return records


def seat_of_role(board: str, seed: int, secret: str, role: Role) -> str:
    state, _ = new_game(make_config(board, seed=seed, secret=secret))
    return next(s.id for s in state.seats if s.role is role)


def human_game(
    board: str, seed: int, secret: str, seat: str, choose: Callable[[list[str]], str], tmp: Path
) -> GameRecord:
    """A CLI game of random seats with `seat` human, answered by `resume` with `choose`."""
    db = tmp / "human.db"
    started = cli(
        "play", "--board", board, "--players", "random", "--seed", seed, "--secret", secret,
        "--seat", f"{seat}=human", "--game-id", "h", "--db", db,
    )  # fmt: skip
    assert started.exit_code == 0, started.stderr
    record = load_record(db, "h")
    for _ in range(200):
        if record.status != "waiting":
            break
        option = choose(record.interrupts[-1]["seats"][seat]["options"])
        resumed = cli(
            "resume", "h", "--answer", f"{seat}={option}", "--say", f"{seat}=I am good.",
            "--db", db,
        )  # fmt: skip
        assert resumed.exit_code == 0, resumed.stderr
        record = load_record(db, "h")
    assert record.status == "finished"
    return record


def preferring(*words: str) -> Callable[[list[str]], str]:
    """An answer that takes the first of `words` it may, else the first legal option."""

    def choose(options: list[str]) -> str:
        return next((w for w in words if w in options), options[0])

    return choose


def llm_preferring(*words: str) -> Callable[[list[BaseMessage], dict[str, Any]], str]:
    """A fake chat model's answer taking the first of `words` it may, else the first legal
    choice (tests/fakes/chat.py `legal_json`)."""

    def respond(messages: list[BaseMessage], schema: dict[str, Any]) -> str:
        answer = json.loads(legal_json(messages, schema))
        enum = schema.get("properties", {}).get("choice", {}).get("enum", ())
        wanted = next((w for w in words if w in enum), None)
        if wanted is not None:
            answer["choice"] = wanted
        return json.dumps(answer)

    return respond


def env_game(board: str, seed: int, *words: str) -> list[Event]:
    """A PettingZoo game of `board` in which every agent takes the first of `words` it may,
    else its first legal action; the game's events."""
    werewolf = raw_env(board, text_observations=False)
    werewolf.reset(seed=seed)
    names = werewolf.table.actions.names
    for _agent in werewolf.agent_iter():
        obs, _reward, terminated, truncated, info = werewolf.last()
        if terminated or truncated:
            werewolf.step(None)
            continue
        wanted = next((w for w in words if w in info["options"]), None)
        legal = int(obs["action_mask"].nonzero()[0][0])
        werewolf.step(names.index(wanted) if wanted is not None else legal)
    assert werewolf.table.game.is_over
    return list(werewolf.table.events)
