"""Humans on the rating board (issue 25): the owner starts a tournament file's games in the
lobby's API, a named human contestant's seats are answered through their links (the API
the seat page uses), and `autowerewolf report --tournament` rates the human by name beside
the programs, with the same columns (games, interval) as every contestant."""

import csv
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from autowerewolf.cli import app
from autowerewolf.runner import Games
from tests.fixed import HEX_SECRET
from tests.web.conftest import Server, token_of

# Every team block pits one program against alice, who holds a whole camp: 4 games, in
# each of which she plays (balanced: both pairs once, each camp once per pair).
TOURNAMENT = f"""
name: people
board: 8-arena
games: 4
seed: 3
secret: {HEX_SECRET}
mixed_share: 0
baseline: alice
bootstrap: 200
contestants:
  - {{name: alice, kind: human}}
  - {{name: heuristic, kind: heuristic}}
  - {{name: random, kind: random}}
"""
# The server's model seats play on its --models, not on the file's.
OVERRIDDEN = """
name: overridden
contestants:
  - {name: alice, kind: human}
  - {name: warm, kind: llm, model: {temperature: 0.9}}
"""
PLAY_TIMEOUT_S = 240


def start(server: Server, body: dict[str, Any]) -> httpx.Response:
    with server.client(server.owner) as owner:
        return owner.post("/aw/tournaments", json=body)


def play_human_seats(server: Server, game: dict[str, Any]) -> int:
    """Each human seat of the game answers its first legal option (a speech where one is
    asked) through its own link until the game is finished; the answers given."""
    seats = {seat: server.client(token_of(game["links"][seat])) for seat in game["humans"]}
    answered, deadline = 0, time.monotonic() + PLAY_TIMEOUT_S
    try:
        with server.client(server.owner) as owner:
            while owner.get(f"/aw/games/{game['game']}").json()["status"] != "finished":
                assert time.monotonic() < deadline, f"game {game['planned']} did not finish"
                for seat, client in seats.items():
                    asked = client.get(f"/aw/games/{game['game']}/decision").json()["decision"]
                    if asked is None:
                        continue
                    option = asked["options"][0]["option"]
                    text = f"{seat} has a feeling." if asked["text"] else ""
                    reply = client.post(
                        f"/aw/games/{game['game']}/answer",
                        json={"key": asked["key"], "option": option, "text": text},
                    )
                    assert reply.status_code == 200, reply.text
                    answered += 1
                time.sleep(0.05)
    finally:
        for client in seats.values():
            client.close()
    return answered


@pytest.mark.long
def test_a_named_human_plays_a_tournament_and_is_rated_beside_the_programs(
    server: Server, tmp_path: Path
) -> None:
    first = start(server, {"file": TOURNAMENT, "games": 3, "link_hours": 2})
    assert first.status_code == 201, first.text
    made = first.json()
    assert (made["tournament"], made["planned"], made["started_before"]) == ("people", 4, 0)
    # Starting the file again continues it: the one game left, then none.
    rest = start(server, {"file": TOURNAMENT, "games": 5})
    assert rest.status_code == 201, rest.text
    assert rest.json()["started_before"] == 3 and len(rest.json()["started"]) == 1
    again = start(server, {"file": TOURNAMENT})
    assert again.status_code == 200 and again.json()["started"] == []
    # The same name with another design would mix two designs' games: refused.
    edited = start(server, {"file": TOURNAMENT.replace("seed: 3", "seed: 4")})
    assert edited.status_code == 400 and "played with another design" in edited.json()["detail"]
    started = made["started"] + rest.json()["started"]
    assert [g["planned"] for g in started] == [f"people-0000{i}" for i in range(4)]
    for game in started:
        # A team block: alice holds a whole camp, every seat of it a human seat with a link.
        assert set(game["humans"].values()) == {"alice"} and len(game["humans"]) in (2, 6)
        assert set(game["links"]) == {*game["humans"], "spectator"}

    with ThreadPoolExecutor(max_workers=len(started)) as pool:  # as four people would
        assert all(n > 0 for n in pool.map(lambda g: play_human_seats(server, g), started))

    games = Games(server.db, readonly=True)
    try:
        record = games.load(started[0]["game"])
    finally:
        games.close()
    assert record.seating.tournament == "people"
    assert {record.seating.contestants[s] for s in started[0]["humans"]} == {"alice"}
    assert {s.player for s in record.records if s.seat in started[0]["humans"]} == {"human"}

    out = tmp_path / "report"
    result = CliRunner().invoke(
        app, ["report", str(server.db), "--tournament", "people", "--out", str(out), "--no-gte"]
    )
    assert result.exit_code == 0, result.output
    assert "alice" in result.output and "bootstrap seed 3, 200 resamples" in result.output
    ratings = json.loads((out / "metrics.json").read_text())["ratings"]["bradley_terry"]
    skills = {s["contestant"]: s for s in ratings["skills"]}
    assert set(skills) == {"alice", "heuristic", "random"}
    assert (skills["alice"]["games"], skills["heuristic"]["games"]) == (4, 2)
    assert skills["alice"]["lo"] <= skills["alice"]["skill"] <= skills["alice"]["hi"]
    with (out / "ratings.csv").open() as f:
        rows = {r["contestant"]: r for r in csv.DictReader(f)}
    assert rows["alice"]["games"] == "4"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"file": "name: [unclosed"}, "bad YAML in tournament file"),
        ({"file": "name: x\ncontestants: [{name: a, kind: robot}]"}, "tournament file:"),
        ({"file": TOURNAMENT, "games": 0}, "games must be how many"),
        ({"file": TOURNAMENT, "colour": "red"}, "unknown field 'colour'"),
        ({"file": OVERRIDDEN}, "own --models; remove 'warm''s `model`"),
        ({}, 'a tournament starts from {"file"'),
    ],
)
def test_a_bad_tournament_file_is_one_clear_line_and_starts_nothing(
    server: Server, body: dict[str, Any], message: str
) -> None:
    with server.client(server.owner) as owner:
        before = owner.post("/threads/count", json={}).json()
        response = owner.post("/aw/tournaments", json=body)
        assert owner.post("/threads/count", json={}).json() == before
    assert response.status_code == 400, response.text
    detail = response.json()["detail"]
    assert message in detail and "\n" not in detail
