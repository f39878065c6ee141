"""Who may import what, and what a player can reach.

- rules/ imports nothing outside the standard library, pydantic and itself;
- players/ never imports LangGraph (orchestration lives in nodes/);
- a player object, even a hostile plug-in walking everything it is handed, cannot reach the
  game seed, the game state or configuration, or another seat's hidden role.
"""

import ast
import dataclasses
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel

from autowerewolf.graph.builder import RECURSION_LIMIT, build_graph
from autowerewolf.graph.context import GameContext
from autowerewolf.players.base import Answer, DecisionRequest
from autowerewolf.players.seating import PlayerKind, Seating
from autowerewolf.players.simple import RandomPlayer
from autowerewolf.rules.config import GameConfig, GameSetup
from autowerewolf.rules.events import Audience
from autowerewolf.rules.state import GameState, Seat
from autowerewolf.rules.views import SeatView
from tests.fixed import SECRET

REPO = Path(__file__).resolve().parents[2]


def imported_modules(folder: Path) -> Iterator[tuple[Path, str]]:
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                yield from ((path, alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                yield path, node.module


def test_rules_import_only_the_standard_library_pydantic_and_themselves() -> None:
    allowed = set(sys.stdlib_module_names) | {"pydantic"}
    for path, module in imported_modules(REPO / "rules"):
        top = module.split(".")[0]
        assert top in allowed or module.startswith("autowerewolf.rules"), (path.name, module)


def test_players_never_import_langgraph() -> None:
    for path, module in imported_modules(REPO / "autowerewolf" / "players"):
        assert not module.startswith("langgraph"), (path.name, module)
    code = (
        "import sys, autowerewolf.players.factory, autowerewolf.players.heuristic; "
        "assert not [m for m in sys.modules if m.startswith('langgraph')], 'langgraph loaded'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def reachable(root: object) -> Iterator[object]:
    """Every object reachable from `root` through fields, attributes and containers."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        yield obj
        if isinstance(obj, dict):
            stack += [*obj.keys(), *obj.values()]
        elif isinstance(obj, list | tuple | set | frozenset):
            stack += list(obj)
        elif isinstance(obj, BaseModel):
            stack += [getattr(obj, name) for name in type(obj).model_fields]
        elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            stack += [getattr(obj, f.name) for f in dataclasses.fields(obj)]
        elif hasattr(obj, "__dict__") and not isinstance(obj, type):
            stack += list(vars(obj).values())


GAME_SEED = 770_011_223


class Spy(RandomPlayer):
    """A plug-in that plays randomly and inspects everything it is handed."""

    seen: list[tuple[str, object]] = []  # noqa: RUF012 - one log for the test

    def decide(self, request: DecisionRequest) -> Answer:
        for obj in reachable(request):
            Spy.seen.append((request.seat, obj))
        return super().decide(request)


def test_a_player_cannot_reach_the_seed_the_state_or_hidden_roles() -> None:
    def factory(seat: str, kind: PlayerKind, seating: Seating, view: SeatView) -> Spy:
        return Spy()

    Spy.seen = []
    out = (
        build_graph()
        .compile()
        .invoke(
            {"setup": GameSetup(secret=SECRET, board="12-A", seed=GAME_SEED), "seating": Seating()},
            {"recursion_limit": RECURSION_LIMIT},
            context=GameContext(player_factory=factory),
        )
    )
    roles = {s.id: s.role for s in out["game"].seats}
    wolves = {s for s, r in roles.items() if r.value == "werewolf"}
    assert Spy.seen
    for seat, obj in Spy.seen:
        assert not isinstance(obj, GameState | GameConfig | Seat), (seat, type(obj))
        assert not (isinstance(obj, int) and obj == GAME_SEED), seat
        if isinstance(obj, str):
            assert str(GAME_SEED) not in obj, seat
        if isinstance(obj, SeatView):
            assert obj.seat == seat
        audience = getattr(obj, "audience", None)
        if audience is Audience.OMNISCIENT:
            raise AssertionError(f"{seat} reached an omniscient event: {obj}")
        if audience is Audience.SEAT:
            assert obj.seat == seat, (seat, obj)  # type: ignore[attr-defined]
        if audience is Audience.WOLVES:
            assert seat in wolves, (seat, obj)


def test_typecheck_tree_links_every_module() -> None:
    """mypy reads the installed layout through typecheck/autowerewolf (pyproject.toml): it
    must link every module and package, or mypy would silently skip one."""
    tree = REPO / "typecheck" / "autowerewolf"
    expected = {p.name for p in (REPO / "autowerewolf").iterdir() if p.name != "__pycache__"}
    expected |= {"rules", "graph", "nodes", "prompts"}
    links = {p.name: p for p in tree.iterdir()}
    assert set(links) == expected
    assert all(p.is_symlink() and p.exists() for p in links.values())
