"""The project's error vocabulary. Each error's message is one line for the user.

The rules engine keeps its own `ConfigError` (an illegal rule configuration) and
`IllegalAction` (an answer the rules do not allow): it depends on nothing outside itself.
"""

from pydantic import ValidationError

from autowerewolf.rules.config import ConfigError, one_line
from autowerewolf.rules.decisions import IllegalAction


class AutoWerewolfError(Exception):
    """Base of the project's errors: bad input or a state the user can act on."""


class SettingsError(AutoWerewolfError, ValueError):
    """A settings file or flag (game, script, models, tournament) that cannot be used."""


class StoreError(AutoWerewolfError):
    """A database that cannot be used."""


class GameError(AutoWerewolfError):
    """A request about a saved game that cannot be honoured."""


class ReportError(AutoWerewolfError, ValueError):
    """Games that cannot make a report (too few finished games or contestants)."""


# Everything that is the user's to fix: the command line shows it as one `error:` line.
USER_ERRORS: tuple[type[Exception], ...] = (AutoWerewolfError, ConfigError, IllegalAction)


def first_line(err: BaseException) -> str:
    """An error's message as one line ('' if it has none): a validation error's summary,
    else the first line of its text."""
    if isinstance(err, ValidationError):
        return one_line(err)
    return (str(err).strip().splitlines() or [""])[0]


def settings_error(where: str, err: ValidationError) -> SettingsError:
    return SettingsError(f"{where}: {one_line(err)}")


__all__ = [
    "USER_ERRORS",
    "AutoWerewolfError",
    "ConfigError",
    "GameError",
    "IllegalAction",
    "SettingsError",
    "StoreError",
    "first_line",
    "one_line",
    "settings_error",
]
