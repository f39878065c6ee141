"""Building a seat's agent design from its name: the built-in designs, and plug-ins
(`python:package.module:Class`, or a name in the `autowerewolf.agents` entry point group).

A plug-in class is called with one `AgentContext` (the seat's chat model, its model name
and answer bounds, the design's name) and must implement the player interface
(`players/base.py`). Its records are labelled with the design's name and its model when it
leaves them unset, so every report can group by (model, agent)."""

import importlib
import os
import sys
from dataclasses import dataclass
from importlib.metadata import entry_points

from langchain_core.language_models import BaseChatModel

from autowerewolf.players.agents.adaptive import AdaptiveAgent, FixedStrategyAgent
from autowerewolf.players.agents.choice import (
    BUILTIN_AGENTS,
    ENTRY_POINT_GROUP,
    PLUGIN_PREFIX,
    AgentChoice,
    UnknownAgent,
    check_agent,
    is_external,
)
from autowerewolf.players.agents.estimator import EstimatorAgent
from autowerewolf.players.agents.experience import ExperienceAgent
from autowerewolf.players.agents.pool import ExperiencePool
from autowerewolf.players.base import Answer, DecisionRequest, Player
from autowerewolf.players.llm.player import LLMPlayer
from autowerewolf.players.records import DecisionRecord
from autowerewolf.prompts.answers import Bounds


@dataclass(frozen=True)
class AgentContext:
    """What a plug-in agent is built with."""

    chat: BaseChatModel
    model_name: str
    bounds: Bounds
    agent: str


def load_plugin(name: str) -> type:
    """The class a plug-in name points to; UnknownAgent if it cannot be loaded."""
    check_agent(name)
    try:
        if name.startswith(PLUGIN_PREFIX):
            module, _, attr = name.removeprefix(PLUGIN_PREFIX).partition(":")
            # As `python -m` would: a module in the current folder is found too (after
            # installed ones, so it cannot shadow them).
            if os.getcwd() not in sys.path:
                sys.path.append(os.getcwd())
            found = getattr(importlib.import_module(module), attr)
        else:
            (point,) = entry_points(group=ENTRY_POINT_GROUP, name=name)
            found = point.load()
    except (ImportError, AttributeError, ValueError) as err:
        raise UnknownAgent(f"agent design {name!r} cannot be loaded: {err}") from None
    if not isinstance(found, type):
        raise UnknownAgent(f"agent design {name!r} is not a class")
    return found


def check_agents(choice: AgentChoice) -> None:
    """Load every plug-in a seating names, so a missing one fails before the game starts."""
    for name in sorted(choice.names() - set(BUILTIN_AGENTS)):
        if not is_external(name):
            load_plugin(name)


class Labelled:
    """A plug-in player whose records name its design and model."""

    def __init__(self, player: Player, agent: str, model: str) -> None:
        self.player = player
        self.kind = player.kind
        self.agent = agent
        self.model = model

    def _label(self, record: DecisionRecord) -> DecisionRecord:
        update = {"agent": record.agent or self.agent, "model": record.model or self.model}
        return record.model_copy(update=update)

    def decide(self, request: DecisionRequest) -> Answer:
        answer = self.player.decide(request)
        notes = tuple(self._label(n) for n in answer.notes)
        return Answer(answer.action, self._label(answer.record), notes)


def build_agent(
    name: str,
    chat: BaseChatModel,
    model_name: str,
    bounds: Bounds,
    pool: ExperiencePool | None = None,
) -> Player:
    """The live player of an LLM seat playing design `name`."""
    if name == "plain":
        return LLMPlayer(chat, model_name, bounds, name)
    if name == "estimator":
        return EstimatorAgent(chat, model_name, bounds, name)
    if name == "adaptive":
        return AdaptiveAgent(chat, model_name, bounds, name)
    if name in ("support", "attack"):
        return FixedStrategyAgent(chat, model_name, bounds, name, strategy=name)
    if name == "experience":
        return ExperienceAgent(chat, model_name, bounds, name, pool)
    player = load_plugin(name)(AgentContext(chat, model_name, bounds, name))
    if not isinstance(player, Player):
        raise UnknownAgent(f"agent design {name!r} does not implement the player interface")
    return Labelled(player, name, model_name)
