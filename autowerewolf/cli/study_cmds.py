"""Commands that study saved games: positions build/run, experiment, export. They only
read the game databases they are given (opened read-only).

The evaluation modules are imported inside the commands: some need the `eval` extra
(numpy, scipy), and the CLI must start without it."""

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import Progress
from rich.table import Table

from autowerewolf.backends.config import ModelOverride
from autowerewolf.cli.app import DbOption, app, console, one_line_errors
from autowerewolf.cli.options import DEFAULT_DB, ModelOption, ModelsOption, models_from, parse_pairs
from autowerewolf.errors import SettingsError
from autowerewolf.evaluation.tournament.config import Price
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
    from autowerewolf.evaluation.positions.scores import block_text
    from autowerewolf.evaluation.report.cells import SMALL_MARK

    return block_text(block, SMALL_MARK if block["small"] else "")


def _chance(block: dict[str, Any]) -> str:
    return "n/a" if block["chance"] is None else f"{block['chance']:.3f}"


@positions_app.command("build")
@one_line_errors
def positions_build(
    source: SourceArgument,
    out: Annotated[Path, typer.Option(help="Items file to write (JSONL).")],
    board: Annotated[list[str], typer.Option(help="Only games on this board.")] = [],  # noqa: B006
    camp: Annotated[list[str], typer.Option(help="Only items of this winning camp.")] = [],  # noqa: B006
    day: Annotated[list[int], typer.Option(help="Only votes of this day.")] = [],  # noqa: B006
    reference: Annotated[
        list[str],
        typer.Option(
            help="Whose recorded votes are references: a player kind (llm, heuristic, human, "
            "scripted, override, random, simulated) or 'all'. Default: all but random and "
            "simulated."
        ),
    ] = [],  # noqa: B006
    player: Annotated[
        list[str], typer.Option(help="Deprecated name of --reference.", hidden=True)
    ] = [],  # noqa: B006
    mvp: Annotated[bool, typer.Option(help="Only the winning camp's MVP (docs).")] = False,
) -> None:
    """Extract decision items (the winning camp's day exile votes) from finished games."""
    from autowerewolf.evaluation.positions.items import Filters, Kept, build_items, write_items

    if set(camp) - {"good", "wolf"}:
        raise SettingsError("--camp is good or wolf")
    kinds = frozenset(reference + player) or None
    filters = Filters(frozenset(board), frozenset(camp), frozenset(day), kinds, mvp)
    kept = Kept()
    count = write_items(build_items(source, filters, kept), out)
    dropped = ", ".join(f"{k} {n}" for k, n in sorted(kept.dropped_kinds.items()))
    given = {"--reference", *(f for f, v in (("--board", board), ("--camp", camp)) if v)}
    given |= {f for f, v in (("--day", day), ("--mvp", mvp)) if v}
    steps = [
        f"{name} kept {n}" + (f" (dropped: {dropped})" if name == "--reference" and dropped else "")
        for name, n in kept.steps
        if name in given
    ]
    which = ", ".join(sorted(kinds)) if kinds else "all but random and simulated"
    console.print(
        f"{kept.ballots} exile ballots of winning camps; references: {which}; " + "; ".join(steps),
        highlight=False,
    )
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

    from autowerewolf.evaluation.positions.items import read_items
    from autowerewolf.evaluation.positions.run import RunSpec, UnderTest, check_agent, run_positions
    from autowerewolf.evaluation.positions.scores import summarize
    from autowerewolf.evaluation.report.cells import SMALL_NOTE

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
    tested = UnderTest(spec, player_models)
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
    table = Table("", "VA [95% over games]", "chance", "OI [95% over games]", "chance")
    groups = [("overall", summary["overall"])]
    for group in ("by_role", "by_day"):
        prefix = "day " if group == "by_day" else ""
        groups += [(f"{prefix}{name}", block) for name, block in summary[group].items()]
    for name, block in groups:
        va, oi = block["va"], block["oi"]
        table.add_row(name, _cell(va), _chance(va), _cell(oi), _chance(oi))
    console.print(table)
    console.print(SMALL_NOTE, highlight=False)
    console.print(
        f"{summary['items']} items, {summary['decodes']} answers, {summary['calls']} calls, "
        f"{summary['tokens_in']} tokens in ({summary['cached_tokens']} cached), "
        f"{summary['tokens_out']} out, {summary['latency_s']:.1f} s of model time, "
        f"${summary['cost_usd']:.4f}. Results: {out}"
    )


