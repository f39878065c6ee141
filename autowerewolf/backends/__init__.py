"""Model backends: config, LangChain chat model factory, managed local servers, usage."""

from autowerewolf.backends.config import (
    ModelConfig,
    ModelOverride,
    PlayerModels,
    load_player_models,
    parse_player_models,
)
from autowerewolf.backends.factory import check_api_keys, make_chat_model
from autowerewolf.backends.local_extra import LocalBackendError
from autowerewolf.backends.local_server import LocalServer, OllamaProxy
from autowerewolf.backends.usage import Usage, usage_from_message

__all__ = [
    "LocalBackendError",
    "LocalServer",
    "ModelConfig",
    "ModelOverride",
    "OllamaProxy",
    "PlayerModels",
    "Usage",
    "check_api_keys",
    "load_player_models",
    "make_chat_model",
    "parse_player_models",
    "usage_from_message",
]
