"""A `--db` value (or `db:` in a file): a SQLite file path or a PostgreSQL URL."""

import re
from dataclasses import dataclass
from pathlib import Path

# What the user writes; psycopg reads the rest of the URL (host, port, user, options).
POSTGRES_URL = re.compile(r"postgres(?:ql)?://\S*")


@dataclass(frozen=True)
class Postgres:
    url: str

    def __str__(self) -> str:
        # Shown in messages: never the password.
        return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", self.url)


Database = Path | Postgres


def database(value: str | Path | Postgres) -> Database:
    """A path, or a Postgres database for a `postgresql://` (or `postgres://`) URL."""
    if isinstance(value, Path | Postgres):
        return value
    if POSTGRES_URL.fullmatch(value.strip()):
        return Postgres(value.strip())
    return Path(value)


def source_name(db: Database) -> str:
    """How exports and position items name the database a game came from: the file's name,
    or the PostgreSQL URL without its password."""
    return db.name if isinstance(db, Path) else str(db)
