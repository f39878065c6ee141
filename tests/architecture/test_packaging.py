"""Every package ships: pyproject's explicit `packages` list names each folder with an
`__init__.py` (a package left out works in an editable install and is missing from a
wheel)."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_is_listed_in_pyproject() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools = config["tool"]["setuptools"]
    listed = set(setuptools["packages"])
    found = set()
    for name, folder in setuptools["package-dir"].items():
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT / folder).parts
            if "__pycache__" not in parts and not any(p.startswith(".") for p in parts):
                found.add(".".join((name, *parts)))
    assert found <= listed, sorted(found - listed)
