"""No import circle anywhere in the package (issue 24: six rule modules used to import each
other, kept alive by attribute lookups at call time).

The graph is built from the real package: every module `pkgutil` finds in each package
the distribution installs (whose `rules`, `graph`, `nodes` and `prompts` come from their
own folders), every `import` statement in it at any depth (a function-level import would only
hide a circle), each edge to the module it names (`from autowerewolf.rules import chain` is
an edge to `autowerewolf.rules.chain`)."""

import ast
import importlib
import importlib.util
import pkgutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def modules() -> dict[str, Path]:
    """Every module and package that the distribution installs (pyproject's `packages`,
    which `package-dir` maps onto their folders), by name, with its source file."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    found: dict[str, Path] = {}
    for package in config["tool"]["setuptools"]["packages"]:
        path = importlib.import_module(package).__path__
        found[package] = Path(path[0]) / "__init__.py"
        for info in pkgutil.iter_modules(path, f"{package}."):
            if not info.ispkg:
                spec = importlib.util.find_spec(info.name)
                assert spec is not None and spec.origin is not None, info.name
                found[info.name] = Path(spec.origin)
    return found


def _named(node: ast.AST, module: str, is_package: bool) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            parts = module.split(".")
            anchor = parts if is_package else parts[:-1]
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, base] if base else anchor)
        yield base
        yield from (f"{base}.{alias.name}" for alias in node.names)


def import_graph() -> dict[str, set[str]]:
    known = modules()
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        is_package = path.name == "__init__.py"
        targets = set()
        for node in ast.walk(tree):
            for target in _named(node, name, is_package):
                if target in known and target != name:
                    targets.add(target)
        # `from a.b import c`: the edge goes to a.b.c when c is a module, not to a.b too.
        graph[name] = {t for t in targets if not any(o.startswith(f"{t}.") for o in targets)}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_walks_every_module_of_the_package() -> None:
    graph = import_graph()
    repo = Path(__file__).resolve().parents[2]
    sources = {
        *(p for p in (repo / "autowerewolf").rglob("*.py")),
        *(
            p
            for folder in ("rules", "graph", "nodes", "prompts")
            for p in (repo / folder).rglob("*.py")
        ),
    }
    assert len(graph) == len(sources)
    assert "autowerewolf.rules.flow" in graph and "autowerewolf.web.app" in graph
    assert "autowerewolf.rules.flow" in graph["autowerewolf.rules.engine"]


def test_no_import_circle_in_the_package() -> None:
    assert circles(import_graph()) == []


def test_a_circle_is_found() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_private_langgraph_module_is_imported() -> None:
    """LangGraph's `_internal` modules change without notice: public API only."""
    for name, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            for target in _named(node, name, path.name == "__init__.py"):
                assert not (target.startswith("langgraph") and "._" in target), (name, target)


def test_the_command_line_loads_no_model_client_until_a_model_is_built() -> None:
    """The OpenAI and Ollama clients take about 1.5 s of a 3 s start on 2 cores: `--help`,
    a game of programs and every test that starts the CLI would pay for them."""
    probe = (
        "import sys, autowerewolf.cli, autowerewolf.web.app\n"
        "print(sorted(m for m in ('openai', 'langchain_openai', 'ollama', 'langchain_ollama')"
        " if m in sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert loaded.strip() == "[]"
    built = probe.replace(
        "import sys,",
        "import sys, autowerewolf.backends as b; "
        "b.make_chat_model(b.ModelConfig(backend='api', model='m', base_url='http://127.0.0.1:9/v1'))\n"
        "import",
    )
    loaded = subprocess.run(
        [sys.executable, "-c", built], capture_output=True, text=True, check=True
    ).stdout
    assert "langchain_openai" in loaded  # the probe sees a client once one is built
