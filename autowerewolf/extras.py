"""Optional dependencies: a missing one is a one-line error naming the extra to install."""

import importlib.util

from autowerewolf.errors import AutoWerewolfError


class MissingExtra(AutoWerewolfError):
    """An optional feature whose extra is not installed."""


def require(extra: str, *modules: str) -> None:
    """Raise MissingExtra naming `extra` if any of `modules` cannot be imported."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise MissingExtra(
            f"this needs the {extra!r} extra (module {missing[0]!r} is missing): "
            f"pip install 'autowerewolf[{extra}]'"
        )
