"""The game graph as the LangGraph server runs it.

The server builds each run's runtime context from the graph's context schema (a run's
`context` is JSON, and model clients are live objects), so with `GameContext` itself every
run would get fresh players from the defaults: the embedded model instead of the server's
`--models`, and a new local model server for every run and every human answer. Here the
schema's default players are the server's own, shared by all runs.
"""

from dataclasses import dataclass, field

from pydantic.json_schema import SkipJsonSchema

from autowerewolf.graph.builder import build_graph
from autowerewolf.graph.context import GameContext
from autowerewolf.players.factory import PlayerBuilder, PlayerFactory
from autowerewolf.web.settings import night_call_s

_players: PlayerBuilder | None = None


def use_players(players: PlayerBuilder) -> None:
    """Set the players of every run of this process (the server does it at startup)."""
    global _players
    _players = players


def server_players() -> PlayerBuilder:
    global _players
    if _players is None:
        _players = PlayerBuilder()
    return _players


@dataclass
class ServerContext(GameContext):
    player_factory: SkipJsonSchema[PlayerFactory] = field(
        default_factory=server_players,
        metadata={"description": "The server's players (its --models); not set per run."},
    )
    night_call_s: float = field(
        default_factory=night_call_s,
        metadata={"description": "The server's night clock per night role (--night-call-s)."},
    )


_builder = build_graph()
# The builder's only knob for the schema the server instantiates for each run.
_builder.context_schema = ServerContext
graph = _builder.compile()
