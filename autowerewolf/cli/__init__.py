"""The `autowerewolf` command line."""

from autowerewolf.cli import (  # noqa: F401  (registers the commands)
    db_cmds,
    env_cmds,
    eval_cmds,
    play_cmds,
    serve_cmds,
    study_cmds,
    view_cmds,
)
from autowerewolf.cli.app import app

__all__ = ["app"]
