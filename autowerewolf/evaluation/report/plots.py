"""The report's figures, as base64 PNG strings ready to embed in HTML."""

import base64
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import matplotlib

matplotlib.use("Agg")  # no display: reports are written by CLI runs and tests

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from autowerewolf.evaluation.debate.probes import SpeechVotes, speech_shares
from autowerewolf.evaluation.ratings.outcomes import BTResult

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2")


def _encode(fig: Figure) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def ratings(bt: BTResult) -> str:
    order = np.argsort(bt.skill)
    fig, ax = plt.subplots(figsize=(7, 0.6 * len(order) + 1.5))
    y = np.arange(len(order))
    skill = bt.skill[order]
    # With few games the point estimate can fall outside its bootstrap interval, and
    # matplotlib refuses negative error bars: draw those as zero.
    errors = np.clip(np.vstack([skill - bt.lo[order], bt.hi[order] - skill]), 0, None)
    colors = [PALETTE[i % len(PALETTE)] for i in order]
    ax.barh(y, skill, color=colors, alpha=0.35)
    ax.errorbar(skill, y, xerr=errors, fmt="o", color="black", capsize=6)
    ax.set_yticks(y, [bt.names[i] for i in order])
    ax.axvline(0, color="grey", lw=1, ls="--", label="chance: all contestants alike")
    ax.set_xlabel("Bradley-Terry skill (logits), 95% interval over games")
    ax.set_title("Ratings")
    ax.legend(loc="lower right", fontsize=8)
    return _encode(fig)


def _errors(cells: Sequence[Mapping[str, Any] | None]) -> tuple[list[float], np.ndarray]:
    """Values (0 for none) and non-negative error bars of cells."""
    values: list[float] = []
    below: list[float] = []
    above: list[float] = []
    for cell in cells:
        found = cell or {}
        value = found.get("value") or 0.0
        lo, hi = found.get("lo"), found.get("hi")
        values.append(value)
        below.append(value - (value if lo is None else lo))
        above.append((value if hi is None else hi) - value)
    # With few games the point estimate can fall outside its interval: no negative bars.
    return values, np.clip(np.vstack([below, above]), 0, None)


def _chance_ticks(ax: Any, x: Iterable[float], width: float, cells: Sequence[Any]) -> bool:
    """A black dash at each bar's chance level; whether any was drawn."""
    drawn = False
    for xi, c in zip(x, cells, strict=True):
        if c and c.get("chance") is not None:
            ax.hlines(c["chance"], xi - width / 2, xi + width / 2, color="black", lw=2)
            drawn = True
    return drawn


def role_win_rates(metrics: Sequence[dict[str, Any]]) -> str:
    roles = sorted({role for m in metrics for role in m["win_by_role"]})
    fig, ax = plt.subplots(figsize=(8, 4))
    width = 0.8 / max(len(metrics), 1)
    x = np.arange(len(roles))
    for i, m in enumerate(metrics):
        cells = [m["win_by_role"].get(r) for r in roles]
        rates, err = _errors(cells)
        at = x + i * width
        ax.bar(
            at,
            rates,
            width,
            yerr=err,
            capsize=3,
            color=PALETTE[i % len(PALETTE)],
            label=m["contestant"],
        )
        _chance_ticks(ax, at, width, cells)
    ax.plot([], [], color="black", lw=2, label="chance: the camp's rate here")
    ax.set_xticks(x + width * (len(metrics) - 1) / 2, roles)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (Wilson 95%)")
    ax.set_title("Win rate by role")
    ax.legend(fontsize=8, bbox_to_anchor=(1.01, 1), loc="upper left")
    return _encode(fig)


def head_to_head(metrics: Sequence[dict[str, Any]]) -> str:
    names = [m["contestant"] for m in metrics]
    grid = np.full((len(names), len(names)), np.nan)
    games = np.zeros((len(names), len(names)), dtype=int)
    for i, m in enumerate(metrics):
        for j, other in enumerate(names):
            cell = m["head_to_head"].get(other)
            if cell and cell["value"] is not None:
                grid[i, j] = cell["value"]
                games[i, j] = cell["games"]
    size = 1.2 * len(names) + 2.5
    fig, ax = plt.subplots(figsize=(size, size * 0.8))
    image = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=1)
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)), names)
    for i in range(len(names)):
        for j in range(len(names)):
            if not np.isnan(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:.2f}\n({games[i, j]} g)", ha="center", va="center")
    fig.colorbar(image, ax=ax, label="share of games row beat column (chance 0.5)")
    ax.set_title("Head to head")
    return _encode(fig)


