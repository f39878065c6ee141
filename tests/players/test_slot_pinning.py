"""On the managed local server every seat's calls go to a slot of its own (llama.cpp's
`id_slot`, backends/local_server.py), or the slot of the view it shares with other seats
(the pack's, the villagers'): a prompt then stays cached from one of the slot's calls to the
next, whoever spoke in between; the rules text all seats share is computed
once and copied into each seat's slot (backends/slots.py). Played on the fake
OpenAI-compatible server standing in for llama-server; the cache reuse itself is checked on
the real server (tests/backends/test_backends_realmodel.py)."""

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Self

import pytest
from langchain_openai import ChatOpenAI

from autowerewolf.backends._process import free_port
from autowerewolf.backends.config import ModelConfig, PlayerModels
from autowerewolf.backends.factory import make_chat_model
from autowerewolf.backends.gate import GatedChatModel
from autowerewolf.backends.local_server import DEFAULT_IN_FLIGHT, DEFAULT_PARALLEL, LocalServer
from autowerewolf.backends.slots import SlotPrimer
from autowerewolf.graph.context import GameContext
from autowerewolf.players.factory import ModelPool, PlayerBuilder
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.roles import Role
from autowerewolf.runner import Games
from tests.fixed import HEX_SECRET
from tests.web.fake_model import _Handler, fake_model_server


class RunningAt(LocalServer):
    """The managed server, already serving at `port` (the fake model server)."""

    def __init__(self, port: int, parallel: int) -> None:
        super().__init__(parallel=parallel)
        self.port = port

    def start(self) -> Self:
        return self


def test_seats_that_share_a_view_share_a_slot_and_the_others_have_their_own(
    tmp_path: Path,
) -> None:
    slots: list[tuple[str, object]] = []
    with fake_model_server(slots=slots) as url:
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        models = PlayerModels(default=ModelConfig(backend="local", model="embedded"))
        pool = ModelPool(local=RunningAt(port, DEFAULT_PARALLEL))
        games = Games(
            tmp_path / "g.db", create=True, context=GameContext(PlayerBuilder(models, pool))
        )
        try:
            record = games.start("g", GameSetup(seed=1, secret=HEX_SECRET), Seating(default="llm"))
        finally:
            games.close()
    roles = {s.id: s.role for s in record.game.seats}
    called: dict[str, set[object]] = {}
    for seat, slot in slots:
        if seat.startswith("P"):
            called.setdefault(seat, set()).add(slot)
    assert set(called) == set(roles) and all(len(used) == 1 for used in called.values())
    slot_of = {seat: used.pop() for seat, used in called.items()}
    # The wolves are told the same things, and so are the villagers: one slot each, after
    # the twelve seat slots. The Seer, Witch, Guard and Hunter keep the slot of their seat.
    pack = {slot_of[s] for s, role in roles.items() if role is Role.WEREWOLF}
    villagers = {slot_of[s] for s, role in roles.items() if role is Role.VILLAGER}
    assert len(pack) == len(villagers) == 1 and pack | villagers == {12, 13}
    alone = {
        s: slot for s, slot in slot_of.items() if roles[s] not in (Role.WEREWOLF, Role.VILLAGER)
    }
    assert alone == {s: int(s[1:]) - 1 for s in alone} and len(alone) == 4
    # The rules text every seat's prompt starts with: computed once, in the spare slot, then
    # copied into every other slot before the game's first call.
    spare = DEFAULT_PARALLEL - 1
    assert slots[:2] == [("", spare), (f"/slots/{spare}?action=save", slots[1][1])]
    restores = [(f"/slots/{n}?action=restore", slots[1][1]) for n in range(spare)]
    assert slots[2 : 2 + spare] == restores and slots[2 + spare][0].startswith("P")
    assert len([p for p, _ in slots if "/slots/" in p]) == DEFAULT_PARALLEL


