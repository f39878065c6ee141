"""`autowerewolf serve`: the LangGraph API server with the game graph, the web app, the
game database as checkpointer and the token auth, run in this process the way
`langgraph dev` runs it (`langgraph_api.cli.run_server`), without reloading or a browser.

The server reads its configuration from environment variables at import time, so nothing
here imports `langgraph_api.server`; one process runs one server.
"""

import importlib
import os
import socket
import sys
from pathlib import Path
from typing import Any

from autowerewolf.errors import SettingsError
from autowerewolf.loopback import is_loopback
from autowerewolf.players.factory import load_models
from autowerewolf.store import open_saver
from autowerewolf.web.settings import DB_ENV, EXPOSED_ENV, MODELS_ENV, NIGHT_CALL_ENV, state_dir

WEB_EXTRA_HINT = "autowerewolf serve needs the web extra: pip install -e '.[web]'"
_WEB_MODULES = ("langgraph_api", "langgraph_runtime_inmem", "sse_starlette", "uvicorn")
# Games played at once; a game waiting for a human holds no job.
JOBS = 8

# The same server as langgraph.json describes (a test keeps the two in step). Module paths,
# not file paths: a file path would load a second copy of the module.
GRAPHS = {"werewolf": "autowerewolf.web.graph:graph"}
AUTH = {"path": "autowerewolf.web.auth:auth", "disable_studio_auth": True}
HTTP: dict[str, Any] = {
    "app": "autowerewolf.web.app:app",
    "enable_custom_route_auth": True,
    "disable_mcp": True,
    "disable_a2a": True,
    "disable_store": True,
    "disable_ui": True,
    # The app is same-origin; no other site's page may call the server with a user's cookie.
    "cors": {"allow_origins": []},
}
CHECKPOINTER = {"path": "autowerewolf.web.checkpointer.make_saver"}


def check_web_extra() -> None:
    try:
        for name in _WEB_MODULES:
            importlib.import_module(name)
    except ImportError:
        raise SettingsError(WEB_EXTRA_HINT) from None


def check_host(host: str, expose: bool) -> str | None:
    """A warning when the server will be reachable from other machines; refused without
    --expose."""
    if is_loopback(host):
        return None
    if not expose:
        raise SettingsError(
            f"--host {host} lets other machines reach the server; add --expose if you mean it"
        )
    return (
        f"warning: serving on {host}: anyone who can reach this port and holds a link can "
        "watch or play, and links travel in clear text over http"
    )


def check_port(host: str, port: int) -> None:
    """The server would quietly move to another port; say so instead."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as sock:
        # As uvicorn binds: a port in TIME_WAIT is free.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as err:
            raise SettingsError(f"cannot listen on {host}:{port} ({err.strerror})") from None


def serve(
    db: Path, host: str, port: int, models: Path | None, expose: bool, night_call_s: float
) -> None:
    check_web_extra()
    warning = check_host(host, expose)
    check_port(host, port)
    db = db.resolve()
    open_saver(db, create=True).conn.close()  # a usable game database, created if new
    if models is not None:
        models = models.resolve()
        load_models(models)  # a bad file is an error now, not when a game starts
        os.environ[MODELS_ENV] = str(models)
    os.environ[DB_ENV] = str(db)
    os.environ[EXPOSED_ENV] = "1" if expose else "0"
    os.environ[NIGHT_CALL_ENV] = str(night_call_s)
    os.environ.setdefault("LANGGRAPH_NO_VERSION_CHECK", "true")  # no PyPI call at startup
    os.environ.setdefault("LANGGRAPH_CLI_NO_ANALYTICS", "1")
    os.environ.setdefault("LOG_LEVEL", "WARNING")  # the server's own log: problems only
    workdir = state_dir(db)
    workdir.mkdir(exist_ok=True)
    os.chdir(workdir)
    if warning:
        print(warning, file=sys.stderr, flush=True)
    # Imported only now: the server reads the environment set above when it loads.
    from langgraph_api.cli import run_server

    run_server(
        host=host,
        port=port,
        reload=False,
        open_browser=False,
        graphs=GRAPHS,
        auth=AUTH,
        http=HTTP,
        checkpointer=CHECKPOINTER,
        n_jobs_per_worker=JOBS,
        server_level="WARNING",
    )