def pareto_front(points: Sequence[tuple[float, float]]) -> list[int]:
    """Indices of the points no other point beats on both cost (lower) and rating
    (higher), by increasing cost."""
    order = sorted(range(len(points)), key=lambda i: (points[i][0], -points[i][1]))
    front, best = [], -np.inf
    for i in order:
        if points[i][1] > best:
            front.append(i)
            best = points[i][1]
    return front


def cost_vs_rating(metrics: Sequence[dict[str, Any]], bt: BTResult) -> str:
    index = {n: i for i, n in enumerate(bt.names)}
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    points = []
    for i, m in enumerate(metrics):
        k = index[m["contestant"]]
        cost = m["cost_usd_per_game"]["value"] or 0.0
        skill = float(bt.skill[k])
        points.append((cost, skill))
        err = np.clip([[skill - bt.lo[k]], [bt.hi[k] - skill]], 0, None)
        ax.errorbar(
            cost,
            skill,
            yerr=err,
            fmt="o",
            ms=9,
            capsize=5,
            color=PALETTE[i % len(PALETTE)],
            label=m["contestant"],
        )
        # Contestants of equal cost (rule-based ones cost nothing) share an x: name them.
        ax.annotate(m["contestant"], (cost, skill), xytext=(8, 0), textcoords="offset points")
    front = pareto_front(points)
    ax.step(
        [points[i][0] for i in front],
        [points[i][1] for i in front],
        where="post",
        color="grey",
        ls="--",
        label="Pareto frontier",
    )
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("cost per game (USD)")
    ax.set_ylabel("Bradley-Terry skill, 95% interval")
    ax.set_title("Cost against rating")
    ax.legend(fontsize=8)
    return _encode(fig)


def rates(metrics: Sequence[dict[str, Any]], pick: Mapping[str, Any], title: str) -> str:
    """Bars with intervals and chance dashes: for each contestant, each named rate
    (`pick`: label -> function of a contestant's entry giving a cell)."""
    names = [m["contestant"] for m in metrics]
    fig, ax = plt.subplots(figsize=(7, 3.8))
    width = 0.8 / max(len(pick), 1)
    x = np.arange(len(names))
    top = 0.05
    for i, (label, get) in enumerate(pick.items()):
        cells = [get(m) for m in metrics]
        values, err = _errors(cells)
        at = x + i * width
        ax.bar(at, values, width, yerr=err, capsize=3, color=PALETTE[i % len(PALETTE)], label=label)
        _chance_ticks(ax, at, width, cells)
        top = max(top, *(v + e for v, e in zip(values, err[1], strict=True)))
        top = max(top, *((c or {}).get("chance") or 0.0 for c in cells))
    ax.plot([], [], color="black", lw=2, label="chance")
    ax.set_xticks(x + width * (len(pick) - 1) / 2, names, rotation=20, ha="right")
    ax.set_ylim(0, min(1.0, top * 1.2))
    ax.set_ylabel("share, 95% interval over games")
    ax.set_title(title)
    ax.legend(fontsize=8)
    return _encode(fig)


def speech_votes(game_id: str, days: Mapping[str, Sequence[SpeechVotes]]) -> str:
    """Werewolf Arena's debate chart: for each day of one game, every target's share of the
    synthetic votes after each speech (x: the speaker, in speaking order)."""
    ordered = sorted(days, key=int)
    seat_colors = matplotlib.colormaps["tab20"]
    fig, axes = plt.subplots(len(ordered), 1, figsize=(9, 2.8 * len(ordered)), squeeze=False)
    for ax, day in zip(axes[:, 0], ordered, strict=True):
        speakers, shares = speech_shares(days[day])
        x = np.arange(len(speakers))
        bottom = np.zeros(len(speakers))
        for target, values in sorted(shares.items()):
            # One colour per seat on every day: P01..P20 on tab20, abstentions grey.
            color = "#cccccc" if target == "abstain" else seat_colors(int(target[1:]) - 1)
            ax.bar(x, values, bottom=bottom, color=color, label=target, width=0.8)
            bottom += np.array(values)
        ax.set_xticks(x, [f"{n + 1}:{s}" for n, s in enumerate(speakers)], rotation=45, ha="right")
        ax.set_ylim(0, 1)
        ax.set_ylabel(f"day {day}")
        ax.legend(fontsize=7, ncol=2, bbox_to_anchor=(1.01, 1), loc="upper left")
    axes[0, 0].set_title(f"Synthetic exile votes after each speech ({game_id})")
    axes[-1, 0].set_xlabel("speech (speaker)")
    fig.tight_layout()
    return _encode(fig)
