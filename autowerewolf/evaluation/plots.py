"""The report's figures, as base64 PNG strings ready to embed in HTML."""

import base64
import io
from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib

matplotlib.use("Agg")  # no display: reports are written by CLI runs and tests

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from autowerewolf.evaluation.debate import SpeechVotes, speech_shares
from autowerewolf.evaluation.ratings import BTResult

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
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_xlabel("Bradley-Terry skill (logits), 95% bootstrap interval")
    ax.set_title("Ratings")
    return _encode(fig)


def role_win_rates(metrics: Sequence[dict[str, Any]]) -> str:
    roles = sorted({role for m in metrics for role in m["win_by_role"]})
    fig, ax = plt.subplots(figsize=(8, 4))
    width = 0.8 / max(len(metrics), 1)
    x = np.arange(len(roles))
    for i, m in enumerate(metrics):
        rates = [m["win_by_role"].get(r, {}).get("rate") or 0.0 for r in roles]
        lo = [m["win_by_role"].get(r, {}).get("lo") or 0.0 for r in roles]
        hi = [m["win_by_role"].get(r, {}).get("hi") or 0.0 for r in roles]
        err = np.clip(np.vstack([np.subtract(rates, lo), np.subtract(hi, rates)]), 0, None)
        ax.bar(
            x + i * width,
            rates,
            width,
            yerr=err,
            capsize=3,
            color=PALETTE[i % len(PALETTE)],
            label=m["contestant"],
        )
    ax.set_xticks(x + width * (len(metrics) - 1) / 2, roles)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (Wilson 95%)")
    ax.set_title("Win rate by role")
    ax.legend()
    return _encode(fig)


def head_to_head(metrics: Sequence[dict[str, Any]]) -> str:
    names = [m["contestant"] for m in metrics]
    grid = np.full((len(names), len(names)), np.nan)
    for i, m in enumerate(metrics):
        for j, other in enumerate(names):
            cell = m["head_to_head"].get(other)
            if cell and cell["rate"] is not None:
                grid[i, j] = cell["rate"]
    size = 1.2 * len(names) + 2.5
    fig, ax = plt.subplots(figsize=(size, size * 0.8))
    image = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=1)
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)), names)
    for i in range(len(names)):
        for j in range(len(names)):
            if not np.isnan(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center")
    fig.colorbar(image, ax=ax, label="share of games row beat column")
    ax.set_title("Head to head")
    return _encode(fig)


def cost_vs_rating(metrics: Sequence[dict[str, Any]], bt: BTResult) -> str:
    skill = dict(zip(bt.names, bt.skill, strict=True))
    fig, ax = plt.subplots(figsize=(6, 4))
    for i, m in enumerate(metrics):
        ax.scatter(
            m["cost_usd_per_game"],
            skill[m["contestant"]],
            s=90,
            color=PALETTE[i % len(PALETTE)],
            label=m["contestant"],
        )
    ax.set_xlabel("cost per game (USD)")
    ax.set_ylabel("Bradley-Terry skill")
    ax.set_title("Cost against rating")
    ax.legend()
    return _encode(fig)


def fallback_rates(metrics: Sequence[dict[str, Any]]) -> str:
    fig, ax = plt.subplots(figsize=(6, 3.5))
    names = [m["contestant"] for m in metrics]
    rates = [m["fallback_rate"] or 0.0 for m in metrics]
    ax.bar(names, rates, color=[PALETTE[i % len(PALETTE)] for i in range(len(names))])
    ax.set_ylim(0, max(0.05, max(rates, default=0) * 1.2))
    ax.set_ylabel("share of decisions")
    ax.set_title("Fallback rate (invalid answers replaced)")
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
