"""Short games whose LLM seats talk to the fake OpenAI-compatible server (tests/fakes), on
every board and discussion protocol, for the tests that read what was sent."""

import itertools
from dataclasses import replace
from typing import Any

from autowerewolf.graph.builder import RECURSION_LIMIT, build_graph
from autowerewolf.graph.context import GameContext
from autowerewolf.players.agents.choice import BUILTIN_AGENTS
from autowerewolf.players.agents.registry import build_agent
from autowerewolf.players.base import Player
from autowerewolf.players.factory import basic_player
from autowerewolf.players.seating import PlayerKind, Seating
from autowerewolf.prompts.answers import BUDGETS, Bounds
from autowerewolf.prompts.probes import PROBES
from autowerewolf.rules.config import BOARDS, GameSetup
from autowerewolf.rules.variants import DiscussionProtocol
from autowerewolf.rules.views import SeatView
from tests.fakes.chat import FakeChatModel
from tests.fixed import SECRET


def play(
    chats: list[FakeChatModel],
    *,
    board: str = "12-A",
    seed: int = 3,
    protocol: DiscussionProtocol = DiscussionProtocol.ROUND_ROBIN,
    design: str = "plain",
    bounds: Bounds = BUDGETS["compact"],
    probes: tuple[str, ...] = (),
) -> dict[str, Any]:
    """One complete game whose seats play `design` with `bounds`, the seats shared out
    among `chats` in turn (two chats of two model names: two models at one table)."""

    def factory(seat: str, kind: PlayerKind, seating: Seating, view: SeatView) -> Player:
        if kind != "llm":
            return basic_player(seat, kind, seating, view)
        chat = chats[int(seat[1:]) % len(chats)]
        return build_agent(design, chat, chat.model_name, bounds)

    setup = GameSetup(
        secret=SECRET, board=board, seed=seed, variants={"discussion": protocol.value}
    )
    out: dict[str, Any] = (
        build_graph()
        .compile()
        .invoke(
            {"setup": setup, "seating": Seating(default="llm", probes=probes)},
            {"recursion_limit": RECURSION_LIMIT, "max_concurrency": 16},
            context=GameContext(player_factory=factory),
        )
    )
    return out


def every_kind_of_game() -> list[dict[str, Any]]:
    """The arguments of games that between them send every kind of schema: each board under
    each discussion protocol, the agent designs and answer budgets taken in turn, free and
    structured speeches, and one game with every probe."""
    designs = [d for d in BUILTIN_AGENTS if d != "experience"]  # needs a pool on disk
    budgets = [*BUDGETS.values(), *(replace(b, speech_acts=True) for b in BUDGETS.values())]
    turns = zip(itertools.cycle(designs), itertools.cycle(budgets), strict=False)
    games = [
        {"board": board, "protocol": protocol, "design": design, "bounds": bounds}
        for (board, protocol), (design, bounds) in zip(
            itertools.product(BOARDS, DiscussionProtocol), turns, strict=False
        )
    ]
    return [*games, {"board": "12-A", "probes": PROBES}]
