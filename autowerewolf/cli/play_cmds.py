"""Commands that play: play, resume, batch."""

import sys
from collections import Counter
from contextlib import nullcontext
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from autowerewolf.backends.gate import check_rate_limits
from autowerewolf.batch.local import run_batch
from autowerewolf.batch.runner import BatchGame
from autowerewolf.cli.app import DbOption, app, console, fail, one_line_errors, session
from autowerewolf.cli.options import (
    DEFAULT_DB,
    AgentOption,
    ExperiencePoolOption,
    FreezeOption,
    JsonOption,
    ModelOption,
    ModelsOption,
    Narration,
    NarrationOption,
    NewDbOption,
    ProbesOption,
    SecretOption,
    Watch,
    WatchOption,
    build_game,
    chosen_db,
    experience_pool,
    models_from,
    parse_pairs,
    with_probes,
)
from autowerewolf.errors import SettingsError
from autowerewolf.narration import LLMNarrator, Narrator, TemplateNarrator
from autowerewolf.players.agents.pool import ExperiencePool, harvest
from autowerewolf.players.factory import PlayerBuilder
from autowerewolf.preflight import check_game
from autowerewolf.prompts.render import describe
from autowerewolf.rules.config import BOARDS
from autowerewolf.rules.events import Audience, Event
from autowerewolf.rules.state import GameState
from autowerewolf.runner import GameRecord, Games, ProgressHook, check_game_id
from autowerewolf.seeding import new_game_id, seed_and_secret
from autowerewolf.storage.target import database
from autowerewolf.summary import summarize


def watcher(watch: Watch, narrator: Narrator | None = None) -> ProgressHook | None:
    """Live output: raw events for one audience, else the moderator's narration."""

    def show(game: GameState, events: list[Event]) -> None:
        if watch is Watch.NONE:
            text = narrator.narrate(events) if narrator is not None else None
            if text:
                console.print(escape(text), highlight=False, soft_wrap=True)
            return
        for event in events:
            if watch is Watch.OMNISCIENT or event.audience is Audience.PUBLIC:
                console.print(
                    f"[dim]D{event.day}[/dim] {escape(describe(event))}",
                    highlight=False,
                    soft_wrap=True,
                )

    return show if watch is not Watch.NONE or narrator is not None else None


def make_narrator(mode: Narration, games: Games) -> Narrator | None:
    if mode is Narration.OFF:
        return None
    if mode is Narration.TEMPLATE:
        return TemplateNarrator()
    builder = games.context.player_factory
    if not isinstance(builder, PlayerBuilder):
        raise SettingsError("--narration llm needs model players")
    return LLMNarrator(builder.pool.chat(builder.models.for_moderator()))


def ask_in_terminal(record: GameRecord) -> dict[str, Any]:
    answers: dict[str, Any] = {}
    pending = record.interrupts[-1]
    for seat, prompt in pending["seats"].items():
        console.rule(escape(f"{seat} ({prompt['name']}), you are the {prompt['role']}"))
        for line in prompt["transcript"]:
            console.print(line, highlight=False, markup=False, soft_wrap=True)
        if pending.get("errors", {}).get(seat):
            console.print(f"[red]{escape(pending['errors'][seat])}[/red]")
        option = typer.prompt(f"{pending['step']}: choose one of {', '.join(prompt['options'])}")
        text = typer.prompt("What do you say?") if option.strip() == "speak" else ""
        answers[seat] = {"option": option, "text": text}
    return answers


def learn(games: Games, record: GameRecord) -> None:
    """A finished game's experiences into the pool its `experience` seats read, unless it is
    frozen (docs/agents.md)."""
    builder = games.context.player_factory
    if record.status == "finished" and isinstance(builder, PlayerBuilder) and builder.experience:
        harvest(builder.experience, record.game_id, record.events, record.records)


def finish(games: Games, record: GameRecord, as_json: bool, progress: Any) -> None:
    while record.status == "waiting" and sys.stdin.isatty():
        record = games.resume(record.game_id, ask_in_terminal(record), progress)
    learn(games, record)
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


BOARD_HELP = f"Board preset: {', '.join(BOARDS)} (docs/rules.md)."


@app.command()
@one_line_errors
def play(
    board: Annotated[str | None, typer.Option(help=BOARD_HELP)] = None,
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
    probes: ProbesOption = None,
    models: ModelsOption = None,
    model: ModelOption = [],  # noqa: B006
    agent: AgentOption = [],  # noqa: B006
    experience: ExperiencePoolOption = None,
    freeze_experience: FreezeOption = False,
    db: NewDbOption = None,
    game_id: Annotated[str | None, typer.Option(help="Id of the new game.")] = None,
    secret: SecretOption = None,
    watch: WatchOption = Watch.NONE,
    narration: NarrationOption = Narration.TEMPLATE,
    json_out: JsonOption = False,
) -> None:
    """Play a new game and print who won and why."""
    setup, seating = build_game(
        config, script, board, seed, variant, roles, players, seat, agent, secret
    )
    seating = with_probes(seating, probes)
    player_models = models_from(models, model)
    game = check_game(setup, seating, player_models)  # once, before anything is saved
    new_id = game_id if game_id is not None else new_game_id(setup.board)
    check_game_id(new_id)
    target = chosen_db(db, config, script)
    pool = experience_pool(target, experience, freeze_experience)
    with session(target, create=True, models=player_models, experience=pool) as games:
        narrator = None if json_out else make_narrator(narration, games)
        progress = watcher(watch, narrator)
        with console.status("Playing...") if not progress and not json_out else nullcontext():
            record = games.start_checked(new_id, game, progress)
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
    models: ModelsOption = None,
    model: ModelOption = [],  # noqa: B006
    experience: ExperiencePoolOption = None,
    freeze_experience: FreezeOption = False,
    watch: WatchOption = Watch.NONE,
    narration: NarrationOption = Narration.TEMPLATE,
    json_out: JsonOption = False,
) -> None:
    """Continue a saved game: after a crash, or with a human seat's answer. LLM seats play on
    the models given here (model settings are never saved with a game)."""
    texts = parse_pairs(say, "--say")
    answers = {
        s: {"option": o, "text": texts.get(s, "")}
        for s, o in parse_pairs(answer, "--answer").items()
    }
    if set(texts) - set(answers):
        raise SettingsError(
            f"--say for {', '.join(sorted(set(texts) - set(answers)))} needs --answer"
        )
    pool = experience_pool(db, experience, freeze_experience)
    with session(db, models=models_from(models, model), experience=pool) as games:
        saved = games.peek(game_id)
        if saved is not None and saved.status == "finished":
            raise fail(f"game {game_id!r} is already over")
        progress = watcher(watch, None if json_out else make_narrator(narration, games))
        record = games.resume(game_id, answers or None, progress)
        finish(games, record, json_out, progress)


