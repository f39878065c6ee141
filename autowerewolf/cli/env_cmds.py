"""Commands of the training environments: env serve (docs/training.md, "OpenEnv server")."""

from typing import Annotated

import typer

from autowerewolf.cli.app import app, console, fail, one_line_errors
from autowerewolf.loopback import is_loopback

env_app = typer.Typer(
    help="Training environments: serve the board to OpenEnv clients.",
    no_args_is_help=True,
)
app.add_typer(env_app, name="env")

OPPONENTS_HELP = "Who answers the other seats: random, scripted or heuristic."


@env_app.command("serve")
@one_line_errors
def serve(
    host: Annotated[str, typer.Option(help="Loopback address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8010,
    board: Annotated[str, typer.Option(help="The board a reset deals by default.")] = "12-A",
    seat: Annotated[
        str, typer.Option(help="The seat the client plays by default: P01 ..., or role:seer.")
    ] = "P01",
    opponents: Annotated[str, typer.Option(help=OPPONENTS_HELP)] = "heuristic",
    max_sessions: Annotated[
        int, typer.Option(help="Concurrent WebSocket sessions (one game each).", min=1)
    ] = 8,
) -> None:
    """Serve one seat of the board over OpenEnv's reset/step/state protocol (WebSocket
    `/ws`, one game per session); the built-in players answer the other seats (needs the
    `openenv` extra)."""
    from autowerewolf.env import openenv_server

    if not is_loopback(host):
        raise fail(f"--host {host} is not a loopback address: the env server has no authentication")
    if opponents not in openenv_server.OPPONENT_KINDS:
        raise fail(f"--opponents must be one of {', '.join(openenv_server.OPPONENT_KINDS)}")
    server_app = openenv_server.create_app(board, seat, opponents, max_sessions)  # type: ignore[arg-type]
    console.print(
        f"OpenEnv server on ws://{host}:{port}/ws ({board}, seat {seat})", highlight=False
    )
    openenv_server.serve(server_app, host, port)
