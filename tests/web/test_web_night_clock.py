"""The length of a night, as the public stream shows it, says nothing about whether a human
holds a night role (docs/security.md, nodes/night_clock.py).

Games on one server with the night clock on: a human at P01 who is a wolf in some and a
villager in the others, answering every question after the same delay, the other seats
random. A spectator times each night from its fall to dawn on the public stream. The wolf
was asked at night and took its delay each time, the villager was never asked: without the
clock the wolves' nights would be longer by about that delay. With it, both last the
clock's minimum."""

import json
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from statistics import mean, median

import httpx
import pytest
from langgraph_sdk import get_sync_client

from autowerewolf.rules.config import BOARDS
from autowerewolf.web.server_games import GAME_TAG, GRAPH_ID, RUN_OPTIONS
from tests.fixed import HEX_SECRET
from tests.web.conftest import Server, running_server, token_of

pytestmark = [pytest.mark.slow, pytest.mark.webslow]
CALL_S = 1.0  # per night role: 12-A calls four (wolves, seer, witch, guard)
ANSWER_DELAY_S = 0.5  # the human's thinking time, at night as by day
# (wolf game's seed, villager game's seed), played two at a time so both see the same
# load; with the tests' fixed secret the human wolf lives through nights 2 (seed 100) and
# 2-3 (seed 104): night 1 passes before the spectator has the link.
PAIRS = ((100, 100), (104, 101))
WOLF_DEAL = ["werewolf"] * 4 + ["villager"] * 4 + ["seer", "witch", "hunter", "guard"]
VILLAGER_DEAL = [
    "villager",
    *["werewolf"] * 4,
    *["villager"] * 3,
    "seer",
    "witch",
    "hunter",
    "guard",
]


@dataclass
class Watched:
    game: str
    human_role: str
    nights: dict[int, float] = field(default_factory=dict)  # night -> its length
    answered_at_night: set[int] = field(default_factory=set)


def start(server: Server, deal: list[str], seed: int) -> str:
    client = get_sync_client(url=server.url, headers={"Authorization": f"Bearer {server.owner}"})
    thread = client.threads.create(metadata={**GAME_TAG, "graph_id": GRAPH_ID}, graph_id=GRAPH_ID)
    game_input = {
        "setup": {"board": "12-A", "seed": seed, "deal": deal, "secret": HEX_SECRET},
        "seating": {"default": "random", "seats": {"P01": "human"}},
    }
    client.runs.create(thread["thread_id"], GRAPH_ID, input=game_input, **RUN_OPTIONS)
    return str(thread["thread_id"])


def links_when_waiting(server: Server, game: str) -> dict[str, str]:
    """The game's links once it is saved and waits for its human (its first question)."""
    with server.client(server.owner) as owner:
        for _ in range(1200):
            header = owner.get(f"/aw/games/{game}")
            if header.status_code == 200 and header.json()["status"] == "waiting":
                links: dict[str, str] = header.json()["links"]
                return links
            time.sleep(0.1)
    raise AssertionError(f"game {game} never waited for its human")


def time_nights(server: Server, watched: Watched, spectator: str) -> None:
    """Each night's length on the public stream: from its fall to the next frame (dawn),
    for the nights that fall after the backlog (the spectator may join mid-night)."""
    fell: tuple[int, float] | None = None
    live = False
    headers = {"Authorization": f"Bearer {spectator}"}
    with httpx.stream("GET", f"{server.url}/aw/games/{watched.game}/events", headers=headers,
                      timeout=300) as stream:  # fmt: skip
        for line in stream.iter_lines():
            if line.startswith("event: end"):
                return
            live = live or line.startswith("event: ready")
            if not line.startswith("data:") or not live:
                continue
            events = json.loads(line[5:]).get("events", [])
            now = time.monotonic()
            if fell is not None and events:
                watched.nights[fell[0]] = now - fell[1]
                fell = None
            fell = next(((e["day"], now) for e in events if e["kind"] == "night_start"), fell)


def play_human(server: Server, watched: Watched, seat_token: str) -> None:
    with server.client(seat_token) as seat, server.client(server.owner) as owner:
        while owner.get(f"/aw/games/{watched.game}").json()["status"] != "finished":
            decision = seat.get(f"/aw/games/{watched.game}/decision").json()["decision"]
            if decision is None:
                time.sleep(0.05)
                continue
            time.sleep(ANSWER_DELAY_S)
            if decision["key"].startswith("n"):  # n<night>:<step>...
                watched.answered_at_night.add(int(decision["key"][1:].split(":")[0]))
            text = "I am thinking." if decision["text"] else ""
            option = decision["options"][0]["option"]
            seat.post(
                f"/aw/games/{watched.game}/answer",
                json={"key": decision["key"], "option": option, "text": text},
            )


def test_nights_last_as_long_with_a_human_wolf_as_with_a_human_villager(tmp_path: Path) -> None:
    assert len(WOLF_DEAL) == len(BOARDS["12-A"].roles)
    with running_server(tmp_path, tmp_path / "games.db", night_call_s=CALL_S) as server:
        watched: list[Watched] = []
        for wolf_seed, villager_seed in PAIRS:
            pair = [
                Watched(start(server, WOLF_DEAL, wolf_seed), "werewolf"),
                Watched(start(server, VILLAGER_DEAL, villager_seed), "villager"),
            ]
            workers: list[threading.Thread] = []
            for game in pair:
                links = links_when_waiting(server, game.game)
                for target, token in ((time_nights, "spectator"), (play_human, "P01")):
                    worker = threading.Thread(
                        target=target, args=(server, game, token_of(links[token]))
                    )
                    worker.start()
                    workers.append(worker)
            for worker in workers:
                worker.join(timeout=600)
            watched += pair
    # The wolf's nights where it took its delay, against the villager's nights.
    wolves = [t for w in watched for n, t in w.nights.items() if n in w.answered_at_night]
    villagers = [t for w in watched if w.human_role == "villager" for t in w.nights.values()]
    assert not any(w.answered_at_night for w in watched if w.human_role == "villager")
    assert len(wolves) >= 2 and len(villagers) >= 2, (wolves, villagers)
    minimum = 4 * CALL_S
    # The clock held (a frame delayed on its way to the spectator may shorten one night).
    assert median(wolves + villagers) >= minimum - 0.2
    # Without the clock the wolves' nights would be longer by the human's delay.
    assert abs(mean(wolves) - mean(villagers)) < ANSWER_DELAY_S / 2, (wolves, villagers)
