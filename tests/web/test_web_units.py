"""The web app's parts without a server: tokens, who may see which audience, per-audience
frames (leak-scanned), the linear game reader, the lobby form, and `serve`'s checks."""

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from langgraph.types import Command
from starlette.exceptions import HTTPException

from autowerewolf.errors import SettingsError
from autowerewolf.graph.context import GameContext
from autowerewolf.players.factory import PlayerBuilder, basic_player
from autowerewolf.players.llm.player import LLMPlayer
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import Games
from autowerewolf.web import lobby, server, tokens
from autowerewolf.web.access import audience_for
from autowerewolf.web.frames import GOD, PUBLIC, frames, record_detail, visible_records
from autowerewolf.web.gate import cross_site_refusal, route_class, scrubbed
from autowerewolf.web.links import LinkBook
from autowerewolf.web.reader import GameReader
from autowerewolf.web.sessions import session_cookies, token_from
from tests.fakes.chat import FakeChatModel, legal_json
from tests.fixed import SECRET
from tests.graph.graph_helpers import REPO, assert_user_error, cli, first_option_answers
from tests.web.leaks import leaks

SEATS = [f"P{i:02d}" for i in range(1, 13)]


@pytest.fixture(autouse=True)
def secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(tokens.SECRET_ENV, "unit-test-secret")


# --- tokens and audiences ---------------------------------------------------------------


def test_tokens_verify_only_what_the_server_signed(monkeypatch: pytest.MonkeyPatch) -> None:
    later = int(time.time()) + 60
    seat = tokens.make("seat", "g1", "P03", expires=later)
    assert tokens.verify(seat) == tokens.Claims("seat", "g1", "P03", later)
    assert tokens.verify(tokens.make("owner", expires=later)) == tokens.Claims(
        "owner", None, None, later
    )
    kind, game, who, expires, generation, signature = seat.split(".")
    forged = [
        f"owner.{game}.{who}.{expires}.{generation}.{signature}",  # a seat promoted to owner
        f"{kind}.{game}.P04.{expires}.{generation}.{signature}",  # another seat
        f"{kind}.g2.{who}.{expires}.{generation}.{signature}",  # another game
        f"{kind}.{game}.{who}.{later + 10**6}.{generation}.{signature}",  # a longer life
        f"{kind}.{game}.{who}.{expires}.7.{signature}",  # another generation
        seat[:-2] + ("AA" if not seat.endswith("AA") else "BB"),
        "seat.g1.P03",
        "",
    ]
    assert [tokens.verify(t) for t in forged] == [None] * len(forged)
    assert tokens.verify(seat, now=later) is None  # expired
    monkeypatch.setenv(tokens.SECRET_ENV, "another-server")
    assert tokens.verify(seat) is None  # a new secret voids every old link
    with pytest.raises(ValueError):
        tokens.make("seat", "a.b", "P01", expires=later)


def test_a_revoked_or_expired_link_is_refused_and_stays_refused(tmp_path: Path) -> None:
    path = tmp_path / "server" / "links.json"
    book = LinkBook(path)
    first = book.current("g", "P03")
    claims = tokens.Claims("seat", "g", "P03", first.expires, first.generation)
    spectator = tokens.Claims("spectator", "g", None, first.expires, 0)
    assert book.is_live(claims) and book.is_live(spectator)
    assert book.current("g", "P03") == first  # the same link until revoked or expired
    renewed = book.revoke("g", "P03")
    assert renewed.generation == first.generation + 1
    assert not book.is_live(claims) and book.is_live(spectator)  # only that holder's links
    reopened = LinkBook(path)  # after a restart
    assert not reopened.is_live(claims)
    assert reopened.is_live(replace(claims, generation=renewed.generation))
    assert "seat." not in path.read_text()  # numbers only: no token in the book
    path.write_text("{not json")
    assert not LinkBook(path).is_live(replace(claims, generation=renewed.generation))
    assert LinkBook(path).is_live(tokens.Claims("owner"))


