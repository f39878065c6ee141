"""The report's cells: one number beside its 95% interval over games, its games, its n and
its chance level, or "n/a" with the reason; shared by every table (tables.py, debate.py)
and CSV (files.py)."""

from collections.abc import Mapping
from typing import Any, NamedTuple

from autowerewolf.evaluation.bootstrap import MIN_GAMES, small

NA = "n/a"
CELL_HEADER = ["value [95% interval]", "games", "n", "chance", "scaffold baseline"]
# A cell's fields in the CSVs, and whether it rests on fewer than MIN_GAMES games.
SCAFFOLD_FIELDS = ["scaffold", "scaffold_lo", "scaffold_hi", "scaffold_games"]
CELL_FIELDS = ["value", "lo", "hi", "games", "n", "chance", *SCAFFOLD_FIELDS]
CELL_COLUMNS = [*CELL_FIELDS, "small"]
SMALL_MARK = "*"  # beside the games of a cell from fewer than MIN_GAMES games
SMALL_NOTE = (
    f"{SMALL_MARK} beside games: fewer than {MIN_GAMES} games, an interval resting on a "
    "handful of clusters (the CSVs' `small` column)."
)
# Why a metric has no value for a contestant (the cell says "n/a (reason)").
NA_REASONS = {
    "win": "no game",
    "balanced_win_rate": "no role held",
    "key_role_survival": "never held a key role",
    "wolf_survival": "never a wolf",
    "irp_ballot": "no exile ballot while in the good camp",
    "vss_ballot": "no good-camp ballot in a round that exiled a wolf",
    "irp_game": "no exile ballot while in the good camp",
    "vss_game": "no exile in a game where it held a good seat",
    "kpi_seer": "never the Seer",
    "kpi_witch": "never the Witch, or no potion used",
    "kpi_guard": "never the Guard, or never guarded",
    "kpi_hunter": "never the Hunter, or no shot fired",
    "kpi_werewolf": "never a wolf",
    "blunders": "no opportunity",
    "per_decision": "no decision",
    "out_of_character": "no speech or wolf message of an LLM seat",
    "head_to_head": "no game where both played and their results differed",
}


class Table(NamedTuple):
    title: str
    header: list[str]
    rows: list[list[str]]
    note: str = ""  # a line under the table


def fmt(value: Any, digits: int = 3) -> str:
    if value is None:
        return NA
    if isinstance(value, float):
        # A difference of equal chances prints 0.000, not -0.000.
        return f"{value + 0.0 if round(value, digits) else 0.0:.{digits}f}"
    return str(value)


def interval(cell: Mapping[str, Any] | None, reason: str = "", digits: int = 3) -> str:
    """'value [lo, hi]', or 'n/a (reason)'."""
    if not cell or cell.get("value") is None:
        return f"{NA} ({reason})" if reason else NA
    if cell.get("lo") is None:
        return fmt(cell["value"], digits)
    return f"{cell['value']:.{digits}f} [{cell['lo']:.{digits}f}, {cell['hi']:.{digits}f}]"


def cell_columns(cell: Mapping[str, Any] | None, reason: str = "", digits: int = 3) -> list[str]:
    """The columns of CELL_HEADER; the games marked when they are few."""
    cell = cell or {}
    n = cell.get("n", 0)
    return [
        interval(cell, reason, digits),
        games_column(cell),
        f"{n:g}" if isinstance(n, (int, float)) else str(n),
        fmt(cell.get("chance"), digits),
        scaffold_column(cell, digits),
    ]


NO_SCAFFOLD = "-"  # not an LLM contestant's metric, or the tournament played no baseline


def scaffold_column(cell: Mapping[str, Any], digits: int = 3) -> str:
    """'value [lo, hi] (games)' of the cell's scaffold baseline, or NO_SCAFFOLD."""
    if "scaffold_games" not in cell:
        return NO_SCAFFOLD
    if cell.get("scaffold") is None:
        return NA
    baseline = {"value": cell["scaffold"], "lo": cell["scaffold_lo"], "hi": cell["scaffold_hi"]}
    return f"{interval(baseline, digits=digits)} ({cell['scaffold_games']} games)"


def games_column(cell: Mapping[str, Any]) -> str:
    games = str(cell.get("games", 0))
    return f"{games}{SMALL_MARK}" if small(cell) else games


def cell_values(cell: Mapping[str, Any]) -> list[Any]:
    """The CELL_COLUMNS of one cell, for a CSV row."""
    return [*(cell.get(k) for k in CELL_FIELDS), small(cell)]


NO_CHANCE = "-"  # a rate without a chance level: a random player writes no text


def counted(cell: Mapping[str, Any] | None, reason: str = "") -> str:
    """'x/y (share) [lo, hi]' of a rate whose n counts whole items, or 'n/a (reason)'."""
    if not cell or cell.get("value") is None:
        return f"{NA} ({reason})" if reason else NA
    n, value = cell["n"], cell["value"]
    text = f"{round(value * n)}/{round(n)} ({value:.1%})"  # whole items: never 1.2e+06
    return text if cell.get("lo") is None else f"{text} [{cell['lo']:.1%}, {cell['hi']:.1%}]"
