"""The tournament report: HTML (self-contained), Markdown, and every number as CSV/JSON."""

import base64
import csv
import html
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autowerewolf.errors import ReportError
from autowerewolf.evaluation import debate_report, plots, report_tables
from autowerewolf.evaluation.debate_stats import METRICS, DebateAggregator
from autowerewolf.evaluation.design_report import design_table
from autowerewolf.evaluation.facts import GameRow
from autowerewolf.evaluation.gte import RESAMPLES as GTE_RESAMPLES
from autowerewolf.evaluation.gte import gte_json, gte_ratings
from autowerewolf.evaluation.metrics import KPI_NAMES, Aggregator, contestant_metrics
from autowerewolf.evaluation.ratings import (
    BTResult,
    bradley_terry,
    bradley_terry_by_role,
    openskill,
    team_elo,
)

DEFINITIONS = {
    "win": "share of the contestant's seats whose camp won, per game; Wilson 95% interval",
    "balanced_win_rate": "mean over roles of the role-conditional win rates",
    "key_role_survival": "share of seer/witch/hunter/guard/idiot seats alive at the end",
    "irp_ballot": "Kaggle Game Arena IRP: good-camp exile ballots aimed at a wolf / ballots",
    "vss_ballot": "Kaggle Game Arena VSS: on days a wolf was exiled, good-camp ballots of the "
    "deciding round aimed at that wolf / those ballots",
    "irp_game": "DSGBench/WereWolf-Plus IRP: per game, own good-camp ballots at wolves / "
    "own good-camp ballots; mean over games",
    "vss_game": "DSGBench/WereWolf-Plus VSS: per game, exiles that removed a wolf / exiles; "
    "mean over games with a good seat",
    **{f"kpi_{role}": text for role, text in KPI_NAMES.items()},
    "gte": "game-theoretic rating (Kaggle Game Arena, polarix ce_maxent): expected payoff "
    "against the max-entropy correlated equilibrium of the roles x contestants win-rate game, "
    "minus the equilibrium payoff (0 = in the equilibrium's support); bootstrap over games",
    "est": "Strategy Adaptation's Est: how well the other seats' role estimates read the "
    "design's seats (mean over estimate rounds of the mean Acc of their raters)",
    "blunders": "decisions wrong whatever the player believed, / the decisions that could "
    "have been (docs/blunders.md)",
}
FIGURES = (
    ("ratings", "Ratings with 95% bootstrap intervals"),
    ("role_win_rates", "Win rate by role"),
    ("head_to_head", "Pairwise win-rate heatmap"),
    ("cost_vs_rating", "Cost against rating"),
    ("fallback_rates", "Fallback rates"),
)


@dataclass(frozen=True)
class Report:
    games: int
    metrics: list[dict[str, Any]]
    bt: BTResult
    data: dict[str, Any]  # everything in metrics.json
    files: list[Path]


def _markdown(data: dict[str, Any], tables: list[Any], figures: list[tuple[str, str]]) -> str:
    out = [
        f"# {data['title']}",
        "",
        f"{data['games']} finished games ({data['draws']} draws), "
        f"boards: {', '.join(data['boards'])}.",
        "",
    ]
    for title, header, rows in tables:
        out += [f"## {title}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        out += ["| " + " | ".join(row) + " |" for row in rows]
        out.append("")
    out += ["## Plots", ""] + [f"![{t}](plots/{k}.png)" for k, t in figures] + [""]
    out += ["## Definitions", ""] + [f"* **{k}**: {v}" for k, v in data["definitions"].items()]
    return "\n".join(out) + "\n"


def _html(
    data: dict[str, Any], tables: list[Any], figures: list[tuple[str, str]], images: dict[str, str]
) -> str:
    esc = html.escape
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{esc(data['title'])}</title><style>body{{font-family:sans-serif;margin:2em;}}"
        "table{border-collapse:collapse;margin-bottom:1.5em}td,th{border:1px solid #ccc;"
        "padding:4px 8px;text-align:left}img{max-width:100%;display:block;margin:1em 0}"
        "</style></head><body>",
        f"<h1>{esc(data['title'])}</h1><p>{data['games']} finished games "
        f"({data['draws']} draws), boards: {esc(', '.join(data['boards']))}.</p>",
    ]
    for key, title in figures:
        parts.append(
            f"<h2>{esc(title)}</h2><img alt='{key}' src='data:image/png;base64,{images[key]}'>"
        )
    for title, header, rows in tables:
        parts.append(f"<h2>{esc(title)}</h2><table><tr>")
        parts += [f"<th>{esc(h)}</th>" for h in header] + ["</tr>"]
        for row in rows:
            parts.append("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>")
        parts.append("</table>")
    parts.append("<h2>Definitions</h2><ul>")
    parts += [f"<li><b>{esc(k)}</b>: {esc(v)}</li>" for k, v in data["definitions"].items()]
    parts.append("</ul></body></html>")
    return "\n".join(parts)


