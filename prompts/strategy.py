"""The Support/Attack strategies of Strategy Adaptation (Nakamori et al., section 3.3 and
appendix A): the selection question an `adaptive` seat answers at three moments a day, and
the strategy text that then shapes its speeches and votes. Texts in strategy.yaml."""

from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from autowerewolf.prompts.answers import reasoning_field
from autowerewolf.prompts.texts import read_yaml

STRATEGY = "strategy"  # the step name of a strategy note
Strategy = Literal["support", "attack"]
STRATEGIES: tuple[Strategy, ...] = ("support", "attack")


def _section(name: str) -> dict[str, Any]:
    section = read_yaml("strategy.yaml")[name]
    assert isinstance(section, dict)
    return section


def instruction(camp: str, day: int, moment: str) -> str:
    """The selection question, with the paper's criteria for the seat's camp."""
    when = _section("moments")[moment]
    return (
        f"Day {day}, {when}: choose your strategy for what comes next, 'support' or 'attack'. "
        f"{_section('criteria')[camp]} Based on the game so far and your latest role "
        "estimates, decide which strategy is more effective now. Nobody else will see this."
    )


@cache
def strategy_schema(reasoning_chars: int) -> type[BaseModel]:
    """The strategy's answer: private reasoning first unless `reasoning_chars` is 0."""
    fields: dict[str, Any] = {
        **reasoning_field(reasoning_chars, "Why, from the criteria, in private."),
        "strategy": (Strategy, Field(description="'support' or 'attack'.")),
    }
    return create_model("StrategyChoice", __config__=ConfigDict(extra="forbid"), **fields)


def strategy_text(camp: str, strategy: str) -> str:
    """The chosen strategy as the seat reads it before a speech or a vote."""
    return (
        f"Your strategy now: {strategy.title()}. Refer to your latest role estimates. "
        f"{_section('strategies')[camp][strategy]}"
    )
