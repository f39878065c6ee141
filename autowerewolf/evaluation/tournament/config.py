"""Tournament configuration files (YAML/JSON): who plays, on which board, how many games."""

import re
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from autowerewolf.backends.config import ModelOverride, PlayerModels
from autowerewolf.errors import settings_error
from autowerewolf.files import parse_mapping, read_mapping
from autowerewolf.players.agents.choice import check_agent
from autowerewolf.prompts.probes import check_probes

# A `human` contestant is a person, named: its seats are human seats, played through the
# web app's links (a tournament file started in the lobby; docs/evaluation.md).
ContestantKind = Literal["random", "heuristic", "llm", "human"]
# Game ids are "<name>-<index>"; keep names to characters that are safe in ids and file names.
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
# A tournament's scaffold baselines (schedule.py) are filed under "<tournament>:scaffold":
# a name no tournament can take, so they never mix with its games.
SCAFFOLD = ":scaffold"


def scaffold_name(tournament: str) -> str:
    return f"{tournament}{SCAFFOLD}"


class Price(BaseModel):
    """USD per million tokens for one model."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    input: float = Field(0.0, ge=0)
    output: float = Field(0.0, ge=0)
    cached: float | None = Field(None, ge=0, description="Cached input; defaults to `input`.")


def safe_name(what: str) -> AfterValidator:
    """Names become game ids and file names: a `what`'s name keeps to a portable alphabet."""

    def check(value: str) -> str:
        if not NAME_PATTERN.fullmatch(value):
            raise ValueError(f"{what} name {value!r} may only use letters, digits, _ . -")
        return value

    return AfterValidator(check)


class Contestant(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Annotated[str, safe_name("contestant")]
    kind: ContestantKind
    model: ModelOverride | None = Field(
        None, description="LLM only: override applied to this contestant's seats."
    )
    agent: str = Field("plain", description="LLM only: the agent design of its seats.")

    @field_validator("agent")
    @classmethod
    def _known_agent(cls, value: str) -> str:
        return check_agent(value)

    @model_validator(mode="after")
    def _model_only_for_llm(self) -> "Contestant":
        if self.model is not None and self.kind != "llm":
            raise ValueError(f"contestant {self.name!r}: `model` is only used by kind 'llm'")
        if self.agent != "plain" and self.kind != "llm":
            raise ValueError(f"contestant {self.name!r}: `agent` is only used by kind 'llm'")
        return self


class ExperienceSettings(BaseModel):
    """The experience pool of `experience` contestants (docs/agents.md)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pool: Path | None = Field(None, description="Pool file; default: beside the games.")
    frozen: bool = Field(
        True, description="Games read the pool but never add to it: they stay independent."
    )


class StopRule(BaseModel):
    """Stop the tournament once one comparison is decided (sequential.py, docs/evaluation.md):
    the confidence sequence of A's win rate minus B's, paired within blocks, excludes 0 or
    lies within +-margin. `games` stays the most the tournament plays."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    compare: tuple[str, str] = Field(description="The two contestants compared, A and B.")
    margin: float = Field(0.1, gt=0, le=1, description="Differences within it count as equal.")
    alpha: float = Field(0.05, gt=0, lt=1, description="Error rate over every look.")
    every: int = Field(20, ge=1, description="Games between looks (rounded up to a block).")


class TournamentConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Annotated[str, safe_name("tournament")]
    contestants: list[Contestant] = Field(min_length=2)
    board: str = "12-A"
    variants: dict[str, Any] = {}
    max_days: int = 30
    games: int = Field(60, ge=1)
    seed: int = Field(0, description="Seeds the schedule; block b plays game seed seed + b.")
    secret: str | None = Field(
        None,
        repr=False,
        pattern=r"^[0-9a-f]{32,128}$",
        description="The games' secret (32-128 hex digits, docs/security.md): with it, the "
        "same file plays the same games again; none: every game draws a fresh one.",
    )
    mixed_share: float = Field(
        0.5,
        ge=0.0,
        le=1.0,
        description="Share of games where every contestant sits in both camps; the rest "
        "put one contestant on each camp (and then swap).",
    )
    baseline: str | None = Field(
        None,
        description="Team blocks pit every other contestant against this one only, in both "
        "camps (Strategy Adaptation's design: one camp fixed to a baseline).",
    )
    experience: ExperienceSettings = ExperienceSettings()
    concurrency: int = Field(1, ge=1)
    models: PlayerModels | None = Field(
        None, description="Base model configs of LLM seats; None = the embedded local model."
    )
    prices: dict[str, Price] = Field({}, description="Price per model name (DecisionRecord.model).")
    bootstrap: int = Field(1000, ge=100, description="Bootstrap resamples for rating intervals.")
    probes: list[str] = Field(
        [], description="Measurement probes asked in every game (docs/evaluation.md, Probes)."
    )
    stop: StopRule | None = Field(None, description="Stop early once a comparison is decided.")
    scaffold_games: int = Field(
        20,
        ge=0,
        description="Games per LLM contestant of its scaffold baseline: every seat is that "
        "contestant with its model answering uniformly at random (offline, no model calls), "
        "so each metric can be read against what its harness alone scores; 0: none.",
    )
    db: str | None = Field(
        None,
        description="Where the games are saved: a SQLite file or a postgresql:// URL; "
        "--db overrides it. Default: tournaments/NAME/games.db.",
    )

    @property
    def humans(self) -> list[str]:
        """The human contestants: people, whose games are played through the web app."""
        return [c.name for c in self.contestants if c.kind == "human"]

    @field_validator("probes")
    @classmethod
    def _known_probes(cls, names: list[str]) -> list[str]:
        return list(check_probes(names))

    @model_validator(mode="after")
    def _unique_names(self) -> "TournamentConfig":
        names = [c.name for c in self.contestants]
        duplicated = sorted({n for n in names if names.count(n) > 1})
        if duplicated:
            raise ValueError(f"contestant names must be unique: {', '.join(duplicated)}")
        if self.baseline is not None and self.baseline not in names:
            raise ValueError(f"baseline {self.baseline!r} is not a contestant")
        if self.stop is not None:
            a, b = self.stop.compare
            if a == b or a not in names or b not in names:
                raise ValueError(f"stop.compare needs two contestants, not {a!r} and {b!r}")
        return self


def load_tournament(path: Path) -> TournamentConfig:
    return _validated(read_mapping(path, "tournament file"), path)


def parse_tournament(text: str, source: Path) -> TournamentConfig:
    """A tournament file's text from elsewhere than a file (the lobby's paste), checked as
    `load_tournament` checks a file; `source` names it in errors."""
    return _validated(parse_mapping(text, source), source)


def _validated(data: dict[str, Any], source: Path) -> TournamentConfig:
    try:
        return TournamentConfig.model_validate(data)
    except ValidationError as err:
        raise settings_error(str(source), err) from None
