"""The tournament report: HTML (self-contained), Markdown, and every number as CSV/JSON.

Every interval resamples whole games (bootstrap.py): one set of resamples, drawn from the
report's seed, serves every metric, the ratings and the pairwise differences, so the same
rows and seed print the same numbers wherever they are computed.
"""

import base64
import html
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from autowerewolf.errors import ReportError
from autowerewolf.evaluation.bootstrap import MIN_GAMES, Z95, Resamples, Sums
from autowerewolf.evaluation.debate.stats import SpeechChart
from autowerewolf.evaluation.debate.stats import summarize as summarize_debate
from autowerewolf.evaluation.games.facts import GameRow
from autowerewolf.evaluation.ratings.gte import RESAMPLES as GTE_RESAMPLES
from autowerewolf.evaluation.ratings.gte import gte_json, gte_ratings
from autowerewolf.evaluation.ratings.outcomes import (
    BTResult,
    bradley_terry,
    bradley_terry_by_role,
    openskill,
    role_counts,
    team_elo,
    team_elo_intervals,
)
from autowerewolf.evaluation.ratings.pairs import pair_table, paired_table
from autowerewolf.evaluation.report import debate as debate_report
from autowerewolf.evaluation.report import files as report_files
from autowerewolf.evaluation.report import paired, plots
from autowerewolf.evaluation.report import tables as report_tables
from autowerewolf.evaluation.report.cells import SMALL_NOTE, Table
from autowerewolf.evaluation.report.clean import clean_ratings, is_clean
from autowerewolf.evaluation.report.definitions import DEFINITIONS, FIGURES, UNITS
from autowerewolf.evaluation.report.designs import design_table
from autowerewolf.evaluation.report.metrics import Aggregator, Base, contestant_metrics
from autowerewolf.evaluation.report.scaffold import attach, scaffold_metrics
from autowerewolf.evaluation.report.validity import validity_table


class Progress(Protocol):
    """Where a long report says how far it got (the CLI's progress bar)."""

    def stage(self, name: str, total: int | None) -> None: ...

    def advance(self, amount: int = 1) -> None: ...


class Silent:
    def stage(self, name: str, total: int | None) -> None:
        pass

    def advance(self, amount: int = 1) -> None:
        pass


@dataclass(frozen=True)
class Report:
    games: int
    metrics: list[dict[str, Any]]
    bt: BTResult
    data: dict[str, Any]  # everything in metrics.json
    files: list[Path]


def _markdown(
    data: dict[str, Any], tables: list[Table], figures: list[tuple[str, str, str]]
) -> str:
    out = [
        f"# {data['title']}",
        "",
        f"{data['games']} finished games ({data['draws']} draws), "
        f"boards: {', '.join(data['boards'])}. {data['note']} {data['method']}",
        "",
    ]
    for table in tables:
        out += [f"## {table.title}", "", "| " + " | ".join(table.header) + " |"]
        out += ["|" + "---|" * len(table.header)]
        out += ["| " + " | ".join(row) + " |" for row in table.rows]
        out += ["", table.note, ""] if table.note else [""]
    out += ["## Plots", ""]
    for key, title, caption in figures:
        out += [f"![{title}](plots/{key}.png)", ""] + ([caption, ""] if caption else [])
    out += ["## Definitions", ""] + [f"* **{k}**: {v}" for k, v in data["definitions"].items()]
    return "\n".join(out) + "\n"


def _html(
    data: dict[str, Any],
    tables: list[Table],
    figures: list[tuple[str, str, str]],
    images: dict[str, str],
) -> str:
    esc = html.escape
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{esc(data['title'])}</title><style>body{{font-family:sans-serif;margin:2em;}}"
        "table{border-collapse:collapse;margin-bottom:0.5em}td,th{border:1px solid #ccc;"
        "padding:4px 8px;text-align:left}img{max-width:100%;display:block;margin:1em 0}"
        ".note{color:#444;max-width:60em;margin-bottom:1.5em}</style></head><body>",
        f"<h1>{esc(data['title'])}</h1><p>{data['games']} finished games "
        f"({data['draws']} draws), boards: {esc(', '.join(data['boards']))}. "
        f"{esc(data['note'])} {esc(data['method'])}</p>",
    ]
    for key, title, caption in figures:
        parts.append(
            f"<h2>{esc(title)}</h2><img alt='{key}' src='data:image/png;base64,{images[key]}'>"
        )
        if caption:
            parts.append(f"<p class='note'>{esc(caption)}</p>")
    for table in tables:
        parts.append(f"<h2>{esc(table.title)}</h2><table><tr>")
        parts += [f"<th>{esc(h)}</th>" for h in table.header] + ["</tr>"]
        for row in table.rows:
            parts.append("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>")
        parts.append("</table>")
        if table.note:
            parts.append(f"<p class='note'>{esc(table.note)}</p>")
    parts.append("<h2>Definitions</h2><ul>")
    parts += [f"<li><b>{esc(k)}</b>: {esc(v)}</li>" for k, v in data["definitions"].items()]
    parts.append("</ul></body></html>")
    return "\n".join(parts)


