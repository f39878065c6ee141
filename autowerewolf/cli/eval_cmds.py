"""Commands that evaluate: tournament, report.

Their modules need the `eval` extra (numpy, scipy, openskill, matplotlib), which the
README's main install does not bring: they are imported inside the commands, so that the
CLI itself and every other command start without it.
"""

import importlib
from collections.abc import Iterator
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from autowerewolf.cli.app import EVAL_EXTRA_HINT, app, console, fail, one_line_errors
from autowerewolf.cli.options import ProbesOption, with_probes
from autowerewolf.players.seating import Seating
from autowerewolf.storage.target import database

if TYPE_CHECKING:
    from autowerewolf.evaluation.facts import GameRow
    from autowerewolf.evaluation.report import Report

EVAL_PACKAGES = frozenset({"numpy", "scipy", "openskill", "matplotlib"})

OutOption = Annotated[
    Path | None, typer.Option("--out", help="Report folder (HTML, Markdown, CSV, JSON).")
]


def require_eval_extra(command: str) -> None:
    """One line naming the extra to install when its packages are missing."""
    try:
        for module in ("autowerewolf.evaluation.report", "autowerewolf.evaluation.tournament"):
            importlib.import_module(module)
    except ImportError as err:
        if (err.name or "").split(".")[0] not in EVAL_PACKAGES:
            raise
        raise fail(
            f"`{command}` needs the 'eval' extra (module {err.name!r} is missing): "
            f"{EVAL_EXTRA_HINT}"
        ) from None


def _print_ranking(report: "Report", out: Path) -> None:
    bt = report.bt
    for i in sorted(range(len(bt.names)), key=lambda i: -bt.skill[i]):
        console.print(
            f"  {bt.names[i]:<20} skill {bt.skill[i]:+.2f}  [{bt.lo[i]:+.2f}, {bt.hi[i]:+.2f}]",
            highlight=False,
        )
    console.print(f"Report: {out / 'report.html'} ({report.games} games)")


@app.command()
@one_line_errors
def tournament(
    config: Annotated[Path, typer.Argument(help="Tournament file (YAML/JSON).")],
    db: Annotated[
        str | None,
        typer.Option("--db", help="SQLite file or postgresql:// database for the games."),
    ] = None,
    out: OutOption = None,
    concurrency: Annotated[int | None, typer.Option(help="Games played at once.", min=1)] = None,
    probes: ProbesOption = None,
) -> None:
    """Play a tournament (running it again continues it), then write its report."""
    require_eval_extra("tournament")
    from autowerewolf.evaluation.config import load_tournament
    from autowerewolf.evaluation.report import build_report
    from autowerewolf.evaluation.results import iter_rows
    from autowerewolf.evaluation.tournament import pending, run_tournament

    spec = load_tournament(config)
    if probes is not None:
        spec = spec.model_copy(update={"probes": list(with_probes(Seating(), probes).probes)})
    out = out or Path("tournaments") / spec.name
    target = database(db or spec.db or out / "games.db")
    todo, done = pending(spec, target)
    console.print(f"Tournament {spec.name}: {done} games done, {len(todo)} to play ({target}).")
    outcomes = run_tournament(spec, target, concurrency, console)
    console.print(", ".join(f"{k}: {v}" for k, v in sorted(outcomes.items()) if v))
    rows = iter_rows(target, tournament=spec.name)
    report = build_report(
        rows, out, title=f"Tournament {spec.name}", resamples=spec.bootstrap, seed=spec.seed
    )
    _print_ranking(report, out)


@app.command()
@one_line_errors
def report(
    source: Annotated[
        str,
        typer.Argument(help="A game database (file or postgresql:// URL), or a folder of *.db."),
    ],
    out: OutOption = None,
    tournament_name: Annotated[
        str | None, typer.Option("--tournament", help="Only this tournament's games.")
    ] = None,
    resamples: Annotated[int, typer.Option(help="Bootstrap resamples.", min=100)] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap.")] = 0,
    debate_game: Annotated[
        str | None,
        typer.Option(help="Game whose synthetic votes the debate chart shows (default: first)."),
    ] = None,
) -> None:
    """Write the report (HTML, Markdown, CSV, JSON) of every finished game in SOURCE."""
    require_eval_extra("report")
    from autowerewolf.evaluation.report import build_report
    from autowerewolf.evaluation.results import databases, iter_rows

    dbs = databases(source)
    where = database(source)
    if out is None:
        # Beside a file, in a folder; a Postgres database has no folder: here.
        out = (where if where.is_dir() else where.parent) if isinstance(where, Path) else Path()
        out = out / "report"

    def rows() -> Iterator["GameRow"]:
        return chain.from_iterable(iter_rows(db, tournament=tournament_name) for db in dbs)

    try:
        result = build_report(rows(), out, resamples=resamples, seed=seed, plot_game=debate_game)
    except ValueError as err:
        raise fail(str(err)) from None
    _print_ranking(result, out)
