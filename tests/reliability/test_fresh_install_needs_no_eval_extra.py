"""Promise: with only the README's main install (no `eval` extra), `--help` and every
command but `report`/`tournament` work; those two say in one line which extra to install.
"""

import json
import subprocess
import sys
from pathlib import Path

# The eval extra's packages, made unimportable below.
_EVAL_PACKAGES = ("numpy", "scipy", "openskill", "matplotlib")

# Runs in a fresh interpreter where the eval extra's packages cannot be imported, as on a
# machine that never installed them; prints each command's exit code and output.
_WITHOUT_EVAL = """
import json, sys
for name in sys.argv[2:]:
    sys.modules[name] = None  # `import name` now fails as if it were not installed
from typer.testing import CliRunner
from autowerewolf.cli import app
db = sys.argv[1]
commands = [
    ["--help"],
    ["play", "--players", "random", "--seed", "108", "--game-id", "g", "--db", db],
    ["games", "--db", db], ["inspect", "g", "--db", db], ["history", "g", "--db", db],
    ["replay", "g", "--db", db], ["fork", "g", "--step", "3", "--db", db],
    ["batch", "--games", "1", "--players", "random", "--board", "8-arena", "--db", db],
    ["resume", "g", "--db", db],
    ["report", db], ["tournament", "examples/tournament.yaml", "--db", db],
]
runner = CliRunner()
results = [runner.invoke(app, args) for args in commands]
print(json.dumps([[r.exit_code, r.stdout, r.stderr] for r in results]))
"""


def test_commands_without_the_eval_extra(tmp_path: Path) -> None:
    repo = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", _WITHOUT_EVAL, str(tmp_path / "games.db"), *_EVAL_PACKAGES],
        capture_output=True, text=True, timeout=300, cwd=repo,
        env={"AUTOWEREWOLF_LOG_DIR": str(tmp_path / "logs"), "PATH": "/usr/bin:/bin",
             "HOME": str(tmp_path)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    *working, resume, report, tournament = results
    for code, stdout, stderr in working:
        assert code == 0, (stdout, stderr)
        assert "Traceback" not in stdout + stderr
    assert "Winner:" in working[1][1]
    assert resume == [2, "", "error: game 'g' is already over\n"]  # a finished game
    hint = "needs the 'eval' extra (module {!r} is missing): pip install -e \".[eval]\""
    for command, (code, stdout, stderr) in (("report", report), ("tournament", tournament)):
        assert code == 2 and stdout == ""
        # The first of them the command imports is named: which one is a matter of import order.
        expected = [[f"error: `{command}` {hint.format(name)}"] for name in _EVAL_PACKAGES]
        assert stderr.strip().splitlines() in expected
