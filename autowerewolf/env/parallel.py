"""The PettingZoo parallel environment: every step is one decision of the game, taken by
all the controlled seats it asks at once (a vote's ballots together; a sequential step's
one seat). Every live agent sends an action at every step; the action of a seat that is
not asked (its mask allows `wait` alone) is not used (docs/training.md)."""

from typing import Any

from gymnasium import spaces
from pettingzoo import ParallelEnv

from autowerewolf.env.common import (
    RENDER_MODES,
    EnvOptions,
    Observer,
    TranscriptRenderer,
    WerewolfSpaces,
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
        self.observer = Observer(self.table, self.spaces)
        self.possible_agents = self.settings.possible_agents(self.table)
        self.agents: list[str] = []
        self._cycles = 0
        self._transcript = TranscriptRenderer(self.render_mode)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.spaces.observation

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.spaces.action

    def _observations(self) -> tuple[dict[str, Any], dict[str, Any]]:
        observer = self.observer
        return (
            {a: observer.observe(a) for a in self.agents},
            {a: observer.info(a) for a in self.agents},
        )

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game: `seed` deals it (a fresh random seed if None); `options` is unused."""
        self.table.reset(seed)
        self.agents = list(self.table.controlled)
        self.observer.forget()
        self._cycles = 0
        self._transcript = TranscriptRenderer(self.render_mode)
        return self._observations()

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        table = self.table
        rewards = dict.fromkeys(self.agents, 0.0)
        for agent in list(table.asked):
            rewards[agent] += table.answer(agent, actions.get(agent))
        table.advance()
        self._cycles += 1
        agents = self.agents
        terminations = dict.fromkeys(agents, table.over)
        truncated = not table.over and (
            self.max_cycles is not None and self._cycles >= self.max_cycles
        )
        truncations = dict.fromkeys(agents, truncated)
        observations, infos = self._observations()
        if table.over:
            for agent, reward in table.rewards().items():
                rewards[agent] += reward
            infos = {a: {**infos[a], **self.observer.final_info(a)} for a in agents}
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
