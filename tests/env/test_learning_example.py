"""The learning example (examples/train/learn.py) learns: its wolves' win rate after a few
hundred games is far above the untrained policy's on the same games (docs/benchmarks.md,
"Learning example", records the longer curves)."""

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "train" / "learn.py"


def rates(*args: str) -> list[float]:
    done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=600, check=True)  # fmt: skip
    return [float(line.split()[1]) for line in done.stdout.splitlines()[1:]]


@pytest.mark.long
def test_the_example_policy_learns_the_wolves_side() -> None:
    untrained = rates("--games", "300", "--block", "150", "--rate", "0")
    trained = rates("--games", "300", "--block", "150")
    assert max(untrained) < 0.3
    assert trained[-1] > 0.6 and trained[-1] > trained[0]