def test_seats_beyond_the_slots_share_them_in_turn_and_the_rest_has_the_last() -> None:
    pool = ModelPool(local=RunningAt(54321, parallel=6))  # 3 seat slots, 2 shared, 1 spare
    config = ModelConfig(backend="local", model="embedded")
    slots = [client(pool, config, seat).extra_body for seat in range(7)]
    assert [s["id_slot"] for s in slots] == [0, 1, 2, 0, 1, 2, 0]
    assert pool.chat(config, 4) is pool.chat(config, 1)  # one client per slot
    shared = [client(pool, config, view).extra_body for view in ("pack", "villager", "idiot")]
    assert [s["id_slot"] for s in shared] == [3, 4, 3]
    assert client(pool, config, "pack") is client(pool, config, "idiot")
    assert client(pool, config, None).extra_body == {"id_slot": 5}


def test_only_the_managed_server_is_pinned() -> None:
    # A server of the user's own (base_url) may have any number of slots, or none.
    own = ModelConfig(backend="local", model="qwen", base_url="http://127.0.0.1:8080/v1")
    api = ModelConfig(backend="api", model="gpt", base_url="http://127.0.0.1:8080/v1")
    pool = ModelPool(local=RunningAt(54321, parallel=3))
    for config in (own, api):
        chat = pool.chat(config, 2)
        assert isinstance(chat, ChatOpenAI) and chat.extra_body is None
        assert pool.chat(config, 2) is pool.chat(config, 0)
    managed = make_chat_model(ModelConfig(backend="local", model="qwen"), RunningAt(54321, 3))
    assert isinstance(managed, ChatOpenAI) and managed.extra_body is None


def client(pool: ModelPool, config: ModelConfig, seat: int | str | None) -> ChatOpenAI:
    """The OpenAI client behind a seat's model (the managed server's are gated)."""
    chat = pool.chat(config, seat)
    inner = chat.inner if isinstance(chat, GatedChatModel) else chat
    assert isinstance(inner, ChatOpenAI)
    return inner


def test_the_seats_of_a_simultaneous_decision_call_the_server_two_at_a_time() -> None:
    # Twelve requests at once took longer than two at a time on 2 cores (local_server.py).
    busy, most, lock = [0], [0], threading.Lock()

    class Slow(_Handler):
        def do_POST(self) -> None:
            with lock:
                busy[0] += 1
                most[0] = max(most[0], busy[0])
            time.sleep(0.2)
            # Counted out before the answer is sent: the client's next call may start as soon
            # as it has read this one, before this thread could count it out afterwards.
            with lock:
                busy[0] -= 1
            super().do_POST()

    server = ThreadingHTTPServer(("127.0.0.1", 0), type("H", (Slow,), {"slots": []}))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        pool = ModelPool(local=RunningAt(server.server_address[1], DEFAULT_PARALLEL))
        config = ModelConfig(backend="local", model="embedded", max_tokens=8)
        with ThreadPoolExecutor(6) as threads:
            said = list(
                threads.map(lambda n: pool.chat(config, n).invoke(f"(seat P0{n + 1})"), range(6))
            )
    finally:
        server.shutdown()
        server.server_close()
    assert len(said) == 6 and most[0] == DEFAULT_IN_FLIGHT == 2


def test_a_slot_is_primed_once_and_a_server_that_cannot_costs_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    slots: list[tuple[str, object]] = []
    with fake_model_server(slots=slots) as url:
        primer = SlotPrimer(url.removesuffix("/v1"), "embedded", spare=3)
        for seats in ((0,), (0, 1), (1, 0)):
            primer.prime(seats, "The rules of this table.")
    actions = [path for path, _ in slots if path.startswith("/slots/")]
    assert actions == ["/slots/3?action=save", "/slots/0?action=restore", "/slots/1?action=restore"]
    gone = SlotPrimer(f"http://127.0.0.1:{free_port()}", "embedded", spare=3)
    with caplog.at_level(logging.WARNING):
        gone.prime((0,), "The rules of this table.")  # returns: the first calls pay
    assert "slots not primed" in caplog.text