def _ratings(
    agg: Aggregator,
    games: dict[str, int],
    bt: BTResult,
    resamples: Resamples,
    gte: bool,
    progress: Progress,
) -> dict[str, Any]:
    names = bt.names
    solved = None
    gte_note = "skipped (--no-gte)"
    if gte:
        count = min(resamples.count, GTE_RESAMPLES)
        progress.stage("GTE solves", count)
        solved = gte_ratings(agg.teams, names, resamples, count, progress.advance)
        gte_note = "n/a: no role held by every contestant"
    progress.stage("Bradley-Terry by role, Elo", None)
    by_role = bradley_terry_by_role(agg.teams, resamples)
    held = role_counts(agg.teams)
    return {
        "bradley_terry": {
            "camp_intercept": bt.camp_intercept,
            "resamples": bt.resamples,
            "skills": [
                {
                    "contestant": n,
                    "games": games[n],
                    "skill": float(bt.skill[i]),
                    "lo": float(bt.lo[i]),
                    "hi": float(bt.hi[i]),
                    "chance": 0.0,
                }
                for i, n in enumerate(names)
            ],
            "p_above": {
                a: {b: float(bt.p_above[i, j]) for j, b in enumerate(names)}
                for i, a in enumerate(names)
            },
        },
        "gte": gte_json(solved),
        "gte_note": gte_note,
        "bt_by_role": [
            {
                "contestant": c,
                "role": r,
                "value": v,
                "lo": lo,
                "hi": hi,
                "games": held[(c, r)][0],
                "n": held[(c, r)][1],
                "chance": 0.0,
            }
            for (c, r), (v, lo, hi) in sorted(by_role.items())
        ],
        "team_elo": team_elo(agg.teams, names),
        "team_elo_intervals": team_elo_intervals(agg.teams, names, resamples),
        # OpenSkill's own posterior: a Plackett-Luce update per seat does not vectorise,
        # and replaying it on each resample would cost minutes at 10,000 games.
        "openskill": {
            c: {"mu": mu, "sigma": s, "lo": mu - Z95 * s, "hi": mu + Z95 * s}
            for c, (mu, s) in openskill(agg.teams, names).items()
        },
    }


