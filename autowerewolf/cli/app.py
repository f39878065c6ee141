"""The typer app, shared options and the one place where errors become one-line messages."""

import functools
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, ParamSpec, TypeVar

import click
import typer
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape

from autowerewolf.backends._process import ServerStartError
from autowerewolf.backends.config import PlayerModels
from autowerewolf.backends.local_extra import LocalBackendError
from autowerewolf.backends.redact import redact_secrets
from autowerewolf.cli.logs import command_log, log_internal_error
from autowerewolf.errors import USER_ERRORS as PROJECT_ERRORS
from autowerewolf.errors import first_line
from autowerewolf.graph.context import GameContext
from autowerewolf.players.agents.pool import ExperiencePool, PoolConfig
from autowerewolf.players.factory import ModelPool, PlayerBuilder
from autowerewolf.private_files import private_umask
from autowerewolf.runner import Games

app = typer.Typer(
    help="LLM agents play Werewolf under a pure rules engine, checkpointed to SQLite or "
    "PostgreSQL.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
console = Console()
err_console = Console(stderr=True)

P = ParamSpec("P")
R = TypeVar("R")
EVAL_EXTRA_HINT = 'pip install -e ".[eval]"'

DbOption = Annotated[
    str,
    typer.Option(
        "--db", help="SQLite file holding the games, or a postgresql://USER@HOST/DB database."
    ),
]
USER_ERRORS: tuple[type[Exception], ...] = (
    *PROJECT_ERRORS, ValidationError, sqlite3.Error, OSError, LocalBackendError, ServerStartError,
)  # fmt: skip


def _error_line(message: str) -> None:
    # A path or game id with [brackets] must print as written, not as rich markup.
    lines = message.strip().splitlines() or ["unknown error"]
    text = escape(redact_secrets(lines[0]))
    err_console.print(f"[red]error:[/red] {text}", highlight=False, soft_wrap=True)


def fail(message: str) -> typer.Exit:
    """Print `message` as the command's one `error:` line; raise the returned exit (code 2)."""
    _error_line(message)
    return typer.Exit(code=2)


def _one_line(err: BaseException) -> str:
    return first_line(err) or type(err).__name__


def one_line_errors(command: Callable[P, R]) -> Callable[P, R]:
    """The CLI's error boundary, around every command.

    Bad input (a user mistake, a damaged or foreign file) ends the command with one
    `error:` line and exit code 2. Anything else is a bug: one line naming the log file
    that holds its traceback, exit code 1. Library warnings go to that log, not the terminal.
    Every file the command (or the server it runs) creates is private (private_files.py).
    """

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with private_umask(), command_log() as log_file:
            try:
                return command(*args, **kwargs)
            except (typer.Exit, click.Abort, click.ClickException):
                raise  # click's own endings: exit codes, usage errors, an aborted prompt
            except USER_ERRORS as err:
                raise fail(_one_line(err)) from None
            except KeyboardInterrupt:
                err_console.print("interrupted", highlight=False)
                raise typer.Exit(code=130) from None
            except Exception as err:
                # A third-party module missing is the user's install; our own, a bug.
                if isinstance(err, ModuleNotFoundError) and not (err.name or "").startswith(
                    "autowerewolf"
                ):
                    raise fail(f"{_one_line(err)}: install the extra that provides it") from None
                where = log_internal_error(log_file, err)
                _error_line(
                    f"internal error ({type(err).__name__}: {_one_line(err)[:200]}); {where}"
                )
                raise typer.Exit(code=1) from None

    return wrapper


@contextmanager
def session(
    db: str | Path,
    *,
    create: bool = False,
    models: PlayerModels | None = None,
    experience: PoolConfig | None = None,
) -> Iterator[Games]:
    """The games of `db` with live players (LLM seats on `models`, default the embedded
    model; `experience` seats on that pool); stops any local model server afterwards.

    Without `create` the file is opened read-only; `resume` and `fork` reopen it for
    writing only when they write (see `Games`)."""
    pool = ModelPool()
    games = Games(
        db,
        create=create,
        readonly=not create,
        context=GameContext(
            player_factory=PlayerBuilder(
                models, pool, ExperiencePool(experience) if experience else None
            )
        ),
    )
    try:
        yield games
    finally:
        games.close()
        pool.close()