def test_a_request_uses_only_the_session_it_names() -> None:
    cookies = b"aw.owner=OWNER; aw.seat.g.P03=SEAT; other=x"
    headers = {b"cookie": cookies}
    assert token_from(headers) is None  # a cookie is never taken unless named
    assert token_from({**headers, b"x-aw-session": b"seat.g.P03"}) == "SEAT"
    assert token_from({**headers, b"x-aw-session": b"owner"}) == "OWNER"
    assert token_from({**headers, b"x-aw-session": b"spectator.g"}) is None  # no such cookie
    assert token_from({**headers, b"authorization": b"Bearer API"}) == "API"
    assert session_cookies(headers) == {"owner": "OWNER", "seat.g.P03": "SEAT"}


@pytest.mark.parametrize(
    ("method", "headers", "refused"),
    [
        ("GET", {b"host": b"127.0.0.1:8765"}, None),
        ("GET", {b"host": b"evil.example:8765"}, 421),  # DNS rebinding
        ("POST", {b"host": b"127.0.0.1:8765", b"origin": b"http://127.0.0.1:9999"}, 403),
        ("POST", {b"host": b"127.0.0.1:8765", b"sec-fetch-site": b"same-site"}, 403),
        (
            "POST",
            {b"host": b"localhost:8765", b"content-type": b"text/plain", b"content-length": b"2"},
            415,
        ),
        (
            "POST",
            {
                b"host": b"127.0.0.1:8765",
                b"content-type": b"application/x-www-form-urlencoded",
                b"content-length": b"2",
            },
            415,
        ),
        (
            "POST",
            {
                b"host": b"127.0.0.1:8765",
                b"origin": b"http://127.0.0.1:8765",
                b"sec-fetch-site": b"same-origin",
                b"content-type": b"application/json",
                b"content-length": b"2",
            },
            None,
        ),
        ("DELETE", {b"host": b"[::1]:8765"}, None),
    ],
)
def test_the_gate_refuses_what_another_site_could_send(
    method: str, headers: dict[bytes, bytes], refused: int | None
) -> None:
    refusal = cross_site_refusal(method, headers, "http", exposed=False)
    assert (refusal[0] if refusal else None) == refused


def test_the_gate_closes_every_route_it_does_not_know_and_scrubs_tokens() -> None:
    assert [route_class(p) for p in ("/", "/app/x.js", "/aw/games", "/threads/t", "/ok")] == [
        "open", "open", "app", "owner", "open"
    ]  # fmt: skip
    closed = ("/internal/truncate", "/internal/debug/thread/x", "/deploy", "/docs", "/mcp")
    assert {route_class(p) for p in closed} == {"closed"}
    assert route_class("/threadsX") == "closed"
    assert scrubbed(b"audience=P03&token=seat.g.P03.1.0.sig&TOKEN=x") == b"audience=P03"
    assert scrubbed(b"session=owner") == b"session=owner"


def test_each_token_kind_gets_only_its_audiences() -> None:
    owner, seat = tokens.Claims("owner"), tokens.Claims("seat", "g", "P03")
    spectator = tokens.Claims("spectator", "g")
    assert audience_for(owner, "g", None, SEATS) == GOD
    assert [audience_for(owner, "g", a, SEATS) for a in (PUBLIC, "P05")] == [PUBLIC, "P05"]
    assert audience_for(seat, "g", None, SEATS) == "P03"
    assert audience_for(seat, "g", PUBLIC, SEATS) == PUBLIC
    assert audience_for(spectator, "g", None, SEATS) == PUBLIC
    refused = [
        (seat, "g", GOD), (seat, "g", "P04"), (spectator, "g", GOD), (spectator, "g", "P03"),
        (seat, "other", None), (spectator, "other", None), (owner, "g", "P99"),
    ]  # fmt: skip
    for claims, game, requested in refused:
        with pytest.raises(HTTPException) as err:
            audience_for(claims, game, requested, SEATS)
        assert err.value.status_code in (400, 403)


# --- frames from saved games ------------------------------------------------------------