@app.command()
@one_line_errors
def experiment(
    game_id: Annotated[str, typer.Argument(help="The saved game to branch from.")],
    step: Annotated[int, typer.Option(help="Step (ply) to branch from.", min=0)],
    replicates: Annotated[int, typer.Option(help="Continuations per arm.", min=1)] = 20,
    set_: Annotated[
        list[str],
        typer.Option("--set", help="Treatment: a forced answer, e.g. P03.exile_vote=P07."),
    ] = [],  # noqa: B006
    seat: Annotated[
        str | None, typer.Option(help="Treatment: this seat is played by an LLM on --models.")
    ] = None,
    models: ModelsOption = None,
    base_models: Annotated[
        Path | None,
        typer.Option(help="Models of the source game's LLM seats (default: the embedded model)."),
    ] = None,
    db: DbOption = DEFAULT_DB,
    out: Annotated[
        Path | None, typer.Option(help="Experiment folder; default experiments/GAME-stepN.")
    ] = None,
    concurrency: Annotated[int, typer.Option(help="Games played at once.", min=1)] = 1,
    seed: Annotated[int, typer.Option(help="Root of the replicates' player seeds.", min=0)] = 0,
) -> None:
    """Compare R forked continuations with a change against R plain ones: win rate per
    camp with 95% intervals and the difference. Re-running continues."""
    import json

    from autowerewolf.evaluation.experiments import (
        ExperimentSpec,
        prepare,
        run_experiment,
        summarize,
    )

    if (seat is None) != (models is None):
        raise SettingsError("--seat and --models go together")
    if not set_ and seat is None:
        raise SettingsError("give the treatment: --set SEAT.STEP=VALUE and/or --seat with --models")
    seat_model = None
    if seat is not None:
        # The seat plays on the file's default model, as written: what the file leaves
        # unset stays unset (max_tokens then follows the answer bounds).
        given = models_from(models, [])
        seat_model = ModelOverride.model_validate(given.default.model_dump(exclude_unset=True))
    spec = ExperimentSpec(
        source=str(db),
        game_id=game_id,
        step=step,
        replicates=replicates,
        seed=seed,
        overrides=parse_pairs(set_, "--set"),
        seat=seat,
        seat_model=seat_model,
    )
    folder = out or Path("experiments") / f"{game_id}-step{step}"
    games_db = prepare(spec, folder)
    with Progress(console=console) as bar:
        task = bar.add_task("games", total=2 * replicates)
        outcomes = run_experiment(
            spec, games_db, models_from(base_models, []), concurrency, lambda *_: bar.advance(task)
        )
    summary = summarize(spec, outcomes)
    (folder / "summary.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    table = Table("arm", "finished", "good wins [95%]", "wolf wins [95%]", "draws")
    for arm, row in summary["arms"].items():
        cells = [
            "n/a" if row[c]["rate"] is None else
            f"{row[c]['rate']:.3f} [{row[c]['lo']:.3f}, {row[c]['hi']:.3f}]"
            for c in ("good", "wolf")
        ]  # fmt: skip
        table.add_row(arm, f"{row['finished']}/{row['planned']}", *cells, str(row["draws"]))
    console.print(table)
    reference, treated = summary["arms"]["baseline"], summary["arms"]["treatment"]
    console.print(
        f"Reference level: the baseline arm (continuations of {game_id} from step {step} "
        f"without the change, {reference['finished']} finished); a difference of 0 is no "
        "effect.",
        highlight=False,
    )
    for camp, d in summary["difference"].items():
        console.print(
            f"{camp} win rate, treatment - baseline: {d['diff']:+.3f} "
            f"[{d['lo']:+.3f}, {d['hi']:+.3f}] (treatment {treated[camp]['rate']:.3f} against "
            f"the reference {reference[camp]['rate']:.3f})",
            highlight=False,
        )
    console.print(f"Games: {games_db}; summary: {folder / 'summary.json'}")


@app.command("export")
@one_line_errors
def export_games(
    source: SourceArgument,
    out: Annotated[Path, typer.Option(help="Folder for the JSONL files and manifest.json.")],
    format_: Annotated[
        str,
        typer.Option(
            "--format",
            help="dataset (games, events, decisions) or chat (one OpenAI-chat example per "
            "LLM or external agent decision).",
        ),
    ] = "dataset",
    model: Annotated[str | None, typer.Option(help="chat: only this model's decisions.")] = None,
    role: Annotated[str | None, typer.Option(help="chat: only seats of this role.")] = None,
    camp: Annotated[str | None, typer.Option(help="chat: only seats of this camp.")] = None,
    winners_only: Annotated[
        bool, typer.Option("--winners-only", help="chat: only seats whose camp won.")
    ] = False,
) -> None:
    """Export finished games as a dataset: JSONL per game, event and decision, with hidden
    fields marked (omniscient, private) and a manifest; or, with --format chat, as chat
    trajectories for training (docs/evaluation.md)."""
    if format_ == "chat":
        from autowerewolf.evaluation.export.chat import ChatFilter, export_chat

        if camp is not None and camp not in ("wolf", "good"):
            raise SettingsError(f"--camp must be wolf or good, not {camp!r}")
        chosen = ChatFilter(model=model, role=role, camp=camp, winners_only=winners_only)
        counts = export_chat(source, out, chosen)["counts"]
        skipped = f"; {counts['unreplayable']} games could not be replayed" if counts[
            "unreplayable"] else ""  # fmt: skip
        console.print(
            f"Exported {counts['examples']} chat examples from {counts['games']} games "
            f"to {out / 'chat.jsonl'}{skipped}."
        )
        return
    if format_ != "dataset":
        raise SettingsError(f"--format must be dataset or chat, not {format_!r}")
    if model or role or camp or winners_only:
        raise SettingsError("--model, --role, --camp and --winners-only filter --format chat")
    from autowerewolf.evaluation.export.jsonl import export

    manifest = export(source, out)
    counts = manifest["counts"]
    console.print(
        f"Exported {counts['games']} games ({counts['events']} events, "
        f"{counts['decisions']} decisions) to {out}."
    )
