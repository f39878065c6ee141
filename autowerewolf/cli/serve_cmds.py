"""The `serve` command: the web app on the LangGraph server."""

from pathlib import Path
from typing import Annotated

import typer

from autowerewolf.cli.app import DbOption, app, fail, one_line_errors
from autowerewolf.cli.options import DEFAULT_DB, ModelsOption
from autowerewolf.errors import SettingsError
from autowerewolf.web.server import serve as run_web_server
from autowerewolf.web.settings import DEFAULT_NIGHT_CALL_S

DEFAULT_PORT = 8765


@app.command()
@one_line_errors
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = DEFAULT_PORT,
    db: DbOption = DEFAULT_DB,
    models: ModelsOption = None,
    expose: Annotated[
        bool, typer.Option("--expose", help="Allow a --host that other machines can reach.")
    ] = False,
    night_call_s: Annotated[
        float,
        typer.Option(
            help="With a human at the table, every night lasts at least this many seconds per "
            "night role, so its length reveals no role (0: off).",
            min=0.0,
            max=600.0,
        ),
    ] = DEFAULT_NIGHT_CALL_S,
) -> None:
    """Watch, replay and play games in the browser; prints the owner's link (needs the
    `web` extra)."""
    try:
        run_web_server(Path(db), host, port, models, expose, night_call_s)
    except SettingsError as err:
        raise fail(str(err)) from None