def _write_csv(path: Path, header: list[str], rows: Iterable[list[Any]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def _csvs(out: Path, data: dict[str, Any]) -> list[Path]:
    metrics = data["contestants"]
    scalar = [k for k, v in metrics[0].items() if not isinstance(v, dict) and k not in METRICS]
    flat = [
        [m[k] for k in scalar] + [m["win"]["rate"], m["win"]["lo"], m["win"]["hi"]] for m in metrics
    ]
    roles = [
        [
            m["contestant"],
            role,
            cell["rate"],
            cell["lo"],
            cell["hi"],
            cell["n"],
            m["survival_by_role"].get(role),
            m["role_kpi"].get(role),
        ]
        for m in metrics
        for role, cell in m["win_by_role"].items()
    ]
    bt = data["ratings"]["bradley_terry"]
    ratings = [
        [
            s["contestant"],
            s["skill"],
            s["lo"],
            s["hi"],
            data["ratings"]["team_elo"][s["contestant"]],
            data["ratings"]["openskill"][s["contestant"]]["mu"],
            data["ratings"]["openskill"][s["contestant"]]["sigma"],
        ]
        for s in bt["skills"]
    ]
    pairs = [
        [m["contestant"], other, cell["rate"], cell["n"], bt["p_above"][m["contestant"]][other]]
        for m in metrics
        for other, cell in m["head_to_head"].items()
    ]
    by_role = [[c, r, v] for (c, r), v in data["ratings"]["bt_by_role_pairs"]]
    return [
        _write_csv(out / "contestants.csv", [*scalar, "win_rate", "win_lo", "win_hi"], flat),
        _write_csv(
            out / "roles.csv",
            ["contestant", "role", "win_rate", "win_lo", "win_hi", "games", "survival", "kpi"],
            roles,
        ),
        _write_csv(
            out / "ratings.csv",
            [
                "contestant",
                "bt_skill",
                "bt_lo",
                "bt_hi",
                "team_elo",
                "openskill_mu",
                "openskill_sigma",
            ],
            ratings,
        ),
        _write_csv(
            out / "head_to_head.csv",
            ["contestant", "opponent", "win_rate", "games", "p_ranks_above"],
            pairs,
        ),
        _write_csv(out / "bt_by_role.csv", ["contestant", "role", "skill"], by_role),
        _write_csv(out / "debate.csv", *debate_report.csv_rows(data["debate"])),
    ]


def build_report(
    rows: Iterable[GameRow],
    out: Path,
    title: str = "AutoWerewolf tournament report",
    resamples: int = 1000,
    seed: int = 0,
    plot_game: str | None = None,
) -> Report:
    """The report of `rows`; `plot_game` picks the game whose synthetic votes are charted
    (default: the first game played with the speech_votes probe)."""
    rows = list(rows)
    agg, debate = Aggregator().add_all(rows), DebateAggregator(plot_game)
    for row in rows:
        debate.add(row)
    names = agg.contestants
    if len(names) < 2:
        raise ReportError(
            f"a report needs finished games of at least two contestants, found {len(names)}"
        )
    metrics = [contestant_metrics(n, agg.tallies[n]) for n in names]
    bt = bradley_terry(agg.teams, names, resamples=resamples, seed=seed)
    by_role = bradley_terry_by_role(agg.teams)
    skills = [
        {"contestant": n, "skill": float(bt.skill[i]), "lo": float(bt.lo[i]), "hi": float(bt.hi[i])}
        for i, n in enumerate(names)
    ]
    data: dict[str, Any] = {
        "title": title,
        "games": len(agg.teams),
        "draws": agg.draws,
        "boards": sorted(agg.boards),
        "contestants": metrics,
        "designs": design_table(rows),
        "ratings": {
            "bradley_terry": {
                "camp_intercept": bt.camp_intercept,
                "resamples": bt.resamples,
                "seed": seed,
                "skills": skills,
                "p_above": {
                    a: {b: float(bt.p_above[i, j]) for j, b in enumerate(names)}
                    for i, a in enumerate(names)
                },
            },
            "gte": gte_json(
                gte_ratings(agg.teams, names, min(resamples, GTE_RESAMPLES), seed=seed)
            ),
            "bt_by_role_pairs": sorted(by_role.items()),
            "team_elo": team_elo(agg.teams, names),
            "openskill": {
                c: {"mu": mu, "sigma": s} for c, (mu, s) in openskill(agg.teams, names).items()
            },
        },
        "definitions": {**DEFINITIONS, **debate_report.DEFINITIONS},
        "debate": debate_report.summarize(debate, names, resamples, seed),
    }
    debate_report.merge(metrics, data["debate"])
    debate_figures = debate_report.figures(debate)
    figures = [*FIGURES, *((k, title) for k, (title, _) in debate_figures.items())]
    images = {
        "ratings": plots.ratings(bt),
        "role_win_rates": plots.role_win_rates(metrics),
        "head_to_head": plots.head_to_head(metrics),
        "cost_vs_rating": plots.cost_vs_rating(metrics, bt),
        "fallback_rates": plots.fallback_rates(metrics),
        **{k: image for k, (_, image) in debate_figures.items()},
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / "plots").mkdir(exist_ok=True)
    files = []
    for key, image in images.items():
        path = out / "plots" / f"{key}.png"
        path.write_bytes(base64.b64decode(image))
        files.append(path)
    tables = report_tables.tables(data) + debate_report.tables(data["debate"])
    (out / "report.md").write_text(_markdown(data, tables, figures), encoding="utf-8")
    (out / "report.html").write_text(_html(data, tables, figures, images), encoding="utf-8")
    (out / "metrics.json").write_text(json.dumps(data, indent=2, default=list), encoding="utf-8")
    files += [out / "report.md", out / "report.html", out / "metrics.json", *_csvs(out, data)]
    return Report(len(agg.teams), metrics, bt, data, files)
