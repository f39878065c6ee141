"""The server's settings, passed from `autowerewolf serve` (or the environment of
`langgraph dev`) to the modules the LangGraph server loads by name."""

import os
from pathlib import Path

DB_ENV = "AW_DB"  # the game database
DEFAULT_DB = "games.db"  # as on the command line
MODELS_ENV = "AW_MODELS"  # a model config file for LLM seats (`serve --models`)


def database_path() -> Path:
    return Path(os.environ.get(DB_ENV) or DEFAULT_DB)


def models_path() -> Path | None:
    value = os.environ.get(MODELS_ENV)
    return Path(value) if value else None
