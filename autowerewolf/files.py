"""Reading the project's YAML/JSON settings files, with one-line errors.

Game, script, model and tournament files come from users and other people: each is read as
UTF-8 text of at most `MAX_FILE_BYTES`, and what it holds may nest at most `MAX_DEPTH`
deep and hold at most `MAX_NODES` values once YAML aliases are expanded (a few aliases of
aliases would otherwise expand to billions of values when the settings are validated).
"""

import json
import re
from pathlib import Path
from typing import Any

import yaml

from autowerewolf.errors import SettingsError

MAX_FILE_BYTES = 1_000_000
MAX_DEPTH = 32
MAX_NODES = 200_000
# Brackets counted on the raw text, inside quoted strings too, hence the margin.
MAX_RAW_BRACKET_DEPTH = 4 * MAX_DEPTH
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")


def _read_text(path: Path, what: str) -> str:
    if "\0" in str(path):
        raise SettingsError(f"cannot read {what} {str(path)!r}: the path holds a NUL byte")
    try:
        if not path.is_file():
            raise SettingsError(f"{what} not found: {path}")
        size = path.stat().st_size
        data = path.read_bytes() if size <= MAX_FILE_BYTES else b""
    except OSError as err:
        raise SettingsError(f"cannot read {what} {path}: {err.strerror}") from None
    if size > MAX_FILE_BYTES:
        raise SettingsError(
            f"{what} {path} is {size:,} bytes; settings files are at most {MAX_FILE_BYTES:,} bytes"
        )
    try:
        # utf-8-sig: a byte-order mark written by some editors is not part of the settings.
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise SettingsError(
            f"{what} {path} is not UTF-8 text (byte {data[err.start]:#04x} at offset "
            f"{err.start}); save it as UTF-8"
        ) from None


def _bracket_depth(text: str) -> int:
    """How deep `[`/`{` nest in the raw text. PyYAML's scanner spends time quadratic in
    the flow nesting depth before its parser hits the recursion limit, so deep flow
    nesting is refused before parsing."""
    depth = deepest = 0
    for char in _NOT_BRACKETS.sub("", text):
        depth = depth + 1 if char in "[{" else max(depth - 1, 0)
        deepest = max(deepest, depth)
    return deepest


def _parse(text: str, path: Path) -> Any:
    if _bracket_depth(text) > MAX_RAW_BRACKET_DEPTH:
        raise SettingsError(f"{path} nests too deeply (at most {MAX_DEPTH} levels)")
    try:
        return json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    except json.JSONDecodeError as err:
        raise SettingsError(f"bad JSON in {path} at line {err.lineno}: {err.msg}") from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(err, "problem", None) or "cannot parse"
        raise SettingsError(f"bad YAML in {path}{at}: {problem}") from None
    except RecursionError:
        # Both parsers recurse once per nesting level.
        raise SettingsError(f"{path} nests too deeply (at most {MAX_DEPTH} levels)") from None


def check_shape(data: Any, path: Path) -> None:
    """Refuse data nested deeper than MAX_DEPTH or holding more than MAX_NODES values.

    Walks with an explicit stack (no recursion) and counts a value reached twice through
    YAML aliases twice, as validation would."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    nodes = 0
    while stack:
        value, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise SettingsError(f"{path} holds too many values (at most {MAX_NODES:,})")
        if depth > MAX_DEPTH:
            raise SettingsError(f"{path} nests too deeply (at most {MAX_DEPTH} levels)")
        if isinstance(value, dict):
            stack.extend((item, depth + 1) for pair in value.items() for item in pair)
        elif isinstance(value, list | tuple):
            stack.extend((item, depth + 1) for item in value)


def read_mapping(path: Path, what: str) -> dict[str, Any]:
    """The mapping at the top of a YAML or JSON file (JSON by its `.json` suffix)."""
    return parse_mapping(_read_text(path, what), path)


def parse_mapping(text: str, path: Path) -> dict[str, Any]:
    """The mapping at the top of settings text that came from elsewhere than a file (a
    form's paste), under the same limits; `path` names it in errors (and `.json` picks JSON)."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_FILE_BYTES:
        raise SettingsError(
            f"{path} is {size:,} bytes; settings files are at most {MAX_FILE_BYTES:,} bytes"
        )
    data = _parse(text, path)
    check_shape(data, path)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise SettingsError(f"{path} must hold a mapping of settings, not {type(data).__name__}")
    return data
