"""Checking that stored games equal their uninterrupted runs (played again in memory)."""

from functools import cache
from pathlib import Path
from typing import Any

from autowerewolf.backends.config import PlayerModels
from autowerewolf.graph.builder import RECURSION_LIMIT, build_graph
from autowerewolf.graph.context import GameContext
from autowerewolf.players.factory import ModelPool, PlayerBuilder
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import Games
from autowerewolf.storage.target import Postgres
from tests.fixed import HEX_SECRET


def simulated(latency_s: float) -> PlayerModels:
    return PlayerModels.model_validate(
        {"default": {"backend": "simulated", "model": "sim", "latency_s": latency_s}}
    )


def fingerprint(values: dict[str, Any]) -> tuple[Any, ...]:
    """What must be identical: the final state, the transcript and every decision record
    (less the measured wall time of a call)."""
    records = [r.model_dump(exclude={"latency_s"}) for r in values["records"]]
    return values["game"], values["events"], records


@cache
def uninterrupted(seed: int, players: str) -> tuple[Any, ...]:
    """The batch game with this seed, played in memory in one go (no model latency); the
    batches of these tests run with `--secret HEX_SECRET`."""
    context = GameContext(player_factory=PlayerBuilder(simulated(0.0), ModelPool()))
    values = (
        build_graph()
        .compile()
        .invoke(
            {
                "setup": GameSetup(secret=HEX_SECRET, board="12-A", seed=seed),
                "seating": Seating(default=players),
            },
            {"recursion_limit": RECURSION_LIMIT},
            context=context,
        )
    )
    return fingerprint(values)


def differing(db: Path | Postgres | str, seeds: range, players: str, prefix: str) -> list[str]:
    """The ids of the batch games that are missing, unfinished or not identical."""
    games = Games(db, readonly=True)
    try:
        wrong = []
        for seed in seeds:
            game_id = f"{prefix}-{seed}"
            if game_id not in games.ids():
                wrong.append(f"{game_id} (missing)")
                continue
            record = games.load(game_id)
            stored = {"game": record.game, "events": record.events, "records": record.records}
            if record.status != "finished" or fingerprint(stored) != uninterrupted(seed, players):
                wrong.append(game_id)
        return wrong
    finally:
        games.close()
