"""Options shared by several commands, and turning them into a game's setup and seating."""

import re
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError

from autowerewolf.backends.config import PlayerModels
from autowerewolf.errors import SettingsError, one_line
from autowerewolf.gamefile import GameFile, load_game_file
from autowerewolf.players.agents.pool import PoolConfig, pool_config
from autowerewolf.players.factory import load_models
from autowerewolf.players.seating import PlayerKind, Seating
from autowerewolf.prompts.probes import UnknownProbe, parse_probes
from autowerewolf.rules.config import GameSetup
from autowerewolf.seeding import seed_and_secret
from autowerewolf.storage.target import Database, database

DEFAULT_DB = "games.db"
NewDbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="SQLite file or postgresql://USER@HOST/DB database for the games "
        "(default: the game file's db, else games.db).",
    ),
]


class Watch(StrEnum):
    NONE = "none"
    PUBLIC = "public"
    OMNISCIENT = "omniscient"


class Narration(StrEnum):
    TEMPLATE = "template"
    LLM = "llm"
    OFF = "off"


WatchOption = Annotated[Watch, typer.Option(help="Print raw events live for this audience.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]
NarrationOption = Annotated[
    Narration, typer.Option(help="Live narration of public events (llm: the moderator model).")
]
ModelsOption = Annotated[
    Path | None,
    typer.Option(help="Model config file (YAML/JSON); default: the embedded local model."),
]
ProbesOption = Annotated[
    str | None,
    typer.Option(
        help="Measurement probes to ask, e.g. pre_vote,speech_votes,role_estimates "
        "(docs/evaluation.md); replaces a file's `probes`."
    ),
]
ModelOption = Annotated[
    list[str], typer.Option(help="Model setting override, e.g. default.temperature=0.2.")
]
AgentOption = Annotated[
    list[str],
    typer.Option(
        help="Agent design of LLM seats: NAME (all), P03=NAME, role:seer=NAME or camp:wolf=NAME; "
        "plain, estimator, adaptive, support, attack, experience or python:package.module:Class."
    ),
]
SecretOption = Annotated[
    str | None,
    typer.Option(
        help="The game's secret (32+ hex digits), to replay a game exactly: `inspect GAME --as "
        "omniscient` shows it. Default: a fresh one (docs/security.md).",
    ),
]
ExperiencePoolOption = Annotated[
    Path | None,
    typer.Option(help="Experience pool file of `experience` seats; default: beside --db."),
]
FreezeOption = Annotated[
    bool, typer.Option(help="Read the experience pool but never add this game's experiences.")
]


def experience_pool(db: str | Database, path: Path | None, frozen: bool) -> PoolConfig:
    """The pool `experience` seats read: `path`, else the game database's default pool."""
    return pool_config(database(db), path, frozen)


def parse_pairs(pairs: list[str], what: str) -> dict[str, str]:
    parsed = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise SettingsError(f"{what} {pair!r} must look like KEY=VALUE")
        parsed[key.strip()] = value.strip()
    return parsed


def parse_variant_value(raw: str) -> Any:
    lowered = raw.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for cast in (int, float):
        try:
            return cast(raw)
        except ValueError:
            pass
    return raw


def models_from(path: Path | None, settings: list[str]) -> PlayerModels:
    """The LLM seats' models: a file or the embedded default, with settings on top."""
    return load_models(path, tuple(settings))


def _given(value: str | None, flag: str) -> str | None:
    """A flag's value; an empty one is a mistake, not "use the default"."""
    if value is not None and not value.strip():
        raise SettingsError(f"{flag} must not be empty")
    return value.strip() if value is not None else None


def chosen_db(db: str | None, game_file: Path | None, script: Path | None = None) -> str:
    """--db, else the game file's `db:`, else games.db."""
    path = script or game_file
    if db is None and path is not None:
        db = load_game_file(path).db
    return db or DEFAULT_DB


SEAT_ID = re.compile(r"P\d\d")


def build_game(
    game_file: Path | None,
    script: Path | None,
    board: str | None,
    seed: int | None,
    variants: list[str],
    roles: str | None,
    players: str | None,
    seats: list[str],
    agents: list[str] = [],  # noqa: B006 - never mutated
    secret: str | None = None,
) -> tuple[GameSetup, Seating]:
    """The game the flags and files describe; the one place a game's seed and secret are
    chosen (drawn fresh unless given, so that the dry run of a script is the game played)."""
    if game_file and script:
        raise SettingsError("give either --config or --script, not both")
    path = script or game_file
    source = load_game_file(path) if path is not None else GameFile()
    updates: dict[str, Any] = {}
    if (chosen_board := _given(board, "--board")) is not None:
        updates["board"] = chosen_board
    if (role_list := _given(roles, "--roles")) is not None:
        updates["roles"] = [r.strip() for r in role_list.split(",") if r.strip()]
        if not updates["roles"]:
            raise SettingsError("--roles names no role")
    if variants:
        overrides = {
            k: parse_variant_value(v) for k, v in parse_pairs(variants, "--variant").items()
        }
        updates["variants"] = {**source.variants, **overrides}
    source = source.model_copy(update=updates)
    chosen_seed, chosen_secret = seed_and_secret(
        seed if seed is not None else source.seed, secret if secret is not None else source.secret
    )
    default: PlayerKind = "scripted" if script else "llm"
    seating = source.seating(default)
    kinds = {**seating.seats, **parse_pairs(seats, "--seat")}
    kind = _given(players, "--players")
    try:
        seating = Seating.model_validate(
            {**seating.model_dump(), "default": kind or seating.default, "seats": kinds}
        )
    except ValidationError as err:
        first = err.errors()[0]  # a player kind is no secret: name the value
        where = ".".join(str(p) for p in first["loc"])
        raise SettingsError(
            f"bad player kind {first['input']!r} for {where}: {first['msg']}"
        ) from None
    choice = seating.agents
    try:
        for flag in agents:
            choice = choice.with_flag(flag)
    except ValidationError as err:
        raise SettingsError(f"--agent: {one_line(err)}") from None
    _check_agent_seats(seating, agents)
    return source.setup(chosen_seed, chosen_secret), seating.model_copy(update={"agents": choice})


def _check_agent_seats(seating: Seating, agents: list[str]) -> None:
    """An agent design plays LLM seats only: a flag that no LLM seat would take is a
    mistake, not something to ignore."""
    if not agents:
        return
    if seating.default != "llm" and "llm" not in seating.seats.values():
        raise SettingsError(
            "--agent: no seat is played by an LLM (agent designs play LLM seats only); "
            "drop --agent or make seats llm (--players llm, --seat P03=llm)"
        )
    for flag in agents:
        where, _, _ = flag.partition("=")
        if SEAT_ID.fullmatch(where) and seating.kind_of(where) != "llm":
            raise SettingsError(
                f"--agent {flag}: {where} is played by {seating.kind_of(where)!r}, not an LLM"
            )


def with_probes(seating: Seating, probes: str | None) -> Seating:
    """The seating with `--probes` applied (probes are saved with the game's seating, so a
    resumed or forked game keeps asking them)."""
    if probes is None:
        return seating
    try:
        return seating.model_copy(update={"probes": parse_probes(probes)})
    except UnknownProbe as err:
        raise SettingsError(str(err)) from None
