"""The fixed prompt texts, read from the files beside this module (rules.md, roles.yaml,
decisions.yaml, strategy.yaml) so that long texts can be edited without touching code."""

from functools import cache
from importlib.resources import files

import yaml


def read_text(name: str) -> str:
    return files("autowerewolf.prompts").joinpath(name).read_text(encoding="utf-8")


@cache
def read_yaml(name: str) -> dict[str, object]:
    data = yaml.safe_load(read_text(name))
    assert isinstance(data, dict), f"{name} must hold a mapping"
    return data
