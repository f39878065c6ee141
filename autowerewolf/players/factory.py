"""Building live players from a seating: model clients shared per config, the local
llama.cpp server started on first use."""

import threading
from collections.abc import Sequence
from pathlib import Path

from langchain_core.language_models import BaseChatModel

from autowerewolf.backends.config import (
    ModelConfig,
    PlayerModels,
    apply_dotted_override,
    load_player_models,
    parse_player_models,
)
from autowerewolf.backends.factory import check_api_keys, make_chat_model
from autowerewolf.backends.local_server import DEFAULT_ALIAS, LocalServer
from autowerewolf.players.base import Player
from autowerewolf.players.llm.player import LLMPlayer
from autowerewolf.players.seating import PlayerKind, Seating
from autowerewolf.players.table import basic_player
from autowerewolf.rules.state import GameState

# Shared by the server's two slots: room for a late-game prompt, a re-prompt and the answer.
LOCAL_CONTEXT_TOKENS = 16384

DEFAULT_MODELS = PlayerModels(
    default=ModelConfig(backend="local", model=DEFAULT_ALIAS, temperature=0.7, max_tokens=400)
)


class ModelPool:
    """One chat model per distinct config, shared by the seats (clients are thread-safe)."""

    def __init__(self, local: LocalServer | None = None) -> None:
        self._local = local
        self._models: dict[str, BaseChatModel] = {}
        self._lock = threading.Lock()

    def chat(self, config: ModelConfig) -> BaseChatModel:
        key = config.model_dump_json()
        with self._lock:
            if key not in self._models:
                local = None
                if config.backend == "local" and config.base_url is None:
                    if self._local is None:
                        self._local = LocalServer(ctx_size=LOCAL_CONTEXT_TOKENS)
                    local = self._local.start()
                self._models[key] = make_chat_model(config, local)
            return self._models[key]

    def close(self) -> None:
        if self._local is not None:
            self._local.stop()


def load_models(path: Path | None, settings: Sequence[str] = ()) -> PlayerModels:
    """A model config file, or the embedded default, with `key=value` settings on top."""
    if path is not None:
        return load_player_models(path, settings)
    data = DEFAULT_MODELS.model_dump(exclude_none=True)
    for setting in settings:
        apply_dotted_override(data, setting)
    return parse_player_models(data)


def models_of(seating: Seating) -> PlayerModels:
    return seating.models or DEFAULT_MODELS


def check_models(seating: Seating, game: GameState) -> None:
    """Resolve every LLM seat's config now, so a mistake is reported before the game starts."""
    configs = [
        models_of(seating).resolve(s.id, s.role.value)
        for s in game.seats
        if seating.kind_of(s.id) == "llm"
    ]
    check_api_keys(configs)


class PlayerBuilder:
    """A PlayerFactory that also builds LLM seats from the seating's model configs."""

    def __init__(self, pool: ModelPool | None = None) -> None:
        self.pool = pool or ModelPool()

    def __call__(self, seat: str, kind: PlayerKind, seating: Seating, game: GameState) -> Player:
        if kind == "llm":
            config = models_of(seating).resolve(seat, game.seat(seat).role.value)
            return LLMPlayer(self.pool.chat(config), config.model, game.config)
        return basic_player(seat, kind, seating, game)
