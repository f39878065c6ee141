"""The report's table of win-rate differences paired within blocks (ratings/pairs.py), and
the sequential stop's record (tournament/sequential.py) when the tournament had one."""

from collections.abc import Mapping
from typing import Any

from autowerewolf.evaluation.report.cells import Table, fmt, interval

PAIRED_NOTE = (
    "A block is the games that share a deal and a seed (the schedule's common random "
    "numbers). Unpaired: the interval from resampling games as if independent; paired: "
    "from resampling whole blocks, so each deal's luck cancels within the pair. Variance "
    "reduction: the unpaired variance over the paired one (above 1: the shared deals made "
    "the comparison that many times cheaper in games)."
)


def _paired(data: Mapping[str, Any]) -> Table:
    rows = [
        [
            p["a"],
            p["b"],
            str(p["games"]),
            str(p["blocks"]),
            interval(p["unpaired"]),
            interval(p["paired"]),
            fmt(p["variance_reduction"]),
        ]
        for p in data["paired"]
    ]
    header = [
        "A",
        "B",
        "games",
        "blocks",
        "win rate A - B, unpaired",
        "paired",
        "variance reduction",
    ]
    return Table("Pairs within blocks: paired win-rate differences", header, rows, PAIRED_NOTE)


def _sequential(record: Mapping[str, Any]) -> Table:
    rows = [
        [
            str(i + 1),
            str(x["games"]),
            str(x["blocks"]),
            f"{x['difference']:+.3f}",
            f"[{x['lo']:+.3f}, {x['hi']:+.3f}]",
            x["decision"] or "-",
        ]
        for i, x in enumerate(record["looks"])
    ]
    a, b = record["compare"]
    return Table(
        f"Sequential stop: {a} minus {b}, margin {record['margin']:g}, alpha {record['alpha']:g}",
        ["look", "games", "blocks", "paired difference", "confidence sequence", "decision"],
        rows,
        f"Stopped after {record['looks'][-1]['games']} of {record['planned']} planned games "
        f"({record['decision'] or 'undecided'}). The confidence sequence holds at every look "
        "at once (docs/evaluation.md, Sequential stopping).",
    )


def tables(data: Mapping[str, Any]) -> list[Table]:
    out = [_paired(data)] if data["paired"] else []
    if data.get("sequential"):
        out.append(_sequential(data["sequential"]))
    return out