def build_report(
    rows: Iterable[GameRow],
    out: Path,
    title: str = "AutoWerewolf tournament report",
    resamples: int = 1000,
    seed: int = 0,
    plot_game: str | None = None,
    gte: bool = True,
    progress: Progress | None = None,
    note: str = "",
    sequential: Mapping[str, Any] | None = None,
    scaffold: Iterable[GameRow] = (),
) -> Report:
    """The report of `rows`; `plot_game` picks the game whose synthetic votes are charted
    (default: the first game played with the speech_votes probe); `gte=False` leaves the
    game-theoretic ratings out; `note` goes under the title (which runs of a tournament
    planned which games); `sequential` is the stop rule's record (sequential.py);
    `scaffold`: the tournament's scaffold games, whose metrics stand beside each LLM
    contestant's (scaffold.py)."""
    progress = progress or Silent()
    agg, chart = Aggregator(), SpeechChart(plot_game)
    progress.stage("reading games", None)
    blocks: list[int | None] = []  # each game's seed: the games of a block share it
    clean: list[bool] = []  # per game: no seat answered illegally or fell back
    for row in rows:
        agg.add(row)
        clean.append(is_clean(row))
        chart.add(row)
        blocks.append(row["seed"] if row["seed"] is not None else -1 - len(blocks))
        progress.advance()
    names = agg.contestants
    if len(names) < 2:
        raise ReportError(
            f"a report needs finished games of at least two contestants, found {len(names)}"
        )
    draws = Resamples(agg.table.games, resamples, seed)
    progress.stage("resampling games", resamples)
    sums = Sums(agg.table, draws, progress.advance)
    base = Base.of(sums)
    metrics = [contestant_metrics(n, sums, base, n in agg.unpriced) for n in names]
    progress.stage("Bradley-Terry fits", None)
    bt = bradley_terry(agg.teams, names, draws)
    debate = summarize_debate(sums, names)
    debate["plot_game"] = chart.series[0] if chart.series else None
    debate_report.merge(metrics, debate)
    by_name = {m["contestant"]: m for m in metrics}
    llm = [n for n in names if "llm" in agg.kinds.get(n, ())]
    progress.stage("scaffold baselines", None)
    baselines = scaffold_metrics(scaffold, llm, resamples, seed)
    for name in llm:
        attach(by_name[name], baselines.get(name, {}))
    data: dict[str, Any] = {
        "title": title,
        "games": agg.table.games,
        "draws": agg.draws,
        "boards": sorted(agg.boards),
        "resamples": resamples,
        "seed": seed,
        "note": note,
        "method": f"Every interval is a 95% interval over games ({resamples} resamples of "
        f"whole games, seed {seed}; win rates: Wilson with one outcome per game; other shares: "
        "never narrower than Wilson at their effective count, so 0 of n keeps a width); games "
        "and n (the opportunities counted) stand beside each value, and the chance level of a "
        "uniformly random player (for outcomes: of the same camp or role over every game); "
        "beside an LLM contestant's, its scaffold baseline: a random answerer through its "
        "harness, with its interval and games. " + SMALL_NOTE,
        "min_games": MIN_GAMES,
        "scaffold": {n: baselines[n]["games"] if n in baselines else 0 for n in llm},
        "contestants": metrics,
        "kinds": {n: sorted(k) for n, k in agg.kinds.items()},
        "pairs": pair_table(names, sums, bt, by_name),
        "paired": paired_table(names, agg.table, blocks, resamples, seed),
        "sequential": dict(sequential) if sequential else None,
        "designs": design_table(sums, base.camp_win),
        "validity": validity_table(sums),
        "clean": clean_ratings(agg.teams, clean, names, resamples, seed),
        "ratings": _ratings(
            agg, {n: m["games"] for n, m in by_name.items()}, bt, draws, gte, progress
        ),
        "definitions": {**DEFINITIONS, **debate_report.DEFINITIONS},
        "units": UNITS,
        "debate": debate,
    }
    progress.stage("writing the report", None)
    debate_figures = debate_report.figures(chart)
    figures = [*FIGURES, *((k, t, "") for k, (t, _) in debate_figures.items())]
    images = {
        "ratings": plots.ratings(bt),
        "role_win_rates": plots.role_win_rates(metrics),
        "head_to_head": plots.head_to_head(metrics),
        "cost_vs_rating": plots.cost_vs_rating(metrics, bt),
        "blunders": plots.rates(
            metrics,
            {"overall blunder rate": lambda m: m["blunders"]["overall"]},
            "Blunders (every player kind)",
        ),
        "validity": plots.rates(
            metrics,
            {
                "illegal first answers": lambda m: m["illegal_rate"],
                "fallbacks": lambda m: m["fallback_rate"],
                "speeches out of character": lambda m: m["out_of_character"],
            },
            "Illegal answers, fallbacks and speeches out of character",
        ),
        **{k: image for k, (_, image) in debate_figures.items()},
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / "plots").mkdir(exist_ok=True)
    files = []
    for key, image in images.items():
        path = out / "plots" / f"{key}.png"
        path.write_bytes(base64.b64decode(image))
        files.append(path)
    tables = report_tables.tables(data) + paired.tables(data) + debate_report.tables(data["debate"])
    (out / "report.md").write_text(_markdown(data, tables, figures), encoding="utf-8")
    (out / "report.html").write_text(_html(data, tables, figures, images), encoding="utf-8")
    (out / "metrics.json").write_text(json.dumps(data, indent=2, default=list), encoding="utf-8")
    files += [out / "report.md", out / "report.html", out / "metrics.json"]
    files += report_files.csvs(out, data)
    return Report(agg.table.games, metrics, bt, data, files)
