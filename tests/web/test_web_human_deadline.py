"""A human seat's deadline (docs/usage.md, "The web app"): set in the lobby, it runs from when
the server sees the question waiting, whether or not the seat's page is open; at its end the
seat's seeded fallback answers, recorded as a fallback and a timeout, and the game goes on.
An answer in time is the seat's own; a form with a bad deadline is one error line."""

import time

import pytest

from autowerewolf.players.records import DecisionRecord
from autowerewolf.web.frames import all_records
from autowerewolf.web.humans import AnswerBox
from autowerewolf.web.reader import GameReader
from tests.fixed import HEX_SECRET
from tests.web.conftest import Server, token_of

pytestmark = pytest.mark.slow

DEADLINE_S = 2.0
FORM: dict[str, object] = {
    "seed": 5, "secret": HEX_SECRET, "default": "random", "seats": {"P03": "human"},
    "human_deadline_s": DEADLINE_S,
}  # fmt: skip


def p03_records(server: Server, game: str) -> list[DecisionRecord]:
    reader = GameReader(server.db)
    try:
        return [r for r in all_records(reader.steps(game)) if r.seat == "P03"]
    finally:
        reader.close()


def wait_records(server: Server, game: str, count: int, timeout_s: float = 60) -> None:
    end = time.monotonic() + timeout_s
    while len(p03_records(server, game)) < count:
        assert time.monotonic() < end, "the seat's answer was never recorded"
        time.sleep(0.1)


def test_a_silent_human_seat_times_out_and_the_game_goes_on(server: Server) -> None:
    made = server.create(FORM)
    game = str(made["game"])
    started = time.monotonic()
    wait_records(server, game, 1)
    assert time.monotonic() - started >= DEADLINE_S
    (late,) = p03_records(server, game)
    assert (late.player, late.fallback, late.valid, late.timeouts) == ("human", True, False, 1)
    assert late.latency_s == DEADLINE_S and late.option in late.options
    assert late.error == f"no answer within {DEADLINE_S:g} s"

    # The next question answered in time is the seat's own.
    links = made["links"]
    assert isinstance(links, dict)
    with server.client(token_of(links["P03"])) as seat:
        end = time.monotonic() + 30
        while (
            decision := seat.post(f"/aw/games/{game}/decision", json={}).json()["decision"]
        ) is None:
            assert time.monotonic() < end, "the seat was asked nothing after its timeout"
            time.sleep(0.05)
        assert 0 < decision["time_left_s"] <= DEADLINE_S  # the question card's clock
        option = decision["options"][0]["option"]
        answer = {
            "key": decision["key"],
            "option": option,
            "text": "Hm." if decision["text"] else "",
        }
        assert seat.post(f"/aw/games/{game}/answer", json=answer).is_success
    wait_records(server, game, 2)
    mine = p03_records(server, game)[1]
    assert (mine.fallback, mine.valid, mine.timeouts) == (False, True, 0)
    assert mine.key == decision["key"]


@pytest.mark.parametrize("bad", [0, -5, "soon", 10**6])
def test_a_bad_deadline_is_one_error_line(server: Server, bad: object) -> None:
    with server.client(server.owner) as owner:
        refused = owner.post("/aw/games", json={**FORM, "human_deadline_s": bad})
    assert refused.status_code == 400, refused.text
    message = refused.json()["detail"]
    assert "human_deadline_s" in message and "\n" not in message


def test_reading_the_time_left_starts_no_clock() -> None:
    # No GET changes state (docs/security.md): the question card's clock reads the time
    # left; only the server's deadline check starts it.
    box = AnswerBox()
    pending = {"id": "i1", "value": {"deadline_s": 30, "seats": {"P03": {}}}}
    assert box.time_left_s("g", pending) == 30.0
    time.sleep(0.05)
    assert box.time_left_s("g", pending) == 30.0
    assert box.time_left_s("g", {"id": "i2", "value": {"seats": {}}}) is None
    box._asked[("g", "i1")] = time.monotonic() - 10  # the deadline check started it 10 s ago
    assert 19.0 < (box.time_left_s("g", pending) or 0) <= 20.0
