"""The `serve` command: the web app on the LangGraph server."""

from pathlib import Path
from typing import Annotated

import typer

from autowerewolf.cli.app import DbOption, app, fail, one_line_errors
from autowerewolf.cli.options import DEFAULT_DB, ModelsOption
from autowerewolf.errors import SettingsError
from autowerewolf.web.server import serve as run_web_server

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
) -> None:
    """Watch, replay and play games in the browser; prints the owner's link (needs the
    `web` extra)."""
    try:
        run_web_server(Path(db), host, port, models, expose)
    except SettingsError as err:
        raise fail(str(err)) from None
