"""What the AEC and parallel environments share: their options, spaces and observations."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces

from autowerewolf.backends.config import PlayerModels
from autowerewolf.players.factory import PlayerBuilder, PlayerFactory, basic_player, load_models
from autowerewolf.players.observation import SeatKnowledge, feature_names, features, prompted
from autowerewolf.players.seating import PlayerKind, Seating
from autowerewolf.prompts.render import describe
from autowerewolf.rules.events import Audience, Event
from autowerewolf.rules.roles import Camp
from autowerewolf.rules.state import GameState
from autowerewolf.rules.views import visible_events
from autowerewolf.table import DEFAULT_PENALTY, IllegalMode, Table

RENDER_MODES = ("human", "ansi")
# Longer than any prompt of a 30-day game.
MAX_OBSERVATION_CHARS = 1_000_000


class AnyText(spaces.Text):
    """Text of any Unicode characters up to `max_length` (gymnasium's `Text` checks
    membership against a finite character set; a speech may hold any character).
    Samples are drawn from the default alphanumeric set."""

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length


@dataclass(frozen=True)
class EnvOptions:
    """The environments' keyword options (docs/training.md)."""

    board: str = "12-A"
    roles: Sequence[str] | None = None
    variants: Mapping[str, Any] = field(default_factory=dict)
    max_days: int = 30
    secret: str = ""
    agents: str | Sequence[str] = "all"
    opponents: PlayerKind = "random"
    seating: Seating | None = None
    models: PlayerModels | str | Path | None = None
    illegal: IllegalMode = "penalty"
    penalty: float = DEFAULT_PENALTY
    shaping: float = 0.0
    text_observations: bool = True
    record_examples: bool = False

    @classmethod
    def parse(cls, board: str, options: Mapping[str, Any]) -> "EnvOptions":
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(options) - known)
        if unknown:
            raise TypeError(f"unknown option {unknown[0]!r} (known: {', '.join(sorted(known))})")
        return cls(board=board, **options)

    def player_factory(self) -> PlayerFactory:
        if self.models is None:
            kinds = {self.opponents}
            if self.seating is not None:
                kinds |= {self.seating.default, *self.seating.seats.values()}
            return PlayerBuilder() if "llm" in kinds else basic_player
        models = self.models
        if not isinstance(models, PlayerModels):
            models = load_models(Path(models))
        return PlayerBuilder(models)

    def table(self) -> Table:
        seating = self.seating or Seating(default=self.opponents)
        return Table(
            self.board,
            roles=self.roles,
            variants=self.variants,
            max_days=self.max_days,
            secret=self.secret,
            controlled=self.agents,
            seating=seating,
            players=self.player_factory(),
            illegal=self.illegal,
            penalty=self.penalty,
            shaping=self.shaping,
            record_examples=self.record_examples,
        )

    def possible_agents(self, table: Table) -> list[str]:
        """Every seat for a camp or role (the deal decides which); else the seats named."""
        spec = self.agents
        if isinstance(spec, str) and (spec == "all" or ":" in spec):
            return list(table.seats)
        chosen = {spec} if isinstance(spec, str) else set(spec)
        return [s for s in table.seats if s in chosen]


class WerewolfSpaces:
    """One observation space and one action space, shared by every agent."""

    def __init__(self, table: Table, text: bool) -> None:
        n_features = len(feature_names(table.seats))
        n_actions = len(table.actions.names)
        parts: dict[str, spaces.Space[Any]] = {
            "observation": spaces.Box(0.0, 1.0, (n_features,), np.float32),
            "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
        }
        if text:
            parts["text"] = AnyText(MAX_OBSERVATION_CHARS, min_length=0)
        self.text = text
        self.observation = spaces.Dict(parts)
        self.action = spaces.Discrete(n_actions)


class Observer:
    """Observations and infos of the seats, each built from the seat's view alone; one
    observation per seat and state is kept, so observing twice costs nothing."""

    def __init__(self, table: Table, spaces_: WerewolfSpaces) -> None:
        self.table = table
        self.spaces = spaces_
        self._kept: dict[str, tuple[GameState, dict[str, Any]]] = {}
        self._masks: dict[tuple[str, ...], np.ndarray] = {}
        self._known: dict[str, SeatKnowledge] = {}

    def forget(self) -> None:
        self._kept = {}
        self._known = {}

    def mask(self, agent: str) -> np.ndarray:
        """The agent's action mask; one read-only array per set of options, built once."""
        options = self.table.asked.get(agent, ())
        mask = self._masks.get(options)
        if mask is None:
            mask = np.asarray(self.table.actions.mask(options), np.int8)
            mask.flags.writeable = False
            self._masks[options] = mask
        return mask

    def info(self, agent: str) -> dict[str, Any]:
        table = self.table
        options = table.asked.get(agent, ())
        return {
            "action_mask": self.mask(agent),
            "options": options,
            "step": str(table.game.step) if options else None,
            "key": table.key if options else None,
            "day": table.game.day,
        }

    def final_info(self, agent: str) -> dict[str, Any]:
        game = self.table.game
        return {
            "winner": game.winner.value if game.winner else None,
            "win_reason": game.win_reason,
            "fallbacks": self.table.fallbacks.get(agent, 0),
        }

    def observe(self, agent: str) -> dict[str, Any]:
        state = self.table.game
        kept = self._kept.get(agent)
        if kept is not None and kept[0] is state:
            return kept[1]
        table = self.table
        known = self._known.get(agent)
        if known is None:
            known = self._known[agent] = SeatKnowledge(agent)
        # The seat's view without its events, and the events it may see that it has not
        # read yet (the same visibility rule as seat_view's).
        bare = table.view(agent, with_events=False)
        is_wolf = bare.camp is Camp.WOLF
        known.observe(visible_events(table.events[known.seen :], agent, is_wolf))
        known.seen = len(table.events)
        obs: dict[str, Any] = {
            "observation": np.asarray(features(bare, known), np.float32),
            "action_mask": self.mask(agent),
        }
        if self.spaces.text:
            obs["text"] = prompted(table.view(agent)).text
        self._kept[agent] = (state, obs)
        return obs


def public_transcript(events: Sequence[Event]) -> list[str]:
    return [f"D{e.day} {describe(e)}" for e in events if e.audience is Audience.PUBLIC]


class TranscriptRenderer:
    """An environment's `render`: the public transcript, all of it ("ansi") or printed as it
    grows ("human"); nothing without a render mode."""

    def __init__(self, mode: str | None) -> None:
        self.mode = mode
        self.shown = 0

    def render(self, events: Sequence[Event]) -> str | None:
        if self.mode is None:
            return None
        lines = public_transcript(events)
        if self.mode == "ansi":
            return "\n".join(lines)
        for line in lines[self.shown :]:
            print(line)
        self.shown = len(lines)
        return None
