"""The server's settings, passed from `autowerewolf serve` (or the environment of
`langgraph dev`) to the modules the LangGraph server loads by name."""

import os
from pathlib import Path

DB_ENV = "AW_DB"  # the game database
DEFAULT_DB = "games.db"  # as on the command line
MODELS_ENV = "AW_MODELS"  # a model config file for LLM seats (`serve --models`)
EXPOSED_ENV = "AW_EXPOSED"  # `serve --expose`: other machines may reach the server
NIGHT_CALL_ENV = "AW_NIGHT_CALL_S"  # `serve --night-call-s`
DEFAULT_NIGHT_CALL_S = 5.0


def database_path() -> Path:
    return Path(os.environ.get(DB_ENV) or DEFAULT_DB)


def night_call_s() -> float:
    """Seconds per night role a night lasts at least when a human plays (night_clock.py)."""
    try:
        return max(0.0, float(os.environ.get(NIGHT_CALL_ENV, DEFAULT_NIGHT_CALL_S)))
    except ValueError:
        return DEFAULT_NIGHT_CALL_S


def is_exposed() -> bool:
    return os.environ.get(EXPOSED_ENV) == "1"


def models_path() -> Path | None:
    value = os.environ.get(MODELS_ENV)
    return Path(value) if value else None


def state_dir(db: Path) -> Path:
    """The server's own folder for a database (LangGraph's thread registry, the link book):
    next to the database, one per database."""
    return db.with_name(db.name + ".server")


def links_path() -> Path:
    return state_dir(database_path().resolve()) / "links.json"
