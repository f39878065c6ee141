"""The embedded model's weights rewritten as Q4_0, the type llama.cpp's CPU code runs fastest.

The shipped Qwen2.5-Coder-0.5B-Instruct "Q4_K_M" holds its layers mostly as Q5_0 and Q8_0
(the model's width, 896, does not fit the 256-wide K-quant blocks). On this machine's
prebuilt server, Q5_0 has no repacked kernel; Q4_0 has one: the same server computes
prompts 1.28 times and generates 1.40 times faster on the layers rewritten as Q4_0
(`benchmarks/server_speed.py --model`, docs/benchmarks.md). The token embedding, which is
also the output layer, stays Q8_0: rewriting it too gained nothing more.

The rewrite is `gguf`'s own reference code (dequantize, then quantize to Q4_0: plain numpy
arithmetic, the same bytes on every machine), so the result is checked against a pinned
sha256 like the shipped file (backends/model_file.py)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

# The tensor left as shipped: the embedding, which the model also uses as its output layer.
KEPT_TENSORS = frozenset({"token_embd.weight"})
# llama.cpp's file type for "mostly Q4_0" (llama_ftype LLAMA_FTYPE_MOSTLY_Q4_0).
MOSTLY_Q4_0 = 2


def requantize(source: Path, dest: Path) -> None:
    """Write `source` to `dest` with every 2-D quantized weight except `KEPT_TENSORS` as
    Q4_0; metadata and every other tensor are copied as they are."""
    import gguf  # the `local` extra's; model_file.derive_model checks it is there first
    from gguf.quants import dequantize, quantize

    quantized = {
        gguf.GGMLQuantizationType.Q4_K,
        gguf.GGMLQuantizationType.Q5_0,
        gguf.GGMLQuantizationType.Q6_K,
        gguf.GGMLQuantizationType.Q8_0,
    }
    reader = gguf.GGUFReader(source)
    architecture = reader.get_field(gguf.Keys.General.ARCHITECTURE)
    if architecture is None:
        raise ValueError(f"{source} names no architecture")
    writer = gguf.GGUFWriter(dest, arch=str(architecture.contents()))
    for field in reader.fields.values():
        # GGUFWriter writes the architecture and the GGUF.* header fields itself.
        if field.name == gguf.Keys.General.ARCHITECTURE or field.name.startswith("GGUF."):
            continue
        value_type = field.types[0]
        sub_type = field.types[-1] if value_type == gguf.GGUFValueType.ARRAY else None
        value: Any = field.contents()
        if field.name == gguf.Keys.General.FILE_TYPE:
            value = MOSTLY_Q4_0
        writer.add_key_value(field.name, value, value_type, sub_type=sub_type)
    for tensor in reader.tensors:
        data: np.ndarray = tensor.data
        kind = tensor.tensor_type
        if kind in quantized and len(tensor.shape) == 2 and tensor.name not in KEPT_TENSORS:
            data = quantize(dequantize(data, kind), gguf.GGMLQuantizationType.Q4_0)
            kind = gguf.GGMLQuantizationType.Q4_0
        writer.add_tensor(tensor.name, data, raw_dtype=kind)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
