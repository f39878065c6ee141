"""Commands that study saved games: positions build/run, experiment, export. They only
read the game databases they are given (opened read-only).

The evaluation modules are imported inside the commands: some need the `eval` extra
(numpy, scipy), and the CLI must start without it."""

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import Progress
from rich.table import Table

from autowerewolf.cli.app import app, console, one_line_errors
from autowerewolf.cli.options import ModelOption, ModelsOption, models_from
from autowerewolf.errors import SettingsError
from autowerewolf.evaluation.config import Price
from autowerewolf.files import read_mapping
from autowerewolf.players.factory import check_models
from autowerewolf.rules.roles import Role

positions_app = typer.Typer(help="Decision positions (WereBench-style VA and OI).")
app.add_typer(positions_app, name="positions")

SourceArgument = Annotated[
    Path, typer.Argument(help="A game database, or a folder of *.db files (read only).")
]
PricesOption = Annotated[
    Path | None,
    typer.Option(
        help="USD per million tokens by model name (YAML/JSON: {model: {input, output}})."
    ),
]


def _prices(path: Path | None) -> dict[str, Price]:
    if path is None:
        return {}
    return {name: Price.model_validate(p) for name, p in read_mapping(path, "prices").items()}


def _cell(block: dict[str, Any]) -> str:
    if block["mean"] is None:
        return "n/a"
    return f"{block['mean']:.3f} [{block['lo']:.3f}, {block['hi']:.3f}] n={block['n']}"


@positions_app.command("build")
@one_line_errors
def positions_build(
    source: SourceArgument,
    out: Annotated[Path, typer.Option(help="Items file to write (JSONL).")],
    board: Annotated[list[str], typer.Option(help="Only games on this board.")] = [],  # noqa: B006
    camp: Annotated[list[str], typer.Option(help="Only items of this winning camp.")] = [],  # noqa: B006
    day: Annotated[list[int], typer.Option(help="Only votes of this day.")] = [],  # noqa: B006
    player: Annotated[
        list[str], typer.Option(help="Only votes cast by this kind of player (llm, heuristic...).")
    ] = [],  # noqa: B006
    mvp: Annotated[bool, typer.Option(help="Only the winning camp's MVP (docs).")] = False,
) -> None:
    """Extract decision items (the winning camp's day exile votes) from finished games."""
    from autowerewolf.evaluation.positions import Filters, build_items, write_items

    if set(camp) - {"good", "wolf"}:
        raise SettingsError("--camp is good or wolf")
    filters = Filters(frozenset(board), frozenset(camp), frozenset(day), frozenset(player), mvp)
    count = write_items(build_items(source, filters), out)
    console.print(f"Wrote {count} items to {out}.")


@positions_app.command("run")
@one_line_errors
def positions_run(
    items_file: Annotated[Path, typer.Argument(help="Items file from `positions build`.")],
    models: ModelsOption = None,
    model: ModelOption = [],  # noqa: B006
    players: Annotated[
        str, typer.Option(help="The player under test: llm (on --models), heuristic or random.")
    ] = "llm",
    agent: Annotated[
        str | None, typer.Option(help="Agent design of the LLM player (today: plain).")
    ] = None,
    decodes: Annotated[int, typer.Option(help="Answers per item.", min=1)] = 5,
    concurrency: Annotated[int, typer.Option(help="Questions asked at once.", min=1)] = 1,
    seed: Annotated[int, typer.Option(help="Seed of the decodes and the bootstrap.", min=0)] = 0,
    limit: Annotated[int | None, typer.Option(help="Only the first N items.", min=1)] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Results file (JSONL); re-running continues it. Default: beside ITEMS."),
    ] = None,
    prices: PricesOption = None,
    resamples: Annotated[int, typer.Option(help="Bootstrap resamples.", min=100)] = 1000,
) -> None:
    """Ask the player under test every item; print VA and OI with 95% intervals."""
    import json

    from autowerewolf.evaluation.position_run import RunSpec, Tested, check_agent, run_positions
    from autowerewolf.evaluation.position_scores import summarize
    from autowerewolf.evaluation.positions import read_items

    if players not in ("llm", "heuristic", "random"):
        raise SettingsError("--players is llm, heuristic or random")
    if players != "llm" and (agent or models or model):
        raise SettingsError("--agent, --models and --model are for --players llm")
    check_agent(agent)
    items = read_items(items_file)[:limit]
    player_models = models_from(models, model) if players == "llm" else None
    if player_models is not None:
        check_models(player_models, sorted({i.view.seat for i in items}), list(Role))
    spec = RunSpec(
        items=items_file.name,
        players=players,
        agent=agent,
        models=player_models.model_dump(exclude_none=True) if player_models else None,
        decodes=decodes,
        seed=seed,
    )
    label = players if player_models is None else f"llm-{player_models.default.model}"
    out = out or items_file.with_name(f"{items_file.stem}.{label}.results.jsonl")
    tested = Tested(spec, player_models)
    try:
        with Progress(console=console) as bar:
            task = bar.add_task("answers", total=len(items) * decodes)
            rows = run_positions(
                items, tested, out, concurrency, _prices(prices), lambda: bar.advance(task)
            )
    finally:
        tested.pool.close()
    summary = summarize(items, rows, resamples, seed)
    summary_path = out.with_name(out.name.removesuffix(".jsonl") + ".summary.json")
    summary_path.write_text(json.dumps({"spec": spec.model_dump(), **summary}, indent=2))
    table = Table("", "VA [95%]", "OI [95%]")
    table.add_row("overall", _cell(summary["overall"]["va"]), _cell(summary["overall"]["oi"]))
    for group in ("by_role", "by_day"):
        for name, block in summary[group].items():
            prefix = "day " if group == "by_day" else ""
            table.add_row(f"{prefix}{name}", _cell(block["va"]), _cell(block["oi"]))
    console.print(table)
    console.print(
        f"{summary['items']} items, {summary['decodes']} answers, {summary['calls']} calls, "
        f"{summary['tokens_in']} tokens in ({summary['cached_tokens']} cached), "
        f"{summary['tokens_out']} out, {summary['latency_s']:.1f} s of model time, "
        f"${summary['cost_usd']:.4f}. Results: {out}"
    )
