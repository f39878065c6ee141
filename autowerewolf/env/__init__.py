"""PettingZoo environments of the Werewolf board (docs/training.md), shaped like
PettingZoo's own: `env()` is the AEC environment with PettingZoo's checking wrappers,
`raw_env` the bare class and `parallel_env()` the parallel one. Needs the `train` extra."""

from autowerewolf.extras import require

require("train", "pettingzoo", "gymnasium", "numpy")

from typing import Any  # noqa: E402

from pettingzoo.utils import wrappers  # noqa: E402

from autowerewolf.env.aec import raw_env  # noqa: E402
from autowerewolf.env.parallel import parallel_env  # noqa: E402


def env(board: str = "12-A", **options: Any) -> wrappers.OrderEnforcingWrapper:
    """The AEC environment in PettingZoo's order-enforcing wrapper (a clear error for a step
    before `reset`). An action outside the action space is the table's to judge: an
    error or a penalty (`illegal`), as for any illegal action."""
    return wrappers.OrderEnforcingWrapper(raw_env(board, **options))


__all__ = ["env", "parallel_env", "raw_env"]
