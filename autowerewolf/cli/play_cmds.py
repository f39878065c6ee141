"""Commands that play: play, resume, batch."""

import os
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import nullcontext
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError
from rich.markup import escape
from rich.progress import Progress

from autowerewolf.cli.app import (
    DEFAULT_DB,
    DbOption,
    app,
    console,
    fail,
    one_line_errors,
    session,
)
from autowerewolf.gamefile import GameFile, load_game_file
from autowerewolf.narration import LLMNarrator, Narrator, TemplateNarrator
from autowerewolf.players.factory import PlayerBuilder, check_models, load_models, models_of
from autowerewolf.players.seating import PlayerKind, Seating
from autowerewolf.rules.config import ConfigError, GameSetup
from autowerewolf.rules.engine import new_game
from autowerewolf.rules.events import Event
from autowerewolf.rules.state import GameState
from autowerewolf.runner import GameRecord, Games, ProgressHook
from autowerewolf.summary import summarize
from autowerewolf.transcript import describe

WATCH_CHOICES = ("none", "public", "omniscient")
NARRATION_CHOICES = ("template", "llm", "off")
WatchOption = Annotated[str, typer.Option(help="Print raw events live: none, public, omniscient.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]
NarrationOption = Annotated[
    str, typer.Option(help="Live narration of public events: template, llm (moderator model), off.")
]


def parse_pairs(pairs: list[str], what: str) -> dict[str, str]:
    parsed = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{what} {pair!r} must look like KEY=VALUE")
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


def build_game(
    game_file: Path | None,
    script: Path | None,
    board: str | None,
    seed: int | None,
    variants: list[str],
    roles: str | None,
    players: str | None,
    seats: list[str],
    models: Path | None = None,
    model_settings: tuple[str, ...] = (),
) -> tuple[GameSetup, Seating]:
    if game_file and script:
        raise ConfigError("give either --config or --script, not both")
    source = load_game_file(script or game_file) if (script or game_file) else GameFile()
    updates: dict[str, Any] = {}
    if board:
        updates["board"] = board
    if roles:
        updates["roles"] = [r.strip() for r in roles.split(",") if r.strip()]
    if variants:
        overrides = {
            k: parse_variant_value(v) for k, v in parse_pairs(variants, "--variant").items()
        }
        updates["variants"] = {**source.variants, **overrides}
    source = source.model_copy(update=updates)
    chosen_seed = seed if seed is not None else source.seed
    if chosen_seed is None:
        chosen_seed = int.from_bytes(os.urandom(3), "big")
    setup = source.setup(chosen_seed)
    setup.build()
    default: PlayerKind = "scripted" if script else "llm"
    seating = source.seating(default)
    seat_kinds = parse_pairs(seats, "--seat")
    kinds = {**seating.seats, **seat_kinds}
    try:
        seating = Seating.model_validate(
            {**seating.model_dump(), "default": players or seating.default, "seats": kinds}
        )
    except ValidationError as err:
        # The last line of str(err) is pydantic's help URL: name the field and value instead.
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ConfigError(
            f"bad player kind {first.get('input')!r} for {where}: {first['msg']}"
        ) from None
    if models is not None or model_settings:
        seating = seating.model_copy(update={"models": load_models(models, model_settings)})
    return setup, seating


def watcher(watch: str, narrator: Narrator | None = None) -> ProgressHook | None:
    """Live output: raw events for one audience, else the moderator's narration."""
    if watch not in WATCH_CHOICES:
        raise ConfigError(f"--watch must be one of {', '.join(WATCH_CHOICES)}")

    def show(game: GameState, events: list[Event]) -> None:
        if watch == "none":
            text = narrator.narrate(events) if narrator is not None else None
            if text:
                console.print(escape(text), highlight=False)
            return
        for event in events:
            if watch == "omniscient" or event.audience == "public":
                console.print(f"[dim]D{event.day}[/dim] {escape(describe(event))}", highlight=False)

    return show if watch != "none" or narrator is not None else None


def make_narrator(mode: str, games: Games, seating: Seating) -> Narrator | None:
    if mode not in NARRATION_CHOICES:
        raise ConfigError(f"--narration must be one of {', '.join(NARRATION_CHOICES)}")
    if mode == "off":
        return None
    if mode == "template":
        return TemplateNarrator()
    builder = games.context.player_factory
    if not isinstance(builder, PlayerBuilder):
        raise ConfigError("--narration llm needs model players")
    return LLMNarrator(builder.pool.chat(models_of(seating).for_moderator()))


def ask_in_terminal(record: GameRecord) -> dict[str, Any]:
    answers: dict[str, Any] = {}
    pending = record.interrupts[-1]
    for seat, prompt in pending["seats"].items():
        console.rule(f"{seat} ({prompt['name']}), you are the {prompt['role']}")
        for line in prompt["transcript"]:
            console.print(line, highlight=False, markup=False)
        if pending.get("errors", {}).get(seat):
            console.print(f"[red]{escape(pending['errors'][seat])}[/red]")
        option = typer.prompt(f"{pending['step']}: choose one of {', '.join(prompt['options'])}")
        text = typer.prompt("What do you say?") if option.strip() == "speak" else ""
        answers[seat] = {"option": option, "text": text}
    return answers


def finish(games: Games, record: GameRecord, as_json: bool, progress: Any) -> None:
    while record.status == "waiting" and sys.stdin.isatty():
        record = games.resume(record.game_id, ask_in_terminal(record), progress)
    if as_json:
        summary = summarize(record.game_id, record.game, record.events, record.records)
        print(summary.model_dump_json(indent=2))
        return
    if record.status == "waiting":
        seats = ", ".join(record.interrupts[-1]["seats"])
        console.print(
            f"Game {record.game_id} waits for human seat(s) {seats}. Answer with: "
            f"autowerewolf resume {record.game_id} --answer SEAT=OPTION [--say SEAT=TEXT]"
        )
        return
    if record.status != "finished":
        console.print(f"Game {record.game_id} stopped unfinished; continue it with resume.")
        return
    game = record.game
    winner = game.winner.value if game.winner else "nobody"
    console.print(
        f"[bold]Winner: {winner}[/bold] — {game.win_reason} "
        f"(day {game.day}, {game.ply} steps, {len(record.events)} events). "
        f"Game id: {record.game_id}",
        highlight=False,
    )


@app.command()
@one_line_errors
def play(
    board: Annotated[str | None, typer.Option(help="12-A, 12-B, 9-standard or 8-arena.")] = None,
    seed: Annotated[int | None, typer.Option(help="Game seed (random if omitted).")] = None,
    variant: Annotated[list[str], typer.Option(help="Rule flag, e.g. badge_swallow=double.")] = [],  # noqa: B006
    roles: Annotated[str | None, typer.Option(help="Custom board: comma-separated roles.")] = None,
    players: Annotated[
        str | None,
        typer.Option(help="Kind of every seat: llm (default), random, heuristic, human."),
    ] = None,
    seat: Annotated[list[str], typer.Option(help="One seat's kind, e.g. P03=human.")] = [],  # noqa: B006
    config: Annotated[Path | None, typer.Option(help="Game file (YAML/JSON).")] = None,
    script: Annotated[Path | None, typer.Option(help="Scripted game file.")] = None,
    models: Annotated[Path | None, typer.Option(help="Model config file (YAML/JSON).")] = None,
    model: Annotated[
        list[str], typer.Option(help="Model setting override, e.g. default.temperature=0.2.")
    ] = [],  # noqa: B006
    db: DbOption = DEFAULT_DB,
    game_id: Annotated[str | None, typer.Option(help="Id of the new game.")] = None,
    watch: WatchOption = "none",
    narration: NarrationOption = "template",
    json_out: JsonOption = False,
) -> None:
    """Play a new game and print who won and why."""
    setup, seating = build_game(
        config, script, board, seed, variant, roles, players, seat, models, tuple(model)
    )
    check_models(seating, new_game(setup.build())[0])
    new_id = game_id or f"{setup.board}-s{setup.seed}-{os.urandom(2).hex()}"
    with session(db, create=True) as games:
        narrator = None if json_out else make_narrator(narration, games, seating)
        progress = watcher(watch, narrator)
        with console.status("Playing...") if not progress and not json_out else nullcontext():
            record = games.start(new_id, setup, seating, progress)
        finish(games, record, json_out, progress)


@app.command()
@one_line_errors
def resume(
    game_id: str,
    db: DbOption = DEFAULT_DB,
    answer: Annotated[list[str], typer.Option(help="A human seat's answer, e.g. P03=P07.")] = [],  # noqa: B006
    say: Annotated[
        list[str], typer.Option(help="A human seat's speech, e.g. P03='I am the seer'.")
    ] = [],  # noqa: B006
    watch: WatchOption = "none",
    narration: NarrationOption = "template",
    json_out: JsonOption = False,
) -> None:
    """Continue a saved game: after a crash, or with a human seat's answer."""
    texts = parse_pairs(say, "--say")
    answers = {
        s: {"option": o, "text": texts.get(s, "")}
        for s, o in parse_pairs(answer, "--answer").items()
    }
    with session(db) as games:
        seating = games.load(game_id).seating
        progress = watcher(watch, None if json_out else make_narrator(narration, games, seating))
        record = games.resume(game_id, answers or None, progress)
        finish(games, record, json_out, progress)


def _run_batch_game(db: str, game_id: str, setup: GameSetup, seating: Seating) -> tuple[str, str]:
    with session(Path(db), create=True) as games:
        if games.exists(game_id):
            record = games.resume(game_id)
        else:
            record = games.start(game_id, setup, seating)
    return game_id, record.game.winner.value if record.game.winner else record.status


@app.command()
@one_line_errors
def batch(
    games_count: Annotated[int, typer.Option("--games", help="Number of games.", min=1)] = 10,
    seed_start: Annotated[int, typer.Option(help="Seed of the first game; then +1 each.")] = 0,
    concurrency: Annotated[int, typer.Option(help="Games played at once (processes).", min=1)] = 1,
    prefix: Annotated[str, typer.Option(help="Game ids are PREFIX-SEED.")] = "batch",
    board: Annotated[str | None, typer.Option(help="Board preset.")] = None,
    variant: Annotated[list[str], typer.Option(help="Rule flag, e.g. badge_swallow=double.")] = [],  # noqa: B006
    players: Annotated[str | None, typer.Option(help="Kind of every seat.")] = None,
    seat: Annotated[list[str], typer.Option(help="One seat's kind, e.g. P03=scripted.")] = [],  # noqa: B006
    config: Annotated[Path | None, typer.Option(help="Game file (YAML/JSON).")] = None,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Play many games; running it again continues the unfinished ones and skips the rest."""
    jobs = []
    for seed in range(seed_start, seed_start + games_count):
        setup, seating = build_game(config, None, board, seed, variant, None, players, seat)
        if seating.default == "human" or "human" in seating.seats.values():
            raise fail("batch games cannot have human seats")
        jobs.append((f"{prefix}-{seed}", setup, seating))
    with session(db, create=True) as games:
        finished = {i for i in games.ids() if games.load(i).status == "finished"}
    todo = [job for job in jobs if job[0] not in finished]
    outcomes: Counter[str] = Counter({"already finished": len(jobs) - len(todo)})
    with Progress(console=console) as bar:
        task = bar.add_task("games", total=len(todo))
        if concurrency == 1:
            for job in todo:
                outcomes[_run_batch_game(str(db), *job)[1]] += 1
                bar.advance(task)
        else:
            with ProcessPoolExecutor(max_workers=concurrency) as pool:
                futures = [pool.submit(_run_batch_game, str(db), *job) for job in todo]
                for future in as_completed(futures):
                    outcomes[future.result()[1]] += 1
                    bar.advance(task)
    console.print(", ".join(f"{k}: {v}" for k, v in sorted(outcomes.items()) if v))