def _marked_llm_context() -> GameContext:
    """LLM seats on a fake model whose every reasoning carries a SECRET marker."""
    count = iter(range(10**6))

    def marked(messages: object, schema: dict) -> str:
        answer = json.loads(legal_json(messages, schema))
        if "reasoning" in answer:
            answer["reasoning"] = f"SECRET-{next(count)}"
        return json.dumps(answer)

    model = FakeChatModel(respond=marked)

    def players(seat: str, kind: str, seating: Seating, view: object) -> object:
        if kind == "llm":
            return LLMPlayer(model, "fake")
        return basic_player(seat, kind, seating, view)

    return GameContext(player_factory=players)


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Games, GameReader]]:
    """A database with a random game, a game with LLM and human seats, and a fork."""
    db = tmp_path_factory.mktemp("web") / "games.db"
    games = Games(db, create=True, context=_marked_llm_context())
    games.start(
        "random",
        GameSetup(secret=SECRET, seed=59, variants={"exile_needs_majority": True}),
        Seating(),
    )
    seating = Seating(seats={"P01": "llm", "P02": "llm", "P09": "llm", "P03": "human"})
    record = games.start("mixed", GameSetup(secret=SECRET, board="12-B", seed=4), seating)
    asked = 0
    while record.status == "waiting":
        if asked == 1:  # an illegal answer: the game asks again with the error
            record = games._run("mixed", Command(resume={"P03": {"option": "P99"}}), None)
            assert "not legal" in record.interrupts[-1]["errors"]["P03"]
        record = games.resume("mixed", first_option_answers(record))
        asked += 1
    games.fork("random", 40, "fork", player_seed=3)
    games.resume("fork")
    reader = GameReader(db)
    yield games, reader
    reader.close()
    games.close()


@pytest.mark.parametrize("game_id", ["random", "mixed", "fork"])
def test_the_linear_reader_gives_every_event_and_record_once(
    saved: tuple[Games, GameReader], game_id: str
) -> None:
    games, reader = saved
    record = games.load(game_id)
    steps = reader.steps(game_id)
    assert [e for s in steps for e in s.events] == record.events
    assert [r for s in steps for r in s.records] == record.records
    assert steps[-1].game == record.game and record.game.is_over
    assert reader.row(game_id).status == "finished"


@pytest.mark.parametrize("game_id", ["random", "mixed", "fork"])
def test_no_audience_but_god_sees_a_hidden_fact(
    saved: tuple[Games, GameReader], game_id: str
) -> None:
    games, reader = saved
    record = games.load(game_id)
    steps = reader.steps(game_id)
    god = frames(steps, GOD)
    assert [e["line"] for f in god for e in f["events"]] != []
    assert sum(len(f["events"]) for f in god) == len(record.events)
    assert any("SECRET-" in json.dumps(f) for f in god) is False  # summaries hold no reasoning
    for audience in [PUBLIC, *(s.id for s in record.game.seats)]:
        shown = frames(steps, audience)
        assert shown, audience
        assert leaks(shown, record.game, audience) == [], audience
        own = visible_records(record.records, audience)
        details = [record_detail(r, i, audience) for i, r in enumerate(own)]
        assert leaks(details, record.game, audience) == [], audience
        assert all(r.seat == audience for r in own)


@pytest.mark.parametrize("game_id", ["random", "mixed"])
def test_the_end_reveals_the_deal_and_the_nights_to_every_audience(
    saved: tuple[Games, GameReader], game_id: str
) -> None:
    games, reader = saved
    record = games.load(game_id)
    steps = reader.steps(game_id)
    deal = {s.id: s.role.value for s in record.game.seats}
    for audience in [PUBLIC, "P03"]:
        shown = frames(steps, audience)
        *before, last = shown
        assert last["over"] and {p["seat"]: p["role"] for p in last["players"]} == deal
        kinds = {e["kind"] for e in last["reveal"]}
        assert "deal" in kinds and "wolf_proposal" not in kinds
        if audience == PUBLIC or not record.game.seat(audience).is_wolf:
            assert "wolf_target" in kinds  # a wolf knew the pack's targets already
        # Nothing earlier reveals it: the reveal waits for the end.
        assert all("reveal" not in f for f in before)
        assert leaks(before, record.game, audience) == []
    assert "reveal" not in frames(steps, GOD)[-1]  # the god view saw it all along


