"""The PettingZoo AEC environment over the rules engine (docs/training.md).

Agents are the seats the trainer controls (under camp or role control, one id per slot:
`wolf_0` ... `wolf_3`, whatever the deal). With `turns="acting"` (the default) the agent
selected is a seat the game asks: one at a time for a sequential step, each asked seat in
turn for a simultaneous one (a vote), whose answers are applied together once all have
answered, so no seat sees another's ballot first. With `turns="all"` every agent acts in
every cycle and a seat not asked has one legal action, `wait` (PettingZoo's
every-agent-per-cycle shape, which its `max_cycles_test` assumes). Observations are
built lazily: the action mask is also in `infos`.
"""

from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

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

Turns = Literal["acting", "all"]


class raw_env(AECEnv[str, dict[str, Any], Any]):  # type: ignore[misc]
    metadata = {  # noqa: RUF012 - PettingZoo declares it so
        "name": "werewolf_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        board: str = "12-A",
        *,
        turns: Turns = "acting",
        max_cycles: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if turns not in ("acting", "all"):
            raise ValueError(f"turns must be 'acting' or 'all', not {turns!r}")
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)}")
        self.settings = EnvOptions.parse(board, options)
        self.table: Table = self.settings.table()
        self.turns = turns
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.spaces = WerewolfSpaces(self.table, self.settings.text_observations)
        self.feature_names = self.spaces.feature_names
        self.state_space = self.spaces.state
        self.observer = Observer(self.table, self.spaces)
        self.possible_agents = self.settings.possible_agents(self.table)
        self.ids = AgentIds(self.settings.slot())
        self.agents: list[str] = []
        self.agent_selection = ""
        self._order: list[str] = []  # the agents still to act in this cycle
        self._cycles = 0
        self._dirty = False  # some reward of the last step was not 0
        self._transcript = TranscriptRenderer(self.render_mode)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.spaces.observation

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.spaces.action

    def state(self) -> np.ndarray:
        """The whole game for a centralised critic (`state_space`, docs/training.md)."""
        table = self.table
        return global_state(table.game, str(table.game.step) if table.asked else None)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: `seed` deals it (a fresh random seed if None); `options` is unused."""
        self.table.reset(seed)
        self.agents = self.ids.deal(self.table.controlled)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._cycles = 0
        self._dirty = False
        self._transcript = TranscriptRenderer(self.render_mode)
        self.observer.forget()
        self._start_cycle()

    def _start_cycle(self) -> None:
        """Select the first agent of the new cycle, or end the game for every agent."""
        table, agent_of, seat_of = self.table, self.ids.agent_of, self.ids.seat_of
        if table.over:
            result = table.rewards()
            for agent in self.agents:
                self.terminations[agent] = True
                self.rewards[agent] += result[seat_of[agent]]  # after any penalty of this step
                self.infos[agent] = self.observer.final_info(seat_of[agent])
            self._dirty = True
            self._order = []
            self.agent_selection = self.agents[0]
            return
        if self.max_cycles is not None and self._cycles >= self.max_cycles:
            for agent in self.agents:
                self.truncations[agent] = True
                self.infos[agent] = {}
            self._order = []
            self.agent_selection = self.agents[0]
            return
        infos = self.infos
        for seat in table.asked:
            infos[agent_of[seat]] = self.observer.info(seat)
        if self.turns == "acting":
            self._order = [agent_of[seat] for seat in table.asked]
        else:
            self._order = list(self.agents)
            for agent in self.agents:
                if seat_of[agent] not in table.asked:
                    infos[agent] = self.observer.info(seat_of[agent])
        self._order.reverse()  # popped from the end
        self.agent_selection = self._order.pop()

    def observe(self, agent: str) -> dict[str, Any]:
        return self.observer.observe(self.ids.seat_of[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        if self._dirty:
            self._clear_rewards()
            self._dirty = False
        table, seat = self.table, self.ids.seat_of[agent]
        if seat in table.asked:
            penalty = table.answer(seat, action)
            if penalty:
                self.rewards[agent] = penalty
                self._dirty = True
            self.infos[agent] = {}
        # A seat not asked (turns="all") waits: its action is not used.
        if self._order:
            self.agent_selection = self._order.pop()
        else:
            self._cycles += 1
            new = table.advance()
            if self.settings.dense:
                self._pay_dense(new)
            self._start_cycle()
        if self._dirty:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _pay_dense(self, events: Any) -> None:
        paid = vote_rewards(self.table.game, events, self.table.controlled, self.settings.dense)
        for seat, reward in paid.items():
            self.rewards[self.ids.agent_of[seat]] += reward
            self._dirty = True

    def render(self) -> str | None:
        """The public transcript: all of it ("ansi"), or printed as it grows ("human")."""
        return self._transcript.render(self.table.events)

    def close(self) -> None:
        self.table.close_players()


__all__ = ["raw_env"]
