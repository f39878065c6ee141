"""Install time of the README's first command (`pip install -e ".[local]"`, without the game
it then plays), in a fresh virtualenv, as a newcomer meets it:

- warm: pip's own cache as it is on this machine (a second install);
- cold: an empty pip cache (`PIP_CACHE_DIR` in a new temporary folder), so every package is
  fetched again from the indexes pip is configured with.

    python benchmarks/install.py --runs 1

Prints wall and CPU seconds of each install, with the load average before it: other work
on the machine slows the figures down.
"""

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PLAY_SUFFIX = " && autowerewolf play"


def readme_install_command() -> str:
    """The README's first Quick start command, less the game it starts."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Quick start\n", 1)[1].split("\n## ", 1)[0]
    command = re.findall(r"```bash\n(.*?)```", section, re.S)[0].strip()
    if not command.endswith(PLAY_SUFFIX):
        sys.exit(f"error: the README's first command no longer ends with {PLAY_SUFFIX!r}")
    return command.removesuffix(PLAY_SUFFIX)


def timed_install(command: str, cache: Path | None) -> tuple[float, float]:
    """(wall s, CPU s of pip and its children) of the command in a fresh virtualenv."""
    with tempfile.TemporaryDirectory() as tmp:
        venv = Path(tmp) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        env = {**os.environ, "PATH": f"{venv / 'bin'}:{os.environ['PATH']}"}
        env["VIRTUAL_ENV"] = str(venv)
        if cache is not None:
            env["PIP_CACHE_DIR"] = str(cache)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.monotonic()
        subprocess.run(
            ["bash", "-c", command], cwd=REPO, env=env, check=True, stdout=subprocess.DEVNULL
        )
        wall = time.monotonic() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return wall, cpu


def load() -> str:
    return "load {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=1, help="installs of each kind")
    args = parser.parse_args()
    command = readme_install_command()
    print(f"command: {command}", flush=True)
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as empty:
            for kind, cache in (("cold (empty pip cache)", Path(empty)), ("warm", None)):
                status = load()
                wall, cpu = timed_install(command, cache)
                print(f"{status} | {kind}: {wall:.1f} s wall, {cpu:.1f} s CPU", flush=True)


if __name__ == "__main__":
    main()
