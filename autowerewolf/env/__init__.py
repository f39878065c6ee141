"""PettingZoo environments of the Werewolf board (docs/training.md), shaped like
PettingZoo's own: `env()` is the AEC environment with PettingZoo's checking wrappers,
`raw_env` the bare class and `parallel_env()` the parallel one. Needs the `train` extra."""

from autowerewolf.extras import require

require("train", "pettingzoo", "gymnasium", "numpy")

from typing import Any  # noqa: E402

from pettingzoo.utils import wrappers  # noqa: E402
from pettingzoo.utils.wrappers.order_enforcing import (  # noqa: E402
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from autowerewolf.env.aec import raw_env  # noqa: E402
from autowerewolf.env.parallel import parallel_env  # noqa: E402


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper with the same checks, whose calls made once per
    decision (`last`, `step`, the agent iterator's next agent) read the environment
    directly once it was reset: the base wrapper reaches each attribute through two
    `__getattr__` calls, eight per decision."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        last: tuple[Any, float, bool, bool, dict[str, Any]] = self.env.last(observe)
        return last

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            return super().agent_iter(max_iter)
        return AgentIterable(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)


class AgentIterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> AECOrderEnforcingIterator:
        return AgentIterator(self.env, self.max_iter)


class AgentIterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's order-enforcing agent iterator, reading the wrapped environment."""

    def __next__(self) -> str:
        wrapper = self.env
        inner = wrapper.env
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        agent: str = inner.agent_selection
        return agent


def env(board: str = "12-A", **options: Any) -> OrderEnforcing:
    """The AEC environment in PettingZoo's order-enforcing wrapper (a clear error for a step
    before `reset`). An action outside the action space is the table's to judge: an
    error or a penalty (`illegal`), as for any illegal action."""
    return OrderEnforcing(raw_env(board, **options))


__all__ = ["env", "parallel_env", "raw_env"]
