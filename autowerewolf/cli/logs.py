"""The CLI's log file: library warnings and the tracebacks of internal errors.

The terminal only ever gets one line per problem. Everything longer goes to
`autowerewolf.log` in `$AUTOWEREWOLF_LOG_DIR`, else `$XDG_STATE_HOME/autowerewolf`, else
`~/.local/state/autowerewolf`; the file is created only when something is written, and
every line passes through the secret redaction. The file and its folder are private.
"""

import logging
import os
import tempfile
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

from autowerewolf.backends.redact import RedactingFormatter, redact_secrets
from autowerewolf.private_files import open_private_append

LOG_DIR_ENV = "AUTOWEREWOLF_LOG_DIR"
LOG_NAME = "autowerewolf.log"


def log_dir() -> Path:
    if os.environ.get(LOG_DIR_ENV):
        return Path(os.environ[LOG_DIR_ENV])
    state = os.environ.get("XDG_STATE_HOME")
    return (Path(state) if state else Path.home() / ".local" / "state") / "autowerewolf"


class _QuietFileHandler(logging.FileHandler):
    """Opens (and creates the folder of) its file on the first record; a log that cannot
    be written is skipped rather than printing logging's own traceback on the terminal."""

    def _open(self):  # type: ignore[no-untyped-def]  # typeshed: returns a TextIO
        return open_private_append(Path(self.baseFilename))

    def handleError(self, record: logging.LogRecord) -> None:
        pass


@contextmanager
def command_log() -> Iterator[Path]:
    """During one command, warnings of any library go to the log file, redacted."""
    path = log_dir() / LOG_NAME
    handler = _QuietFileHandler(path, delay=True, encoding="utf-8")
    handler.setLevel(logging.WARNING)
    handler.setFormatter(RedactingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    logging.captureWarnings(True)
    try:
        yield path
    finally:
        logging.captureWarnings(False)
        root.removeHandler(handler)
        handler.close()


def log_internal_error(path: Path, err: BaseException) -> str:
    """Append `err`'s traceback to the log (or a temporary file); says where it went."""
    text = "".join(traceback.format_exception(err))
    entry = f"{datetime.now().isoformat(timespec='seconds')} internal error\n{text}\n"
    fallback = Path(tempfile.gettempdir()) / f"autowerewolf-{os.getpid()}.log"
    for target in (path, fallback):
        try:
            with open_private_append(target) as f:
                f.write(redact_secrets(entry))
        except OSError:
            continue
        return f"full traceback in {target}"
    return "the traceback could not be written to a log file"
