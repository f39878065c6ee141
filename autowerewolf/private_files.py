"""Files only their owner can read: every file this project writes is created 0600 in
folders created 0700.

A game database (and its -wal/-shm), the web server's link book and LangGraph's run
registry, an export, a report, a log: each may hold a game's deal, night actions or
reasoning, which the machine's other users must never read (docs/security.md). Two layers
make it so whatever the user's umask:

- the command line and the server run under `PRIVATE_UMASK` (`private_umask`), which
  covers what libraries create on our behalf (LangGraph's registry, SQLite's -wal/-shm);
- our own code creates its files and folders with explicit modes here, so that a program
  using the Python API under another umask writes private files too.
"""

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from autowerewolf.errors import SettingsError

PRIVATE_UMASK = 0o077
FILE_MODE = 0o600
DIR_MODE = 0o700


@contextlib.contextmanager
def private_umask() -> Iterator[None]:
    """Run the block under `PRIVATE_UMASK`; the previous umask comes back after it."""
    previous = os.umask(PRIVATE_UMASK)
    try:
        yield
    finally:
        os.umask(previous)


def private_dir(path: Path) -> Path:
    """`path` as a folder, each missing folder on the way created 0700; folders that
    already exist keep their modes (they are the user's)."""
    missing: list[Path] = []
    current = path
    while not current.exists():
        missing.append(current)
        if current.parent == current:
            break
        current = current.parent
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):  # made by another process meanwhile
            folder.mkdir(mode=DIR_MODE)
            folder.chmod(DIR_MODE)  # mkdir's mode passes through the umask
    if not path.is_dir():
        raise NotADirectoryError(f"{path} is not a folder")
    return path


def create_private_file(path: Path) -> None:
    """Create `path` empty and 0600 if it does not exist. SQLite gives a database's
    -wal and -shm the mode of the database file, so they follow."""
    private_dir(path.parent)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))


def open_private_append(path: Path) -> IO[str]:
    """`path` opened to append text, created 0600 if new (logs, lists grown line by line)."""
    private_dir(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, FILE_MODE)
    return os.fdopen(fd, "a", encoding="utf-8")


@contextlib.contextmanager
def replaced_atomically(path: Path) -> Iterator[IO[str]]:
    """A text file that becomes `path` (0600) only when the block ends without an error:
    written beside it under a temporary name and renamed, so that a failure leaves no
    empty or half-written file."""
    folder = private_dir(path.parent)
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".partial")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as file:
            yield file
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


@contextlib.contextmanager
def output_folder(path: Path) -> Iterator[Path]:
    """The folder an export or a report writes into, created 0700 if missing and removed
    again if the block fails while the folder is still empty."""
    if path.exists() and not path.is_dir():
        raise SettingsError(f"{path} is a file, not a folder: choose another --out")
    created = not path.exists()
    private_dir(path)
    try:
        yield path
    except BaseException:
        if created:
            with contextlib.suppress(OSError):  # not empty: what is there stays
                path.rmdir()
        raise


def write_private_text(path: Path, text: str) -> None:
    """Write `text` to `path` (0600), all at once or not at all."""
    with replaced_atomically(path) as file:
        file.write(text)
