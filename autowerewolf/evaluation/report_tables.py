"""The report's tables: (title, header, rows) of formatted cells, shared by its HTML and
Markdown."""

from typing import Any

from autowerewolf.evaluation.design_report import HEADLINE_BLUNDERS
from autowerewolf.evaluation.gte import gte_rows
from autowerewolf.evaluation.metrics import KPI_NAMES

NA = "n/a"


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None:
        return NA
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _interval(cell: dict[str, Any]) -> str:
    if cell.get("rate") is None:
        return NA
    return f"{cell['rate']:.3f} [{cell['lo']:.3f}, {cell['hi']:.3f}] (n={cell['n']:g})"


def _blunder_rate(cell: list[int] | None) -> str:
    if not cell or not cell[1]:
        return NA
    return f"{cell[0]}/{cell[1]} ({cell[0] / cell[1]:.0%})"


def tables(data: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    metrics, bt = data["contestants"], data["ratings"]["bradley_terry"]
    ranked = sorted(bt["skills"], key=lambda s: -s["skill"])
    names = [s["contestant"] for s in ranked]
    rating_rows = [
        [
            s["contestant"],
            _fmt(s["skill"]),
            f"[{s['lo']:.3f}, {s['hi']:.3f}]",
            _fmt(data["ratings"]["team_elo"][s["contestant"]], 1),
            _fmt(data["ratings"]["openskill"][s["contestant"]]["mu"], 2),
        ]
        for s in ranked
    ]
    above = [[a] + [_fmt(bt["p_above"][a][b], 3) for b in names] for a in names]
    by_name = {m["contestant"]: m for m in metrics}
    main = [
        [
            n,
            str(by_name[n]["games"]),
            _interval(by_name[n]["win"]),
            _fmt(by_name[n]["balanced_win_rate"]),
            _fmt(by_name[n]["key_role_survival"]),
            _fmt(by_name[n]["wolf_survival"]),
            _fmt(by_name[n]["irp_ballot"]),
            _fmt(by_name[n]["vss_ballot"]),
            _fmt(by_name[n]["irp_game"]),
            _fmt(by_name[n]["vss_game"]),
        ]
        for n in names
    ]
    roles = sorted({r for m in metrics for r in m["win_by_role"]})
    role_rows = [
        [n] + [_interval(by_name[n]["win_by_role"].get(r, {})) for r in roles] for n in names
    ]
    kpi_rows = [[n] + [_fmt(by_name[n]["role_kpi"][r]) for r in KPI_NAMES] for n in names]
    cost_rows = [
        [
            n,
            _fmt(by_name[n]["fallback_rate"], 4),
            _fmt(by_name[n]["invalid_rate"], 4),
            _fmt(by_name[n]["tokens_per_game"], 0),
            _fmt(by_name[n]["cost_usd_per_game"], 4)
            + ("" if by_name[n]["cost_complete"] else " (unpriced models)"),
            _fmt(by_name[n]["latency_s_per_game"], 2),
            f"{by_name[n]['probe_calls_per_game']:.0f} calls, "
            f"{by_name[n]['probe_tokens_per_game']:.0f} tokens, "
            f"{by_name[n]['probe_cost_usd_per_game']:.4f} USD",
        ]
        for n in names
    ]
    gte = data["ratings"]["gte"]
    gte_table = (
        "Game-theoretic ratings (max-entropy CE over role win rates"
        + (f": {', '.join(gte['roles'])})" if gte else ": n/a, no role held by every contestant)"),
        ["contestant", "GTE rating", "95% interval", "equilibrium weight"],
        gte_rows(gte) if gte else [],
    )
    design_rows = [
        [
            d["model"],
            d["agent"],
            str(d["games"]),
            _interval(d["win"]),
            _fmt(d["win_by_camp"].get("wolf")),
            _fmt(d["win_by_camp"].get("good")),
            _fmt(d["est"]),
            *[_blunder_rate(d["blunders"].get(m)) for m in HEADLINE_BLUNDERS],
        ]
        for d in data["designs"]
    ]
    return [
        (
            "Agent designs (LLM seats, per model and design)",
            [
                "model",
                "agent",
                "games",
                "win rate [95%] (teams)",
                "as wolf",
                "as good",
                "Est",
                *[f"blunders: {m}" for m in HEADLINE_BLUNDERS],
            ],
            design_rows,
        ),
        (
            "Ratings (Bradley-Terry headline; Elo and OpenSkill baselines)",
            ["contestant", "BT skill", "95% interval", "team Elo", "OpenSkill mu"],
            rating_rows,
        ),
        ("P(row ranks above column), bootstrap", ["", *names], above),
        gte_table,
        (
            "Outcomes and voting",
            [
                "contestant",
                "games",
                "win rate [95%]",
                "balanced win",
                "key-role survival",
                "wolf survival",
                "IRP ballot",
                "VSS ballot",
                "IRP game",
                "VSS game",
            ],
            main,
        ),
        ("Win rate by role", ["contestant", *roles], role_rows),
        ("Role KPIs", ["contestant", *KPI_NAMES], kpi_rows),
        (
            "Validity and cost per game",
            [
                "contestant",
                "fallback rate",
                "invalid rate",
                "tokens",
                "cost USD",
                "latency s",
                "probes (apart)",
            ],
            cost_rows,
        ),
    ]
