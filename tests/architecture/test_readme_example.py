"""The README's Python example runs as written (its imports are the engine API's paths)."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_python_example_runs() -> None:
    section = README.read_text(encoding="utf-8").split("\n## From Python\n", 1)[1]
    code = re.findall(r"```python\n(.*?)```", section.split("\n## ", 1)[0], re.S)[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    first, second = out.getvalue().splitlines()
    assert first.split()[0] in ("good", "wolf", "None")
    assert "P03" in second
