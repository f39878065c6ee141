"""Promise: the served model is the shipped one with its layers rewritten as Q4_0 and
nothing else changed (metadata, the embedding, the 1-D tensors), the same bytes on every
run; the result is served only if it has the pinned sha256, and a verified file is not
rewritten on every start."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

gguf = pytest.importorskip("gguf", reason="needs the local extra (gguf)")
from gguf.quants import dequantize, quantize  # noqa: E402
from numpy.random import default_rng  # noqa: E402

from autowerewolf.backends import model_file  # noqa: E402
from autowerewolf.backends.local_extra import LOCAL_EXTRA_HINT, LocalBackendError  # noqa: E402
from autowerewolf.backends.model_file import derive_model  # noqa: E402
from autowerewolf.backends.requantize import MOSTLY_Q4_0, requantize  # noqa: E402

Q = gguf.GGMLQuantizationType
WIDTH = 64


def _tiny_model(path: Path) -> dict[str, object]:
    """A small qwen2-shaped GGUF with the shipped file's tensor types; returns the weights
    before quantization."""
    rng = default_rng(7)
    weights = {
        "token_embd.weight": (rng.normal(size=(40, WIDTH)).astype("float32"), Q.Q8_0),
        "blk.0.ffn_up.weight": (rng.normal(size=(96, WIDTH)).astype("float32"), Q.Q5_0),
        "blk.0.attn_v.weight": (rng.normal(size=(32, WIDTH)).astype("float32"), Q.Q8_0),
        "blk.0.attn_norm.weight": (rng.normal(size=(WIDTH,)).astype("float32"), Q.F32),
    }
    writer = gguf.GGUFWriter(path, arch="qwen2")
    writer.add_name("tiny")
    writer.add_file_type(15)  # MOSTLY_Q4_K_M, as shipped
    writer.add_token_list(["a", "b", "c"])
    writer.add_context_length(128)
    for name, (values, kind) in weights.items():
        data = values if kind is Q.F32 else quantize(values, kind)
        writer.add_tensor(name, data, raw_dtype=kind)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return {name: values for name, (values, _) in weights.items()}


def _fields(reader: gguf.GGUFReader) -> dict[str, object]:
    return {name: field.contents() for name, field in reader.fields.items()}


def test_layers_become_q4_0_and_everything_else_is_copied(tmp_path: Path) -> None:
    source, dest = tmp_path / "shipped.gguf", tmp_path / "served.gguf"
    originals = _tiny_model(source)
    requantize(source, dest)
    before, after = gguf.GGUFReader(source), gguf.GGUFReader(dest)
    old = {t.name: t for t in before.tensors}
    new = {t.name: t for t in after.tensors}
    assert list(new) == list(old)
    assert new["token_embd.weight"].tensor_type is Q.Q8_0
    assert new["token_embd.weight"].data.tobytes() == old["token_embd.weight"].data.tobytes()
    assert new["blk.0.attn_norm.weight"].data.tobytes() == (
        old["blk.0.attn_norm.weight"].data.tobytes()
    )
    for name in ("blk.0.ffn_up.weight", "blk.0.attn_v.weight"):
        assert new[name].tensor_type is Q.Q4_0
        assert list(new[name].shape) == list(old[name].shape)
        values = originals[name]
        restored = dequantize(new[name].data, Q.Q4_0)
        # Q4_0 keeps 16 levels a block of 32: each weight within an eighth of the block's
        # largest magnitude, plus the shipped type's own error (a 32nd for Q5_0).
        largest = abs(values).reshape(-1, 32).max(axis=1).repeat(32).reshape(values.shape)
        assert (abs(restored - values) <= largest * (1 / 8 + 1 / 32) * 1.01).all()
        assert abs(restored - values).mean() < largest.mean() / 16
    old_fields, new_fields = _fields(before), _fields(after)
    assert new_fields.pop("general.file_type") == MOSTLY_Q4_0
    assert old_fields.pop("general.file_type") == 15
    assert new_fields == old_fields


def test_the_same_bytes_every_time(tmp_path: Path) -> None:
    source = tmp_path / "shipped.gguf"
    _tiny_model(source)
    requantize(source, tmp_path / "one.gguf")
    requantize(source, tmp_path / "two.gguf")
    assert (tmp_path / "one.gguf").read_bytes() == (tmp_path / "two.gguf").read_bytes()


def test_a_result_off_the_pin_is_refused_and_nothing_is_left(tmp_path: Path) -> None:
    source = tmp_path / "shipped.gguf"
    _tiny_model(source)
    cache = tmp_path / "cache"
    cache.mkdir()
    with pytest.raises(LocalBackendError) as caught:
        derive_model(source, cache / "served.gguf", sha256="0" * 64)
    message = str(caught.value)
    assert "\n" not in message and "not the pinned" in message
    assert message.endswith(LOCAL_EXTRA_HINT)
    assert list(cache.iterdir()) == []


def test_a_verified_result_is_not_rewritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "shipped.gguf"
    _tiny_model(source)
    requantize(source, tmp_path / "expected.gguf")
    pin = model_file._file_sha256(tmp_path / "expected.gguf")
    dest = tmp_path / "served.gguf"
    assert derive_model(source, dest, sha256=pin) == dest
    assert dest.read_bytes() == (tmp_path / "expected.gguf").read_bytes()

    def no_rewrite(source: Path, dest: Path) -> None:
        raise AssertionError("requantized again")

    monkeypatch.setattr(model_file, "requantize", no_rewrite)
    assert derive_model(source, dest, sha256=pin) == dest
    # A damaged file (same size, later mtime) is written again.
    monkeypatch.undo()
    damaged = bytearray(dest.read_bytes())
    damaged[-1] ^= 1
    mtime = dest.stat().st_mtime_ns
    dest.write_bytes(bytes(damaged))
    os.utime(dest, ns=(mtime, mtime + 1_000_000_000))  # some file systems keep seconds
    assert derive_model(source, dest, sha256=pin) == dest
    assert dest.read_bytes() == (tmp_path / "expected.gguf").read_bytes()


def test_without_gguf_the_error_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "shipped.gguf"
    _tiny_model(source)
    monkeypatch.setitem(sys.modules, "gguf", None)  # import gguf raises ImportError
    with pytest.raises(LocalBackendError) as caught:
        derive_model(source, tmp_path / "served.gguf", sha256="0" * 64)
    message = str(caught.value)
    assert "'gguf'" in message and LOCAL_EXTRA_HINT in message and "\n" not in message
