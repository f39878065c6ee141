"""Where games are saved: a SQLite file (`store.py`) or a PostgreSQL database."""
