"""The PettingZoo parallel environment: every step is one decision of the game, taken by
all the controlled seats it asks at once (a vote's ballots together; a sequential step's
one seat). Every live agent sends an action at every step; the action of a seat that is
not asked (its mask allows `wait` alone) is not used, and only the asked seats are
observed: the others get one shared waiting observation (zero features, `wait` alone),
so a vote of three agents costs three observations, not twelve (docs/training.md)."""

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from autowerewolf.env.common import (
    RENDER_MODES,
    AgentIds,
    EnvOptions,
    Observer,
    TranscriptRenderer,
    WerewolfSpaces,
    global_state,
    vote_rewards,
)
from autowerewolf.table import Table


class WerewolfParallelEnv(ParallelEnv[str, dict[str, Any], Any]):  # type: ignore[misc]
    metadata = {"name": "werewolf_v0", "render_modes": list(RENDER_MODES)}  # noqa: RUF012

    def __init__(
        self,
        board: str = "12-A",
        *,
        max_cycles: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)}")
        self.settings = EnvOptions.parse(board, options)
        self.table: Table = self.settings.table()
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.spaces = WerewolfSpaces(self.table, self.settings.text_observations)
        self.feature_names = self.spaces.feature_names
        self.state_space = self.spaces.state
        self.observer = Observer(self.table, self.spaces)
        self.possible_agents = self.settings.possible_agents(self.table)
        self.ids = AgentIds(self.settings.slot())
        waiting: dict[str, Any] = {
            "observation": np.zeros(len(self.feature_names), np.float32),
            "action_mask": self.observer.mask(""),
        }
        if self.spaces.text:
            waiting["text"] = ""
        self._waiting = waiting
        self.agents: list[str] = []
        self._cycles = 0
        self._transcript = TranscriptRenderer(self.render_mode)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.spaces.observation

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.spaces.action

    def state(self) -> np.ndarray:
        """The whole game for a centralised critic (`state_space`, docs/training.md)."""
        table = self.table
        return global_state(table.game, str(table.game.step) if table.asked else None)

    def _observations(self) -> tuple[dict[str, Any], dict[str, Any]]:
        observer, asked, seat_of = self.observer, self.table.asked, self.ids.seat_of
        observations = {
            a: observer.observe(seat_of[a]) if seat_of[a] in asked else self._waiting
            for a in self.agents
        }
        return observations, {a: observer.info(seat_of[a]) for a in self.agents}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game: `seed` deals it (a fresh random seed if None); `options` is unused."""
        self.table.reset(seed)
        self.agents = self.ids.deal(self.table.controlled)
        self.observer.forget()
        self._cycles = 0
        self._transcript = TranscriptRenderer(self.render_mode)
        return self._observations()

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        table = self.table
        rewards = dict.fromkeys(self.agents, 0.0)
        agent_of = self.ids.agent_of
        for seat in list(table.asked):
            rewards[agent_of[seat]] += table.answer(seat, actions.get(agent_of[seat]))
        new = table.advance()
        if self.settings.dense:
            paid = vote_rewards(table.game, new, table.controlled, self.settings.dense)
            for seat, reward in paid.items():
                rewards[agent_of[seat]] += reward
        self._cycles += 1
        agents = self.agents
        terminations = dict.fromkeys(agents, table.over)
        truncated = not table.over and (
            self.max_cycles is not None and self._cycles >= self.max_cycles
        )
        truncations = dict.fromkeys(agents, truncated)
        observations, infos = self._observations()
        if table.over:
            for seat, reward in table.rewards().items():
                rewards[agent_of[seat]] += reward
            final = self.observer.final_info
            infos = {a: {**infos[a], **final(self.ids.seat_of[a])} for a in agents}
        if table.over or truncated:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """The public transcript: all of it ("ansi"), or printed as it grows ("human")."""
        return self._transcript.render(self.table.events)

    def close(self) -> None:
        self.table.close_players()


def parallel_env(board: str = "12-A", **options: Any) -> WerewolfParallelEnv:
    return WerewolfParallelEnv(board, **options)


__all__ = ["WerewolfParallelEnv", "parallel_env"]
