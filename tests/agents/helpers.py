"""LLM games whose seats play chosen agent designs on a fake chat model."""

from pathlib import Path

from langchain_core.language_models import BaseChatModel

from autowerewolf.backends.config import ModelConfig, PlayerModels
from autowerewolf.graph.builder import RECURSION_LIMIT, build_graph
from autowerewolf.graph.context import GameContext
from autowerewolf.players.agents.choice import AgentChoice
from autowerewolf.players.agents.pool import ExperiencePool
from autowerewolf.players.base import Player
from autowerewolf.players.factory import ModelPool, PlayerBuilder
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.views import SeatView
from tests.fixed import SECRET

PLUGIN = "python:examples.agents.cautious:CautiousVoter"
# Four designs and the plug-in, by seat (seats P01-P12 of 12-A, dealt from the seed).
MIXED = AgentChoice(
    default="plain",
    seats={"P01": "estimator", "P02": "adaptive", "P03": "experience", "P04": PLUGIN},
    camps={"wolf": "adaptive"},
    roles={"seer": "estimator", "villager": "experience"},
)


class FakePool(ModelPool):
    """Every model config answers with the same fake chat model."""

    def __init__(self, chat: BaseChatModel) -> None:
        super().__init__()
        self.fake = chat

    def chat(self, config: ModelConfig, seat: int | None = None) -> BaseChatModel:
        return self.fake


class FreshPlayers(GameContext):
    """Builds every seat's player anew for every question, as a resume after each step
    would: what a player knows must come from its request alone."""

    def player(self, game_id: str, seating: Seating, view: SeatView) -> Player:
        return self.player_factory(view.seat, seating.kind_of(view.seat), seating, view)


def builder(
    chat: BaseChatModel,
    experience: ExperiencePool | None = None,
    models: PlayerModels | None = None,
) -> PlayerBuilder:
    """`models`: the configs the seats' bounds come from (default: the embedded model's)."""
    return PlayerBuilder(models, FakePool(chat), experience)


def play(
    chat: BaseChatModel,
    seed: int = 3,
    agents: AgentChoice = MIXED,
    context: GameContext | None = None,
    experience: ExperiencePool | None = None,
    board: str = "12-A",
    models: PlayerModels | None = None,
) -> dict:  # type: ignore[type-arg]
    graph = build_graph().compile()
    return graph.invoke(
        {
            "setup": GameSetup(board=board, secret=SECRET, seed=seed),
            "seating": Seating(default="llm", agents=agents),
        },
        {"recursion_limit": RECURSION_LIMIT, "max_concurrency": 16},
        context=context or GameContext(player_factory=builder(chat, experience, models)),
    )


def repo_root() -> Path:
    return Path(__file__).resolve().parents[2]
