"""A black-box sweep of the CLI: bad invocations of every command, and every reading
command on damaged, foreign, empty and read-only databases.

Counted per run: tracebacks (or internal errors), bad inputs accepted with exit code 0,
errors that are not one `error:` line, and database files modified by a command that only
reads. Every count must be 0. `python scripts/cli_sweep.py` prints them.

Case arguments name prepared files with `@` tokens (see `Workspace.resolve`); every case
gets fresh copies in its own folder, so cases never see each other's writes.
"""

import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .helpers import CRASHED_WRITER, FileState, cli, not_a_database, problems
from .sweep_cases import EXTRA_FILES, SETTINGS_FILES, Case, bad_invocations, database_runs


class Workspace:
    """Prepared databases and files; `resolve` gives each case its own copies."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.good = root / "prepared" / "good.db"
        self.waiting = root / "prepared" / "waiting.db"
        self.crashed = root / "prepared" / "crashed.db"
        self.good.parent.mkdir(parents=True)
        _ok(cli("play", "--players", "random", "--seed", "108", "--game-id", "g",
                "--narration", "off", "--db", self.good))  # fmt: skip
        _ok(cli("play", "--players", "random", "--seat", "P03=human", "--seed", "1",
                "--game-id", "w", "--narration", "off", "--db", self.waiting))  # fmt: skip
        subprocess.run([sys.executable, "-c", CRASHED_WRITER, str(self.crashed)],
                       check=True, timeout=300)  # fmt: skip
        self.count = 0
        self.read_only: list[Path] = []

    def folder(self) -> Path:
        self.count += 1
        folder = self.root / f"case{self.count:03d}"
        folder.mkdir()
        return folder

    def resolve(self, token: str, folder: Path) -> Path | str:
        if not token.startswith("@"):
            return token
        kind, _, detail = token[1:].partition(":")
        db = folder / "games.db"
        if kind in ("good", "damaged", "rofile", "headeronly", "newer", "appid"):
            shutil.copyfile(self.good, db)
        if kind == "new":
            return db
        if kind == "out":
            return folder / "out"
        if kind == "missing":
            return folder / "missing.db"
        if kind == "dir":
            (folder / "folder.db").mkdir()
            return folder / "folder.db"
        if kind == "file":
            path = folder / detail
            path.write_bytes({**SETTINGS_FILES, **EXTRA_FILES}[detail])
            return path
        if kind == "models":
            path = folder / "dead.yaml"  # a server that refuses at once: LLM seats fall back
            path.write_text("default: {backend: api, base_url: 'http://127.0.0.1:9/v1', "
                            "model: m, retries: 0, timeout_s: 2}\n", encoding="utf-8")  # fmt: skip
            return path
        if kind == "waiting":
            shutil.copyfile(self.waiting, db)
        elif kind in ("foreign", "empty", "text"):
            not_a_database(db, kind)
        elif kind == "damaged":
            db.write_bytes(damaged(self.good.read_bytes(), int(detail)))
        elif kind == "headeronly":
            db.write_bytes(self.good.read_bytes()[:100])
        elif kind in ("newer", "appid"):
            pragma = "user_version = 99" if kind == "newer" else "application_id = 1234"
            conn = sqlite3.connect(db)
            conn.execute(f"PRAGMA {pragma}")
            conn.close()
        elif kind == "rofile":
            db.chmod(0o444)
        elif kind == "rofolder":
            inner = folder / "locked"
            inner.mkdir()
            db = inner / "games.db"
            shutil.copyfile(self.good, db)
            inner.chmod(0o555)
            self.read_only.append(inner)
        elif kind in ("crashed", "walnoshm"):
            for suffix in ("", "-wal", "-shm"):
                if kind == "crashed" or suffix != "-shm":
                    shutil.copyfile(f"{self.crashed}{suffix}", f"{db}{suffix}")
        elif kind != "good":
            raise ValueError(f"unknown token {token}")
        return db

    def release(self) -> None:
        for folder in self.read_only:
            folder.chmod(0o755)


def damaged(data: bytes, seed: int) -> bytes:
    """`data` with bytes flipped past the 100-byte header, deterministically by `seed`."""
    rng = random.Random(seed)
    out = bytearray(data)
    for _ in range(1 + seed % 4):
        at = rng.randrange(100, len(out))
        out[at] ^= rng.randrange(1, 256)
    if seed % 3 == 2:
        at = rng.randrange(4096, len(out))
        out[at : at + 512] = bytes(len(out[at : at + 512]))
    return bytes(out)


def _ok(result: object) -> None:
    assert getattr(result, "exit_code", 1) == 0, getattr(result, "stderr", result)


@dataclass(frozen=True)
class Outcome:
    case: Case
    exit_code: int
    problems: tuple[str, ...]
    stderr: str


def run_case(workspace: Workspace, case: Case) -> Outcome:
    folder = workspace.folder()
    args = [workspace.resolve(a, folder) for a in case.args]
    watched = [a for a in args if isinstance(a, Path) and a.suffix == ".db" and a.is_file()]
    before = [FileState.of(db) for db in watched]
    result = cli(*args)
    found = problems(result, allow_ok=case.expect == "ok-or-error")
    if case.readonly and [FileState.of(db) for db in watched] != before:
        found.append("a reader modified the database")
    return Outcome(case, result.exit_code, tuple(found), result.stderr.strip()[:200])


def sweep(root: Path) -> Iterator[Outcome]:
    workspace = Workspace(root)
    try:
        for case in (*bad_invocations(), *database_runs()):
            yield run_case(workspace, case)
    finally:
        workspace.release()


TOTALS = (
    "bad invocations",
    "database runs",
    "tracebacks or internal errors",
    "accepted with exit 0",
    "errors not on one line",
    "readers that modified a file",
)


def _kind(problem: str) -> str:
    if "traceback" in problem or "exit code 1" in problem:
        return TOTALS[2]
    if "accepted" in problem:
        return TOTALS[3]
    return TOTALS[5] if "modified" in problem else TOTALS[4]


def counts(outcomes: list[Outcome]) -> Counter[str]:
    totals: Counter[str] = Counter()
    for outcome in outcomes:
        totals[TOTALS[0] if outcome.case.expect == "error" else TOTALS[1]] += 1
        for problem in outcome.problems:
            totals[_kind(problem)] += 1
    return totals


def main() -> None:
    os.environ.setdefault("AUTOWEREWOLF_LOG_DIR", tempfile.mkdtemp(prefix="sweep-logs-"))
    with tempfile.TemporaryDirectory(prefix="cli-sweep-") as root:
        outcomes = list(sweep(Path(root)))
    for outcome in outcomes:
        if outcome.problems:
            print(f"FAIL [{outcome.case.owner}] {outcome.case.name}: "
                  f"{'; '.join(outcome.problems)} | {outcome.stderr[:120]}")  # fmt: skip
    totals = counts(outcomes)
    for key in TOTALS:
        print(f"{key}: {totals[key]}")


if __name__ == "__main__":
    main()
