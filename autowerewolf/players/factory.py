"""Building a seat's live player from its kind: model clients shared per config, the local
llama.cpp server started on first use. A player is built from the seat's own view (its
role picks a role-specific model config), never from the game state."""

import threading
from collections.abc import Callable, Iterable, Sequence
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
from autowerewolf.backends.gate import GatedChatModel, Gates, ModelGate
from autowerewolf.backends.local_server import DEFAULT_ALIAS, DEFAULT_IN_FLIGHT, LocalServer
from autowerewolf.players.agents.choice import is_external
from autowerewolf.players.agents.pool import ExperiencePool
from autowerewolf.players.agents.registry import build_agent
from autowerewolf.players.base import Player
from autowerewolf.players.external import ExternalAgent
from autowerewolf.players.heuristic import HeuristicPlayer
from autowerewolf.players.seating import PlayerKind, Seating
from autowerewolf.players.simple import RandomPlayer, ScriptedPlayer
from autowerewolf.prompts.table_rules import table_prompt
from autowerewolf.rules.roles import Role
from autowerewolf.rules.views import SeatView, shared_view

# The grammar bounds every decision's answer far below this. The longest answer is a
# 12-seat role estimate (`estimator`/`adaptive` designs, the role_estimates probe): 11 rows
# of up to ~200 characters at ~2.4 characters a token on the embedded model; at 400 every
# one of them was cut (docs/agents.md).
LOCAL_MAX_TOKENS = 1200

DEFAULT_MODELS = PlayerModels(
    default=ModelConfig(
        backend="local", model=DEFAULT_ALIAS, temperature=0.7, max_tokens=LOCAL_MAX_TOKENS
    )
)

PlayerFactory = Callable[[str, PlayerKind, Seating, SeatView], Player]


class UnknownPlayerKind(ValueError):
    pass


def basic_player(seat: str, kind: PlayerKind, seating: Seating, view: SeatView) -> Player:
    """The players that need no model."""
    if kind == "random":
        return RandomPlayer()
    if kind == "scripted":
        return ScriptedPlayer(seating.decisions)
    if kind == "heuristic":
        return HeuristicPlayer()
    raise UnknownPlayerKind(f"seat {seat}: player kind {kind!r} is not available here")


class ModelPool:
    """One chat model per distinct config, shared by the seats (clients are thread-safe).

    With `gates` (the asynchronous runner), every model's asynchronous calls go through its
    server's gate, and the clients do not retry by themselves."""

    def __init__(self, local: LocalServer | None = None, gates: Gates | None = None) -> None:
        self._local = local
        self.gates = gates
        self._models: dict[str, BaseChatModel] = {}
        self._shared: dict[str, int] = {}  # shared view -> its order of first use
        self._lock = threading.Lock()
        self._local_gate = ModelGate(DEFAULT_IN_FLIGHT)

    def chat(self, config: ModelConfig, seat: int | str | None = None) -> BaseChatModel:
        """The model of `config` for the table's `seat`-th seat (from 0), for the seats that
        share a view (a str, rules.views.shared_view), or for a caller that is no seat (None:
        the narrator, a study). On the managed local server a seat's calls go to a slot of
        its own, a shared view's to one slot for all its seats, and the others share the
        last slot (LocalServer): a prompt stays there from one call to the next."""
        key, local, slot = config.model_dump_json(), None, None
        with self._lock:
            if config.managed_local:
                if self._local is None:
                    self._local = LocalServer()
                local = self._local.start()
                if seat is None:
                    slot = local.spare_slot
                elif isinstance(seat, str):
                    slot = local.shared_slot(self._shared.setdefault(seat, len(self._shared)))
                else:
                    slot = seat % local.seat_slots
                key = f"{key} slot {slot}"
            if key not in self._models:
                model = make_chat_model(config, local, client_retries=self.gates is None, slot=slot)
                if self.gates is not None:
                    model = GatedChatModel(inner=model, gate=self.gates.gate(config))
                elif local is not None:  # `play`'s threads: the server's calls at once
                    model = GatedChatModel(inner=model, gate=self._local_gate)
                self._models[key] = model
            return self._models[key]

    def prime(self, config: ModelConfig, text: str) -> None:
        """On the managed local server, start every seat's slot with `text`, the start of
        the system prompt that every seat of the table shares (backends/slots.py): done at
        the first seat's first question, when the server is idle, then never again."""
        if config.managed_local and self._local is not None:
            with self._lock:
                self._local.prime(text)

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


def check_models(models: PlayerModels, llm_seats: Iterable[str], roles: Iterable[Role]) -> None:
    """Resolve every config an LLM seat could get, whatever role it is dealt, so a mistake
    (a broken override, a missing key variable) is reported before the game starts."""
    board_roles = set(roles)
    check_api_keys(models.resolve(seat, role.value) for seat in llm_seats for role in board_roles)


class PlayerBuilder:
    """A PlayerFactory that also builds LLM seats: their agent design from the seating (saved
    with the game), their model from model configs that live in the runtime context only
    (they never enter a checkpoint), like the experience pool `experience` designs read."""

    def __init__(
        self,
        models: PlayerModels | None = None,
        pool: ModelPool | None = None,
        experience: ExperiencePool | None = None,
    ) -> None:
        self.models = models or DEFAULT_MODELS
        self.pool = pool or ModelPool()
        self.experience = experience

    def __call__(self, seat: str, kind: PlayerKind, seating: Seating, view: SeatView) -> Player:
        if kind == "llm":
            role = view.role.value
            config = self.models.resolve(seat, role)
            agent = seating.agents.resolve(seat, role)
            if is_external(agent):  # its own program: no model, the seat's timeout
                return ExternalAgent(agent, config.timeout_s)
            shared = shared_view(view)
            index = [p.seat for p in view.players].index(seat)
            chat = self.pool.chat(config, index if shared == seat else f"{agent}:{shared}")
            if config.managed_local:  # the rules text is built only where it is used
                self.pool.prime(config, table_prompt(view.rules))
            return build_agent(agent, chat, config.model, config.bounds(), self.experience)
        return basic_player(seat, kind, seating, view)
