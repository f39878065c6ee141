"""The `autowerewolf` command line."""

from autowerewolf.cli import eval_cmds, play_cmds, view_cmds  # noqa: F401  (registers the commands)
from autowerewolf.cli.app import app

__all__ = ["app"]