def test_god_drill_down_has_the_reasoning_a_seat_never_gets(
    saved: tuple[Games, GameReader],
) -> None:
    games, _ = saved
    records = games.load("mixed").records
    llm = next(i for i, r in enumerate(records) if r.player == "llm" and r.reasoning)
    detail = record_detail(records[llm], llm, GOD)
    assert detail["reasoning"].startswith("SECRET-") and detail["prompt"] and detail["raw"]
    assert detail["tokens_in"] and detail["option"] in detail["options"]
    own = visible_records(records, records[llm].seat)
    seat_detail = record_detail(own[0], 0, records[llm].seat)
    assert seat_detail["prompt"] and seat_detail["option"] == own[0].option
    assert not {"reasoning", "raw", "data"} & set(seat_detail)


# --- the lobby form ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"board": "12-X"}, "unknown board '12-X'"),
        ({"seats": {"P03": "wizard"}}, "seat kind 'wizard'"),
        ({"default": "scripted"}, "seat kind 'scripted'"),
        ({"seed": -1}, "seed"),
        ({"variants": {"no_such_flag": True}}, "no_such_flag"),
        ({"colour": "red"}, "unknown field 'colour'"),
        ([1, 2], "must be a JSON object"),
    ],
)
def test_bad_lobby_forms_are_one_clear_line(form: object, message: str) -> None:
    with pytest.raises(Exception) as err:
        setup, seating = lobby.parse_form(form)
        lobby.check_game(setup, seating, _builder())
    text = str(err.value)
    assert message in text and "\n" not in text


def test_a_seat_off_the_board_is_refused() -> None:
    setup, seating = lobby.parse_form({"board": "8-arena", "seats": {"P12": "human"}})
    with pytest.raises(SettingsError, match="seat 'P12' is not on this board"):
        lobby.check_game(setup, seating, _builder())


def test_lobby_form_makes_the_game_and_names_its_human_seats() -> None:
    form = {"board": "12-B", "seed": 9, "default": "heuristic", "seats": {"P02": "human"}}
    setup, seating = lobby.parse_form({**form, "variants": {"badge_swallow": "double"}})
    assert setup.board == "12-B" and setup.seed == 9
    assert setup.variants == {"badge_swallow": "double"}
    assert lobby.check_game(setup, seating, _builder()) == ["P02"]
    choices = lobby.choices()
    assert {k["kind"] for k in choices["kinds"]} == {"llm", "random", "heuristic", "human"}
    assert {b["name"] for b in choices["boards"]} >= {"12-A", "12-B"}


def _builder() -> PlayerBuilder:
    return PlayerBuilder()


# --- `serve` checks and configuration ---------------------------------------------------


def test_serve_binds_elsewhere_only_when_asked(tmp_path: Path) -> None:
    assert server.check_host("127.0.0.1", expose=False) is None
    assert "warning" in str(server.check_host("0.0.0.0", expose=True))
    assert_user_error(cli("serve", "--host", "0.0.0.0", "--db", tmp_path / "g.db"), "add --expose")
    assert not (tmp_path / "g.db").exists()


def test_serve_refuses_a_busy_port(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert_user_error(
            cli("serve", "--port", port, "--db", tmp_path / "g.db"), f"127.0.0.1:{port}"
        )


def test_langgraph_json_describes_the_same_server() -> None:
    config = json.loads((REPO / "langgraph.json").read_text())
    assert config["auth"] == server.AUTH
    assert config["http"] == server.HTTP
    assert config["checkpointer"] == server.CHECKPOINTER
    assert set(config["graphs"]) == set(server.GRAPHS)


def test_without_the_web_extra_serve_names_it_in_one_line(tmp_path: Path) -> None:
    """The command line runs without the `web` extra's packages (here made unimportable),
    and `serve` then says in one line what to install."""
    blocked = ("langgraph_api", "langgraph_runtime_inmem", "starlette", "sse_starlette", "uvicorn")
    code = (
        "import sys\n"
        "class Missing:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        f"        if name.split('.')[0] in {blocked!r}:\n"
        "            raise ModuleNotFoundError(name)\n"
        "sys.meta_path.insert(0, Missing())\n"
        "from autowerewolf.cli import app\n"
        f"app(['serve', '--db', {str(tmp_path / 'g.db')!r}])\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip() == (
        "error: autowerewolf serve needs the web extra: pip install -e '.[web]'"
    )
    assert not (tmp_path / "g.db").exists()