@app.command()
@one_line_errors
def batch(
    games_count: Annotated[
        int, typer.Option("--games", help="Number of games.", min=1, max=1_000_000)
    ] = 10,
    seed_start: Annotated[
        int, typer.Option(help="Seed of the first game; then +1 each.", min=0)
    ] = 0,
    concurrency: Annotated[
        int | None,
        typer.Option(
            help="Games played at once (per process or Ray worker); default: adapts to the "
            "CPU and the model servers (200 per Ray worker).",
            min=1,
        ),
    ] = None,
    processes: Annotated[
        int | None,
        typer.Option(
            help="Processes on this machine (default: one per core; one on the embedded model).",
            min=1,
        ),
    ] = None,
    prefix: Annotated[str, typer.Option(help="Game ids are PREFIX-SEED.")] = "batch",
    board: Annotated[str | None, typer.Option(help=BOARD_HELP)] = None,
    variant: Annotated[list[str], typer.Option(help="Rule flag, e.g. badge_swallow=double.")] = [],  # noqa: B006
    players: Annotated[str | None, typer.Option(help="Kind of every seat.")] = None,
    seat: Annotated[list[str], typer.Option(help="One seat's kind, e.g. P03=scripted.")] = [],  # noqa: B006
    config: Annotated[Path | None, typer.Option(help="Game file (YAML/JSON).")] = None,
    probes: ProbesOption = None,
    models: ModelsOption = None,
    model: ModelOption = [],  # noqa: B006
    agent: AgentOption = [],  # noqa: B006
    experience: ExperiencePoolOption = None,
    freeze_experience: FreezeOption = False,
    db: NewDbOption = None,
    secret: SecretOption = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            help="Run on a Ray cluster: auto (started here with `ray start`) or HEAD:PORT. "
            "Needs a postgresql:// --db (docs/scale.md).",
        ),
    ] = None,
    workers: Annotated[
        int | None, typer.Option(help="Ray workers (default: one per CPU of the cluster).", min=1)
    ] = None,
) -> None:
    """Play many games at once; running it again continues the unfinished and failed ones
    and skips the rest."""
    player_models = models_from(models, model)
    check_rate_limits(player_models)
    jobs: list[BatchGame] = []
    # One secret for the batch: its games differ by seed; `--secret` replays them.
    _, batch_secret = seed_and_secret(seed_start, secret)
    for seed in range(seed_start, seed_start + games_count):
        setup, seating = build_game(
            config, None, board, seed, variant, None, players, seat, agent, batch_secret
        )
        seating = with_probes(seating, probes)
        if seating.default == "human" or "human" in seating.seats.values():
            raise fail("batch games cannot have human seats")
        if not jobs:
            check_game(setup, seating, player_models)
        # Fixed in advance, so that a rerun continues the batch. A batch's seeds count up
        # from --seed-start and are no secret: its secret keeps the deals unguessable.
        game_id = f"{prefix}-{seed}"
        check_game_id(game_id)
        jobs.append(BatchGame(game_id, setup, seating))
    target = database(chosen_db(db, config))
    if ray is not None:
        if any("experience" in job.seating.agents.names() for job in jobs):
            raise fail("experience seats read a local pool file: play them without --ray")
        from autowerewolf.batch.ray_workers import run_on_ray

        outcomes = run_on_ray(
            ray, target, jobs, concurrency=concurrency or 200, models=player_models,
            workers=workers, console=console,
        )  # fmt: skip
    else:
        pool = ExperiencePool(experience_pool(target, experience, freeze_experience))
        outcomes = run_batch(
            target, jobs, concurrency=concurrency, models=player_models, console=console,
            experience=pool, processes=processes,
        )  # fmt: skip
    counts = Counter(
        o.winner
        if o.status == "finished" and o.played
        else o.status
        if o.played
        else "already finished"
        for o in outcomes
    )
    console.print(", ".join(f"{k}: {v}" for k, v in sorted(counts.items()) if v))
    failed = [o for o in outcomes if o.status == "failed"]
    for outcome in failed[:5]:
        console.print(f"failed {outcome.game_id}: {escape(outcome.error or '')}", highlight=False)
    if failed:
        console.print(f"{len(failed)} failed games: run the same command again to retry them.")
