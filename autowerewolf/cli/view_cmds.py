"""Commands that read saved games: games, inspect, history, replay, fork."""

import json
from typing import Annotated

import typer
from pydantic import BaseModel
from rich.markup import escape
from rich.table import Table

from autowerewolf.cli.app import (
    DbOption,
    app,
    console,
    err_console,
    one_line_errors,
    session,
)
from autowerewolf.cli.options import (
    DEFAULT_DB,
    JsonOption,
    ModelOption,
    ModelsOption,
    Narration,
    NarrationOption,
    Watch,
    WatchOption,
    models_from,
    parse_pairs,
)
from autowerewolf.cli.play_cmds import finish, make_narrator, watcher
from autowerewolf.errors import GameError, SettingsError
from autowerewolf.integrity import checked_game
from autowerewolf.prompts.render import describe
from autowerewolf.rules.config import MAX_SEED
from autowerewolf.rules.engine import pending_decision
from autowerewolf.rules.events import Event
from autowerewolf.rules.views import ending_reveal, public_events, visible_events
from autowerewolf.runner import GameRecord, Games
from autowerewolf.seeding import branch_id
from autowerewolf.storage.stores import failures
from autowerewolf.summary import SeatTotals, seat_totals

AsOption = Annotated[
    str, typer.Option("--as", help="Point of view: omniscient, public, or a seat like P03.")
]


def events_for(record: GameRecord, audience: str) -> tuple[Event, ...]:
    if audience == "omniscient":
        return tuple(record.events)
    if audience == "public":
        return public_events(record.events)
    seats = {s.id: s for s in record.game.seats}
    if audience not in seats:
        raise SettingsError(f"--as must be omniscient, public or a seat P01..P{len(seats):02d}")
    return visible_events(record.events, audience, seats[audience].is_wolf)


@app.command()
@one_line_errors
def games(db: DbOption = DEFAULT_DB, json_out: JsonOption = False) -> None:
    """List the games in a database with their status (failed: a batch game that stopped
    on an error, shown instead of its winner; running the batch again retries it)."""
    with session(db) as store:
        rows = _game_rows(store)
    if json_out:
        print(json.dumps([row.model_dump() for row in rows], indent=2))
        return
    table = Table("game id", "board", "status", "day", "steps", "winner")
    for row in rows:
        if row.board is None:
            table.add_row(row.game_id, "", row.status, "", "", escape(row.error or ""))
            continue
        shown = escape(row.error) if row.status == "failed" and row.error else row.winning
        table.add_row(row.game_id, row.board, row.status, str(row.day), str(row.steps), shown)
    console.print(table)


class GameRow(BaseModel):
    """One game of `games`, as its table row and its `--json` object; board, day and steps
    are None for a game that failed or stopped before its first step was saved."""

    game_id: str
    board: str | None
    status: str
    day: int | None
    steps: int | None
    winner: str | None
    win_reason: str
    error: str | None

    @property
    def winning(self) -> str:
        return f"{self.winner}: {self.win_reason}" if self.winner else self.win_reason


def _game_rows(store: Games) -> list[GameRow]:
    failed = failures(store.store)
    saved = store.ids()
    rows = []
    for game_id in sorted({*saved, *failed}):
        record = store.peek(game_id) if game_id in saved else None
        error = failed.get(game_id)
        if record is None:  # it failed, or it was stopped, before its first step was saved
            status = "unfinished" if error is None else "failed"
            rows.append(GameRow(game_id=game_id, board=None, status=status, day=None,
                                steps=None, winner=None, win_reason="", error=error))  # fmt: skip
            continue
        game = record.game
        status = "failed" if error is not None and record.status != "finished" else record.status
        rows.append(
            GameRow(
                game_id=game_id, board=game.config.board, status=status, day=game.day,
                steps=game.ply, winner=game.winner.value if game.winner else None,
                win_reason=game.win_reason or "", error=error if status == "failed" else None,
            )
        )  # fmt: skip
    return rows


@app.command()
@one_line_errors
def inspect(
    game_id: str,
    step: Annotated[
        int | None, typer.Option(help="Step (ply) to show; default the latest.")
    ] = None,
    audience: AsOption = "omniscient",
    db: DbOption = DEFAULT_DB,
) -> None:
    """The state of a game at a step: who lives, the sheriff, the pending decision."""
    with session(db) as store:
        record = store.load(game_id) if step is None else store.at_ply(game_id, step)
    events_for(record, audience)  # validates --as
    game = record.game
    console.print(
        f"[bold]{escape(game_id)}[/bold] step {game.ply}, day {game.day}, {game.step} "
        f"({record.status}); sheriff: {game.sheriff or 'none'} (badge {game.badge.value})"
    )
    table = Table("seat", "name", "alive", "role")
    visible_roles = audience == "omniscient"
    for seat in game.seats:
        shown = seat.role.value if visible_roles or seat.revealed or seat.id == audience else "?"
        alive = "yes" if seat.id in game.publicly_alive else "no"
        table.add_row(seat.id, seat.name, alive, shown)
    console.print(table)
    decision = pending_decision(game)
    if decision is not None:
        console.print(f"Pending: {decision.key}")
        # Who is asked at night would reveal roles: only the omniscient view or the seat sees it.
        for seat_id, options in decision.options.items():
            if audience in ("omniscient", seat_id):
                console.print(f"  {seat_id}: {', '.join(options)}", highlight=False)
    if game.is_over:
        console.print(
            f"Winner: {game.winner.value if game.winner else 'nobody'} ({game.win_reason})"
        )
    if audience == "omniscient":
        # The seed and secret replay the game (`play --seed S --secret X`): the owner's only.
        secret = game.config.secret or "none"
        console.print(f"Seed {game.config.seed}, secret {secret}", highlight=False)
        _print_totals(record)


