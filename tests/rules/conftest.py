"""Rules tests: the scripted driver lives in rules_helpers.py (a unique module name, so it
cannot clash with another test folder's helpers when the whole suite runs)."""

import sys
from pathlib import Path

HERE = str(Path(__file__).parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
