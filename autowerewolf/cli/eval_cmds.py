"""Commands that evaluate: tournament, report, plan.

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
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

from autowerewolf.cli.app import EVAL_EXTRA_HINT, app, console, fail, one_line_errors
from autowerewolf.cli.options import ProbesOption, with_probes
from autowerewolf.players.seating import Seating
from autowerewolf.storage.target import database

if TYPE_CHECKING:
    from autowerewolf.evaluation.bootstrap import Cell
    from autowerewolf.evaluation.games.facts import GameRow
    from autowerewolf.evaluation.report.build import Report

EVAL_PACKAGES = frozenset({"numpy", "scipy", "openskill", "matplotlib"})
MIN_RESAMPLES = 100  # fewer leave the 2.5% and 97.5% percentiles resting on a few draws

OutOption = Annotated[
    Path | None, typer.Option("--out", help="Report folder (HTML, Markdown, CSV, JSON).")
]
GteOption = Annotated[
    bool,
    typer.Option(
        "--gte/--no-gte", help="Game-theoretic ratings (200 equilibrium solves, a few seconds)."
    ),
]


class ReportBar:
    """The report's stages on a rich progress bar (reading games, resampling, GTE...)."""

    def __init__(self, bar: Progress) -> None:
        self.bar = bar
        self.task: TaskID | None = None

    def stage(self, name: str, total: int | None) -> None:
        if self.task is not None:
            self.bar.update(self.task, visible=False)
        self.task = self.bar.add_task(name, total=total)

    def advance(self, amount: int = 1) -> None:
        if self.task is not None:
            self.bar.advance(self.task, amount)


def report_bar() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )


def require_eval_extra(command: str) -> None:
    """One line naming the extra to install when its packages are missing."""
    try:
        for module in (
            "autowerewolf.evaluation.report.build",
            "autowerewolf.evaluation.tournament.play",
        ):
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
    console.print(
        f"Bradley-Terry skill, 95% interval over games ({bt.resamples} resamples):",
        highlight=False,
    )
    for i in sorted(range(len(bt.names)), key=lambda i: -bt.skill[i]):
        console.print(
            f"  {bt.names[i]:<20} skill {bt.skill[i]:+.2f}  [{bt.lo[i]:+.2f}, {bt.hi[i]:+.2f}]",
            highlight=False,
        )
    for pair in report.data["paired"]:
        factor = pair["variance_reduction"]
        console.print(
            f"Paired within {pair['blocks']} blocks, {pair['a']} - {pair['b']}: win rate "
            f"{_interval(pair['paired'])} (unpaired {_interval(pair['unpaired'])}); variance "
            "reduction against resampling games: "
            + ("n/a" if factor is None else f"{factor:.2f}x"),
            highlight=False,
        )
    console.print(f"Report: {out / 'report.html'} ({report.games} games)")


def _interval(cell: "Cell") -> str:
    return f"{cell['value']:+.3f} [{cell['lo']:+.3f}, {cell['hi']:+.3f}]"


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
    gte: GteOption = True,
    replay_from: Annotated[
        Path | None,
        typer.Option(
            "--replay-from",
            help="A tournament database whose recorded model answers answer the calls it "
            "holds (the others are asked; the run prints hits and misses).",
        ),
    ] = None,
) -> None:
    """Play a tournament (running it again continues it), then write its report."""
    require_eval_extra("tournament")
    from autowerewolf.evaluation.report.build import build_report
    from autowerewolf.evaluation.tournament.config import load_tournament, scaffold_name
    from autowerewolf.evaluation.tournament.fingerprint import runs_note
    from autowerewolf.evaluation.tournament.play import pending, run_tournament
    from autowerewolf.evaluation.tournament.results import iter_rows
    from autowerewolf.evaluation.tournament.schedule import balanced_size

    spec = load_tournament(config)
    if probes is not None:
        spec = spec.model_copy(update={"probes": list(with_probes(Seating(), probes).probes)})
    out = out or Path("tournaments") / spec.name
    target = database(db or spec.db or out / "games.db")
    found = pending(spec, target)
    if found.note:
        console.print(f"Note: {found.note}.", highlight=False)
    balanced = balanced_size(spec)
    if balanced != spec.games:
        console.print(
            f"warning: {spec.games} games of {len(spec.contestants)} contestants make an "
            "unbalanced schedule (a block cut short, or team pairs met unequally often); "
            + (f"the smallest balanced size from there is {balanced}" if balanced else "")
            + ".",
            highlight=False,
        )
    console.print(
        f"Tournament {spec.name}: {found.done} games done, {len(found.todo)} to play ({target})."
    )
    record = None
    if spec.stop is None:
        outcomes = run_tournament(spec, target, concurrency, console, replay_from)
        console.print(", ".join(f"{k}: {v}" for k, v in sorted(outcomes.items()) if v))
    else:
        from autowerewolf.evaluation.tournament.sequential import run_sequential

        record = run_sequential(spec, target, concurrency, console, replay_from)
        console.print(record.summary(), highlight=False)
    rows = iter_rows(target, tournament=spec.name)
    with report_bar() as bar:
        report = build_report(
            rows,
            out,
            scaffold=iter_rows(target, tournament=scaffold_name(spec.name)),
            title=f"Tournament {spec.name}",
            resamples=spec.bootstrap,
            seed=spec.seed,
            gte=gte,
            progress=ReportBar(bar),
            note=runs_note(spec.name, found.runs),
            sequential=None if record is None else record.as_json(),
        )
    _print_ranking(report, out)


