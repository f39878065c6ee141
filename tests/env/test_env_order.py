"""`env()`'s order-enforcing wrapper checks what PettingZoo's does, on its fast paths too."""

from typing import Any

import pytest
from pettingzoo.utils import wrappers

from autowerewolf.env import env


def test_the_wrapper_is_pettingzoos_and_named_as_the_environment() -> None:
    werewolf = env()
    assert isinstance(werewolf, wrappers.OrderEnforcingWrapper)
    assert str(werewolf) == "werewolf_v0"


def test_last_before_reset_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="before reset"):
        env().last()


def test_the_agent_loop_requires_a_step_per_agent() -> None:
    werewolf: Any = env()
    werewolf.reset(seed=0)
    agents = iter(werewolf.agent_iter())
    first = next(agents)
    assert first == werewolf.unwrapped.agent_selection
    with pytest.raises(AssertionError, match="need to call step"):
        next(agents)


def test_a_step_after_the_last_agent_left_warns_and_changes_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    werewolf: Any = env()
    werewolf.reset(seed=0)
    for _agent in werewolf.agent_iter():
        _, _, terminated, truncated, info = werewolf.last()
        werewolf.step(None if terminated or truncated else info["options"][0])
    assert werewolf.unwrapped.agents == []
    werewolf.step(None)
    assert "after all agents are terminated" in caplog.text
