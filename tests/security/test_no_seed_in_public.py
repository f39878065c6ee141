"""No seed and no secret in anything public: game ids, the public part of every export
line, and what a spectator receives from the web server. Games are played with a secret
given and with a fresh one; the seeds are large, so that finding one as text means it
leaked, not that digits met by chance."""

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from autowerewolf.errors import SettingsError
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.engine import new_game
from autowerewolf.web.lobby import parse_form, reuse_warning
from tests.graph.graph_helpers import assert_user_error, cli, load_record, load_records
from tests.web.conftest import Server, running_server, sse_payloads, token_of

GIVEN_SECRET = "5eed" * 8  # 32 hex digits, as the CLI's fresh secrets
SEEDS = {"given": 7_316_489_051_234_567, "fresh": 4_902_117_385_660_213}


def needles(seed: int, secret: str) -> list[str]:
    """The texts that would give a game away: its seed, its (hex) secret as written and
    the number that secret spells."""
    return [str(seed), secret, str(int(secret, 16))]


def without_private(line: dict[str, Any]) -> dict[str, Any]:
    """The public part of an export line: every field but `private` (the manifests say
    so: what they list as hidden sits under `private`)."""
    return {key: value for key, value in line.items() if key != "private"}


def found_in(texts: Iterable[str], secrets: list[str]) -> list[str]:
    return [f"{s!r} in {t[:120]!r}" for t in texts for s in secrets if s in t]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, list[str]]]:
    """A database with a game whose secret was given and one with a fresh secret; the
    texts that would give each away."""
    folder = tmp_path_factory.mktemp("seeds")
    db, models = folder / "games.db", folder / "models.yaml"
    # Two seats on the simulated model, so that the chat export has lines too.
    models.write_text("default: {backend: simulated, model: sim, latency_s: 0}\n")
    seats = ["--seat", "P01=llm", "--seat", "P02=llm", "--models", models]
    for how, extra in (("given", ["--secret", GIVEN_SECRET]), ("fresh", [])):
        args = ["--players", "random", "--board", "8-arena", "--seed", SEEDS[how], *extra]
        result = cli("play", *args, *seats, "--db", db)
        assert result.exit_code == 0, result.stderr
    configs = {i: r.game.config for i, r in load_records(db).items()}
    assert sorted(c.seed for c in configs.values()) == sorted(SEEDS.values())
    return db, {i: needles(c.seed, c.secret) for i, c in configs.items()}


def test_cli_game_ids_carry_no_seed(played: tuple[Path, dict[str, list[str]]]) -> None:
    _, secrets = played
    for game_id, texts in secrets.items():
        assert game_id.startswith("8-arena-")
        assert found_in([game_id], texts) == []


def test_no_public_field_of_any_export_line_holds_a_seed_or_secret(
    played: tuple[Path, dict[str, list[str]]], tmp_path: Path
) -> None:
    db, secrets = played
    every = [s for texts in secrets.values() for s in texts]
    assert cli("export", db, "--out", tmp_path / "data").exit_code == 0
    chat = cli("export", db, "--out", tmp_path / "chat", "--format", "chat")
    assert chat.exit_code == 0
    manifest = json.loads((tmp_path / "data" / "manifest.json").read_text())
    assert "games.private.seed" in manifest["hidden"]["games"]
    public, private = [], []
    for path in [*(tmp_path / "data").glob("*.jsonl"), tmp_path / "chat" / "chat.jsonl"]:
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        assert lines, path
        public += [json.dumps(without_private(line)) for line in lines]
        private += [json.dumps(line.get("private")) for line in lines]
    assert found_in(public, every) == []
    # Control: the seed is exported, under `private`, where the scan would have found it.
    assert found_in(private, [str(SEEDS["given"])]) != []


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    workdir = tmp_path_factory.mktemp("serve")
    with running_server(workdir, workdir / "games.db") as started:
        yield started


def spectator_payloads(server: Server, game: str, spectator: str) -> list[str]:
    with server.client(spectator) as watcher:
        texts = [watcher.get(path).text for path in ("/aw/games", f"/aw/games/{game}")]
        return texts + sse_payloads(watcher, f"/aw/games/{game}/events")


@pytest.mark.slow
def test_no_web_payload_of_a_spectator_holds_a_seed_or_secret(server: Server) -> None:
    forms: dict[str, dict[str, object]] = {
        "given": {"seed": SEEDS["given"], "secret": GIVEN_SECRET},
        "fresh": {"seed": SEEDS["fresh"]},
    }
    for how, form in forms.items():
        made = server.create({**form, "default": "random", "board": "8-arena"})
        game, links = str(made["game"]), dict(made["links"])  # type: ignore[call-overload]
        server.wait_status(game, "finished")
        with server.client(server.owner) as owner:
            config = owner.get(f"/aw/games/{game}").json()
        assert int(config["seed"]) == SEEDS[how]  # the owner alone sees the seed
        secret = load_record(server.db, game).game.config.secret
        texts = spectator_payloads(server, game, token_of(links["spectator"]))
        assert len(texts) > 3
        assert found_in([game, *texts], needles(SEEDS[how], secret)) == [], how


@pytest.mark.slow
def test_the_lobby_refuses_an_empty_secret_and_warns_of_a_reused_one(server: Server) -> None:
    with server.client(server.owner) as owner:
        refused = owner.post("/aw/games", json={"seed": 5, "secret": "", "default": "random"})
    assert refused.status_code == 400
    assert refused.json()["detail"].startswith("a game with seat or spectator links needs a secret")
    form = {"seed": 11, "secret": "ab" * 16, "default": "random", "board": "8-arena"}
    first = server.create(form)
    assert first["warnings"] == []
    server.wait_status(str(first["game"]), "finished")
    second = server.create(form)
    warnings = second["warnings"]
    assert isinstance(warnings, list) and len(warnings) == 1
    assert str(first["game"]) in warnings[0] and "same seed and secret" in warnings[0]
    other_secret = server.create({**form, "secret": "cd" * 16})
    assert other_secret["warnings"] == []


def test_old_style_ids_still_load(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    old_id = "12-A-s7316489051234567-ab12"  # how `play` named games before
    made = cli("play", "--players", "random", "--board", "8-arena", "--game-id", old_id,
               "--db", db)  # fmt: skip
    assert made.exit_code == 0, made.stderr
    for command in ("inspect", "replay", "history"):
        assert cli(command, old_id, "--db", db).exit_code == 0, command
    assert_user_error(cli("resume", old_id, "--db", db), "already over")


def test_the_lobby_form_refuses_an_empty_secret_and_names_a_game_with_the_same_deal() -> None:
    with pytest.raises(SettingsError, match="needs a secret"):
        parse_form({"seed": 5, "secret": ""})
    setup, _ = parse_form({"seed": 5, "secret": "ab" * 16})
    same, _ = new_game(GameSetup(seed=5, secret="ab" * 16).build())
    other, _ = new_game(GameSetup(seed=5, secret="cd" * 16).build())
    assert reuse_warning(setup, [("a", other), ("b", None)]) is None
    warning = reuse_warning(setup, [("a", other), ("b", same)])
    assert warning is not None and "game b has the same seed and secret" in warning
