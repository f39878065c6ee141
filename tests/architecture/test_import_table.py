"""The import table of docs/architecture.md ("Layout") is the rule: every module of each
folder imports, of the package, only itself and the names its row allows. The table is
read from the page, so changing the layering means changing the documented table."""

import ast
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
_ROW = re.compile(r"^\| `([^`]+/)` \| `([\w.]+)` \| .* \| (.*) \|$")


def layout() -> list[tuple[Path, str, str]]:
    """(folder, import name, may import) of every row of the page's layout table."""
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = [m.groups() for line in text.splitlines() if (m := _ROW.match(line))]
    return [(REPO / folder, name, allowed) for folder, name, allowed in rows]


def owner(path: Path, rows: list[tuple[Path, str, str]]) -> tuple[Path, str, str]:
    """The row of the deepest folder holding `path`."""
    holding = [row for row in rows if path.is_relative_to(row[0])]
    return max(holding, key=lambda row: len(row[0].parts))


def package_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        found += [n for n in names if n == "autowerewolf" or n.startswith("autowerewolf.")]
    return found


def allows(row: tuple[Path, str, str], rows: list[tuple[Path, str, str]], module: str) -> bool:
    """Whether `row`'s modules may import `module`: its own names and those its cell
    lists in backticks; "everything above" adds any name but those of the rows below it."""
    _, name, allowed = row
    within = lambda prefix: module == prefix or module.startswith(f"{prefix}.")  # noqa: E731
    if within(name) and not any(within(n) for _, n, _ in rows if n != name and n.startswith(name)):
        return True
    if any(within(f"autowerewolf.{n}") for n in re.findall(r"`([\w.]+)`", allowed)):
        return True
    below = rows[rows.index(row) + 1 :]
    return "everything above" in allowed and not any(within(n) for _, n, _ in below)


def test_the_table_names_every_top_level_folder() -> None:
    rows = layout()
    assert {f.relative_to(REPO).as_posix() for f, _, _ in rows} >= {
        "rules", "prompts", "nodes", "graph", "autowerewolf", "autowerewolf/players"
    }  # fmt: skip


@pytest.mark.parametrize("row", layout(), ids=lambda row: row[1])
def test_every_module_imports_only_what_its_row_allows(row: tuple[Path, str, str]) -> None:
    rows = layout()
    wrong = []
    for path in sorted(row[0].rglob("*.py")):
        if owner(path, rows) != row:
            continue
        wrong += [
            f"{path.relative_to(REPO)}: {module}"
            for module in package_imports(path)
            if not allows(row, rows, module)
        ]
        if "never LangGraph" in row[2]:
            source = path.read_text(encoding="utf-8")
            assert not re.search(r"^\s*(from|import) langgraph", source, re.M), path
    assert wrong == []
