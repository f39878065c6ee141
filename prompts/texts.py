"""The fixed prompt texts, read from the files beside this module (rules.md, roles.yaml,
decisions.yaml, strategy.yaml) so that long texts can be edited without touching code."""

import re
from functools import cache
from importlib.resources import files

import yaml

_WORD = re.compile(r"[a-z0-9']+")


def read_text(name: str) -> str:
    return files("autowerewolf.prompts").joinpath(name).read_text(encoding="utf-8")


@cache
def read_yaml(name: str) -> dict[str, object]:
    data = yaml.safe_load(read_text(name))
    assert isinstance(data, dict), f"{name} must hold a mapping"
    return data


def word_runs(text: str, length: int) -> set[tuple[str, ...]]:
    """Every run of `length` words in a row of `text`, lowercased: what a copy of a prompt
    text shares with it."""
    words = _WORD.findall(text.lower())
    return {tuple(words[i : i + length]) for i in range(len(words) - length + 1)}