def _check_tournament(source: str, known: list[str], name: str | None, pool: bool) -> None:
    """A report covers one tournament: a name SOURCE holds, or the only one; several are
    pooled only when asked (a contestant name two tournaments use would be rated as one
    contestant across two agent designs)."""
    listed = ", ".join(known) or "none"
    if name is not None and name not in known:
        raise fail(f"no tournament named {name}; known: {listed}")
    if name is None and len(known) > 1:
        if not pool:
            raise fail(
                f"{source} holds {len(known)} tournaments ({listed}): choose one with "
                "--tournament NAME, or pool them with --all"
            )
        console.print(
            f"Note: pooling {len(known)} tournaments ({listed}); a contestant name used by "
            "several is rated as one contestant.",
            highlight=False,
        )


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
    every_tournament: Annotated[
        bool,
        typer.Option(
            "--all",
            help="Pool the games of every tournament in SOURCE (a contestant name used by "
            "several is rated as one contestant).",
        ),
    ] = False,
    resamples: Annotated[
        int | None,
        typer.Option(
            help=f"Bootstrap resamples, at least {MIN_RESAMPLES} (default: the tournament's, "
            "else 1000)."
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the bootstrap (default: the tournament's, else 0).")
    ] = None,
    debate_game: Annotated[
        str | None,
        typer.Option(help="Game whose synthetic votes the debate chart shows (default: first)."),
    ] = None,
    gte: GteOption = True,
) -> None:
    """Write the report (HTML, Markdown, CSV, JSON) of every finished game in SOURCE."""
    # Checked here rather than by typer's `min`: a usage error is a six-line box.
    if resamples is not None and resamples < MIN_RESAMPLES:
        raise fail(f"--resamples must be at least {MIN_RESAMPLES}, not {resamples}")
    if every_tournament and tournament_name is not None:
        raise fail("--tournament NAME reports one tournament, --all every one: not both")
    require_eval_extra("report")
    from autowerewolf.evaluation.report.build import build_report
    from autowerewolf.evaluation.tournament.config import scaffold_name
    from autowerewolf.evaluation.tournament.fingerprint import runs_note
    from autowerewolf.evaluation.tournament.results import (
        databases,
        iter_rows,
        tournament_names,
        tournament_settings,
    )

    dbs = databases(source)
    known = tournament_names(dbs)
    _check_tournament(source, known, tournament_name, every_tournament)
    # The scaffold baselines of the one tournament reported (none when several are pooled).
    reported = tournament_name or (known[0] if len(known) == 1 else None)
    settings = tournament_settings(dbs, tournament_name)
    note = ""
    if settings is not None:
        name, recorded = settings
        seed = recorded.seed if seed is None else seed
        resamples = recorded.bootstrap if resamples is None else resamples
        note = runs_note(name, recorded.runs)
        console.print(
            f"Tournament {name}: bootstrap seed {seed}, {resamples} resamples "
            "(the tournament's own unless --seed/--resamples say otherwise).",
            highlight=False,
        )
    where = database(source)
    if out is None:
        # Beside a file, in a folder; a Postgres database has no folder: here.
        out = (where if where.is_dir() else where.parent) if isinstance(where, Path) else Path()
        out = out / "report"

    def rows(tournament: str | None = tournament_name) -> Iterator["GameRow"]:
        return chain.from_iterable(iter_rows(db, tournament=tournament) for db in dbs)

    try:
        with report_bar() as bar:
            result = build_report(
                rows(),
                out,
                scaffold=rows(scaffold_name(reported)) if reported else (),
                resamples=1000 if resamples is None else resamples,
                seed=0 if seed is None else seed,
                plot_game=debate_game,
                gte=gte,
                progress=ReportBar(bar),
                note=note,
            )
    except ValueError as err:
        raise fail(str(err)) from None
    _print_ranking(result, out)


@app.command()
@one_line_errors
def plan(
    source: Annotated[
        str,
        typer.Argument(help="The pilot's game database (file or postgresql:// URL), or a folder."),
    ],
    compare: Annotated[
        tuple[str, str], typer.Option("--compare", help="The two contestants compared, A B.")
    ],
    width: Annotated[
        float, typer.Option("--width", help="Target width of the 95% interval of A - B.")
    ],
    tournament_name: Annotated[
        str | None, typer.Option("--tournament", help="Only this tournament's games.")
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option("--config", help="A tournament file whose price table prices the tokens."),
    ] = None,
    concurrency: Annotated[int, typer.Option(help="Games played at once.", min=1)] = 1,
) -> None:
    """Estimate the games, calls, tokens, hours and dollars that bring the paired interval
    of A's win rate minus B's to a target width, from a pilot's games."""
    require_eval_extra("plan")
    from autowerewolf.evaluation.plan import estimate
    from autowerewolf.evaluation.tournament.config import load_tournament
    from autowerewolf.evaluation.tournament.results import databases, iter_rows

    prices = None if config is None else load_tournament(config).prices
    rows = chain.from_iterable(
        iter_rows(db, tournament=tournament_name) for db in databases(source)
    )
    try:
        found = estimate(rows, compare, width, prices, concurrency)
    except ValueError as err:
        raise fail(str(err)) from None
    a, b = compare
    console.print(
        f"Pilot: {found.pilot_games} games in {found.pilot_blocks} blocks where {a} and {b} "
        f"both sat; block differences spread {found.block_spread:.3f}, so the paired interval "
        f"of {a} - {b} is now about {found.pilot_width:.3f} wide.",
        highlight=False,
    )
    console.print(
        f"For a width of {width:g}: {found.blocks} blocks, {found.games} games, "
        f"{found.calls:,.0f} decisions asked (model calls for LLM seats), "
        f"{found.tokens:,.0f} tokens, {found.hours:.2f} hours "
        f"of model time at {concurrency} games at once, ${found.dollars:,.2f}"
        + (" (some tokens had no price)" if found.unpriced else "")
        + ". A sequential stop (confidence sequence) needs more games for the same width.",
        highlight=False,
    )
