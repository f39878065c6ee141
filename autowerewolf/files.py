"""Reading the project's YAML/JSON settings files, with one-line errors."""

import json
from pathlib import Path
from typing import Any

import yaml

from autowerewolf.errors import SettingsError


def read_mapping(path: Path, what: str) -> dict[str, Any]:
    """The mapping at the top of a YAML or JSON file (JSON by its `.json` suffix)."""
    if not path.is_file():
        raise SettingsError(f"{what} not found: {path}")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise SettingsError(f"cannot read {what} {path}: {err.strerror}") from None
    try:
        data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    except json.JSONDecodeError as err:
        raise SettingsError(f"bad JSON in {path} at line {err.lineno}: {err.msg}") from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(err, "problem", None) or "cannot parse"
        raise SettingsError(f"bad YAML in {path}{at}: {problem}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise SettingsError(f"{path} must hold a mapping of settings, not {type(data).__name__}")
    return data
