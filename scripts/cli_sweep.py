"""Print the CLI sweep's counts (tests/reliability/sweep.py): from the repository root,
`python scripts/cli_sweep.py`. Every count but the first two must be 0."""

import runpy
import sys
from pathlib import Path

# The sweep lives with the tests, which are not installed: import it from this checkout.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
runpy.run_module("tests.reliability.sweep", run_name="__main__")
