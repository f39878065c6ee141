"""Commands that look after a database: db migrate, db prune (docs/scale.md)."""

from typing import Annotated

import typer

from autowerewolf.cli.app import DbOption, app, console, one_line_errors, session
from autowerewolf.cli.options import DEFAULT_DB
from autowerewolf.storage.prune import prune as prune_games
from autowerewolf.storage.stores import OWN_TABLE_SCHEMAS, open_store, own_table
from autowerewolf.storage.target import database

db_app = typer.Typer(
    help="Look after a game database: create or upgrade its tables, prune finished games.",
    no_args_is_help=True,
)
app.add_typer(db_app, name="db")


@db_app.command()
@one_line_errors
def migrate(db: DbOption = DEFAULT_DB) -> None:
    """Create the game tables, or upgrade them to this version (LangGraph's checkpoint
    migrations on PostgreSQL). Run it once before many processes or Ray workers share a
    new database; every writer also does it when it opens one."""
    store = open_store(database(db), create=True)
    try:
        for table in OWN_TABLE_SCHEMAS:
            own_table(store, table)
    finally:
        store.close()
    console.print(f"{database(db)}: tables ready", highlight=False)


@db_app.command()
@one_line_errors
def prune(
    db: DbOption = DEFAULT_DB,
    keep: Annotated[
        list[str], typer.Option(help="Keep the whole history of games whose id starts so.")
    ] = [],  # noqa: B006
) -> None:
    """Keep only the final state of every finished game: reports, replay and inspect still
    work; history, inspect --step and fork at earlier steps no longer do. Unfinished games
    are not touched."""
    with session(db) as games:
        done = prune_games(games, lambda game_id: game_id.startswith(tuple(keep)))
    console.print(f"pruned {done.games} finished games; {done.skipped} left as they were")
