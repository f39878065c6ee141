"""The boards a user is told of are the registry's (rules/config.py `BOARDS`): the `--board`
help of `play` and `batch`, and the board table of docs/rules.md §1 that other pages refer to."""

import re
from pathlib import Path
from typing import Any

import typer.main

from autowerewolf.cli import app
from autowerewolf.rules.config import BOARDS

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def board_help(command: str) -> str:
    group: Any = typer.main.get_command(app)
    (option,) = (p for p in group.commands[command].params if p.name == "board")
    help_text: str = option.help
    return help_text


def test_the_board_help_names_every_board() -> None:
    for command in ("play", "batch"):
        named = re.findall(r"[\w-]+", board_help(command).partition(":")[2].partition("(")[0])
        assert named == list(BOARDS), command


def test_the_rules_board_table_names_exactly_the_registrys_boards() -> None:
    section = RULES.read_text().split("## 1. Boards and setup", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([^`]+)`", section, flags=re.MULTILINE)
    assert rows == [*BOARDS, "custom"]
