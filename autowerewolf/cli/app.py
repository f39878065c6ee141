"""The typer app, shared options and the one place where errors become one-line messages."""

import functools
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, ParamSpec, TypeVar

import typer
from pydantic import ValidationError
from rich.console import Console

from autowerewolf.backends._process import ServerStartError
from autowerewolf.backends.config import PlayerModels
from autowerewolf.backends.local_server import LocalBackendError
from autowerewolf.errors import USER_ERRORS as PROJECT_ERRORS
from autowerewolf.errors import one_line
from autowerewolf.graph.context import GameContext
from autowerewolf.players.factory import ModelPool, PlayerBuilder
from autowerewolf.runner import Games

app = typer.Typer(
    help="LLM agents play Werewolf under a pure rules engine, checkpointed to SQLite.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
console = Console()
err_console = Console(stderr=True)

P = ParamSpec("P")
R = TypeVar("R")
DEFAULT_DB = Path("games.db")

DbOption = Annotated[Path, typer.Option("--db", help="SQLite file holding the games.")]
USER_ERRORS: tuple[type[Exception], ...] = (
    *PROJECT_ERRORS, ValidationError, sqlite3.Error, OSError, LocalBackendError, ServerStartError,
)  # fmt: skip


def fail(message: str) -> typer.Exit:
    err_console.print(f"[red]error:[/red] {message}", highlight=False, soft_wrap=True)
    return typer.Exit(code=2)


def one_line_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Bad input ends the command with one line and exit code 2, never a traceback."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except USER_ERRORS as err:
            if isinstance(err, ValidationError):
                message = one_line(err)
            else:
                message = (
                    str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
                )
            raise fail(message) from None

    return wrapper


@contextmanager
def session(
    db: Path, *, create: bool = False, models: PlayerModels | None = None
) -> Iterator[Games]:
    """The games of `db` with live players (LLM seats on `models`, default the embedded
    model); stops any local model server afterwards."""
    pool = ModelPool()
    context = GameContext(player_factory=PlayerBuilder(models, pool))
    games = Games(db, create=create, context=context)
    try:
        yield games
    finally:
        games.close()
        pool.close()
