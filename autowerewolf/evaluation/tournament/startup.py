"""Starting a tournament's models before its first game.

Every distinct model config its LLM seats can get (for any role they may be dealt) is
started once: for the `local` backend this starts llama.cpp's server, which is where a
missing `local` extra or a broken model shows. A model that cannot start stops the
tournament with that model's own error, before any game is played, rather than failing
every game and ending with "needs two contestants, found 0". Remote servers (`api`,
`ollama`) are started by whoever runs them; their clients are built here, which checks
their settings, and their key variables are checked when the games are planned.
"""

from collections.abc import Sequence

from autowerewolf.backends.config import ModelConfig
from autowerewolf.errors import SettingsError, first_line
from autowerewolf.evaluation.tournament.schedule import PlannedGame
from autowerewolf.players.agents.choice import is_external
from autowerewolf.players.factory import ModelPool


def distinct_models(games: Sequence[PlannedGame]) -> list[ModelConfig]:
    """Each model config an LLM seat of these games can get, once, in first-use order. A
    seat played by an external agent (its own process or server) needs no model."""
    found: dict[str, ModelConfig] = {}
    for game in games:
        if game.models is None:
            continue
        roles = {r.value for r in game.setup.build().roles}
        for seat, kind in sorted(game.seating.seats.items()):
            if kind == "llm":
                for role in sorted(roles):
                    if is_external(game.seating.agents.resolve(seat, role)):
                        continue
                    config = game.models.resolve(seat, role)
                    found.setdefault(config.model_dump_json(), config)
    return list(found.values())


def start_models(games: Sequence[PlannedGame]) -> list[ModelConfig]:
    """Start every distinct model of the games once (then stop them: the games start
    their own); raises SettingsError with the model's own error if one cannot start."""
    configs = distinct_models(games)
    pool = ModelPool()
    try:
        for config in configs:
            try:
                pool.chat(config)
            except Exception as err:  # whatever stops it: the model's own error, in one line
                raise SettingsError(
                    f"model {config.model!r} (backend {config.backend}) cannot start: "
                    f"{first_line(err) or type(err).__name__}"
                ) from None
    finally:
        pool.close()
    return configs