def _print_totals(record: GameRecord) -> None:
    totals = seat_totals(record.records)
    if not totals:
        return
    table = Table(
        "seat",
        "decisions",
        "fallbacks",
        "retries",
        "tokens in",
        "cached",
        "tokens out",
        "latency s",
    )
    game_total = SeatTotals()
    for seat_id, t in totals.items():
        table.add_row(
            seat_id, str(t.decisions), str(t.fallbacks), str(t.retries), str(t.tokens_in),
            str(t.cached_tokens), str(t.tokens_out), f"{t.latency_s:.1f}",
        )  # fmt: skip
        for name in SeatTotals.model_fields:
            setattr(game_total, name, getattr(game_total, name) + getattr(t, name))
    t = game_total
    table.add_row(
        "game", str(t.decisions), str(t.fallbacks), str(t.retries), str(t.tokens_in),
        str(t.cached_tokens), str(t.tokens_out), f"{t.latency_s:.1f}", style="bold",
    )  # fmt: skip
    console.print(table)


@app.command()
@one_line_errors
def history(game_id: str, db: DbOption = DEFAULT_DB) -> None:
    """The checkpoints of a game: step, day, phase and the decision each one waits for."""
    table = Table("step", "day", "phase", "decision key", "checkpoint")
    with session(db) as store:
        snapshots = list(store.history(game_id))
    for snapshot in snapshots:
        game = checked_game(snapshot.values)  # the validated game, not the raw stored value
        decision = pending_decision(game)
        table.add_row(
            str(game.ply), str(game.day), game.step, decision.key if decision else "",
            snapshot.config["configurable"]["checkpoint_id"],
        )  # fmt: skip
    console.print(table)


@app.command()
@one_line_errors
def replay(
    game_id: str,
    audience: Annotated[
        str | None,
        typer.Option(
            "--as",
            help="Point of view: omniscient, public, or a seat like P03. Default: public while "
            "the game is not over, omniscient once it is.",
        ),
    ] = None,
    db: DbOption = DEFAULT_DB,
) -> None:
    """The game's transcript as one audience saw it."""
    with session(db) as store:
        record = store.load(game_id)
    if audience is None:
        # A game still being played keeps its secrets from a glance over the shoulder.
        audience = "omniscient" if record.game.is_over else "public"
    reader = audience if audience not in ("omniscient", "public") else None
    for event in events_for(record, audience):
        _print_event(event, reader)
    if audience == "omniscient":
        _print_totals(record)
        return
    revealed = ending_reveal(record.game, record.events, reader)
    if revealed:  # the game is over: the moderator tells everyone what was hidden
        console.print("[bold]The moderator reveals:[/bold]")
        for event in revealed:
            _print_event(event, None)


def _print_event(event: Event, reader: str | None) -> None:
    # One event, one line at any width: a wrapped speech could start a line with words that
    # read like the moderator's.
    console.print(
        f"[dim]D{event.day}[/dim] {escape(describe(event, reader))}",
        highlight=False,
        soft_wrap=True,
    )


@app.command()
@one_line_errors
def fork(
    game_id: str,
    step: Annotated[int, typer.Option(help="Step (ply) to branch from.")],
    set_: Annotated[
        list[str],
        typer.Option(
            "--set", help="Change a decision: SEAT.DECISION=VALUE, e.g. P03.exile_vote=P07."
        ),
    ] = [],  # noqa: B006
    player_seed: Annotated[
        int | None,
        typer.Option(
            "--player-seed",
            help="New root seed of the players' random and fallback choices (not the game seed: "
            "the deal and the rules' draws stay those of the original).",
            min=0,
        ),
    ] = None,
    old_seed: Annotated[
        int | None, typer.Option("--seed", hidden=True, help="Deprecated: --player-seed.", min=0)
    ] = None,
    new_id: Annotated[
        str | None,
        typer.Option(
            help="Id of the new game (default: GAME-forkSTEP; a new UUID for a server's game)."
        ),
    ] = None,
    models: ModelsOption = None,
    model: ModelOption = [],  # noqa: B006
    db: DbOption = DEFAULT_DB,
    watch: WatchOption = Watch.NONE,
    narration: NarrationOption = Narration.TEMPLATE,
    json_out: JsonOption = False,
) -> None:
    """Branch a new game from a step of a saved one and play it on; the original is untouched."""
    if old_seed is not None:
        if player_seed is not None:
            raise SettingsError("give --player-seed only (--seed is its deprecated name)")
        if old_seed > MAX_SEED:
            raise SettingsError(f"--seed must be at most {MAX_SEED}")
        err_console.print("note: fork --seed is deprecated; it is --player-seed", highlight=False)
        player_seed = old_seed
    with session(db, models=models_from(models, model)) as store:
        source = store.at_ply(game_id, step)
        overrides: dict[str, str] = {}
        for target, value in parse_pairs(set_, "--set").items():
            seat_id, dot, decision = target.partition(".")
            if not dot or decision not in (source.game.step, "decision"):
                raise GameError(
                    f"--set {target}: step {step} is a {source.game.step} decision; "
                    f"write {seat_id or 'SEAT'}.{source.game.step}=VALUE"
                )
            overrides[seat_id] = value
        branch = new_id or branch_id(game_id, step)
        narrator = None if json_out else make_narrator(narration, store)
        progress = watcher(watch, narrator)
        store.fork(game_id, step, branch, overrides, player_seed)
        finish(store, store.resume(branch, progress=progress), json_out, progress)
