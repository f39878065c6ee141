"""Model backend configuration: one ``ModelConfig`` per agent, resolved from layered overrides.

Override semantics (documented contract for config files and CLI flags):

* ``default`` is a complete ``ModelConfig``.
* ``camps``, ``roles``, ``seats`` and ``moderator`` hold *partial* overrides: only the
  fields that differ. A player's config is built by layering
  ``default <- camp <- role <- seat`` (each later layer wins field by field).
* If a layer switches ``backend``, the connection fields (``model``, ``base_url``,
  ``api_key_env``) are not inherited from below, because a model name or URL for one
  backend is meaningless for another; sampling fields (temperature, max_tokens, ...)
  still are. Such a layer must therefore name its own ``model``.
* Secrets are never stored: ``api_key_env`` holds the *name* of an environment variable
  and is only read when the chat model is built (see ``factory.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from autowerewolf.errors import SettingsError
from autowerewolf.files import read_mapping
from autowerewolf.prompts.answers import BUDGETS, Bounds
from autowerewolf.rules.config import one_line
from autowerewolf.rules.decisions import MAX_TEXT_CHARS
from autowerewolf.rules.roles import CAMP_NAMES, ROLE_NAMES, camp_of

Backend = Literal["api", "ollama", "local", "simulated"]
RANDOM_ANSWERER = "random-answerer"  # the model name of a harness's random stand-in

SEAT_PATTERN = re.compile(r"P\d{2}")

CONNECTION_FIELDS: frozenset[str] = frozenset({"model", "base_url", "api_key_env"})

EnvVarName = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")]
ModelName = Annotated[str, Field(min_length=1)]
BaseUrl = Annotated[str, Field(pattern=r"^https?://\S+$")]
Temperature = Annotated[float, Field(ge=0.0, le=2.0)]
MaxTokens = Annotated[int, Field(gt=0)]
TimeoutS = Annotated[float, Field(gt=0)]
Retries = Annotated[int, Field(ge=0, le=20)]
TextChars = Annotated[int, Field(ge=1, le=MAX_TEXT_CHARS)]
Seconds = Annotated[float, Field(ge=0.0, le=3600.0)]
InFlight = Annotated[int, Field(gt=0, le=100_000)]
Rate = Annotated[float, Field(gt=0.0)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _reject_inline_secret(cls, data: Any) -> Any:
        # A plain "unknown field" error would not tell the user where the key should go.
        if isinstance(data, Mapping) and "api_key" in data:
            raise ValueError(
                "api_key is not allowed in config files; export the key in an environment "
                "variable and set api_key_env to that variable's name"
            )
        return data


class Budget(_Strict):
    """Explicit answer bounds, in characters (the rules cap any text at MAX_TEXT_CHARS)."""

    reasoning: Annotated[int, Field(ge=0, le=MAX_TEXT_CHARS)]  # 0: no private reasoning
    speech: TextChars
    message: TextChars


# compact: short answers for CPU-bound local models; focused: compact with private reasoning
# only before a night power, a shot or the badge; terse: compact without private reasoning;
# full: room for strong API models.
BudgetChoice = Literal["compact", "focused", "terse", "full"] | Budget


class ModelConfig(_Strict):
    """Everything needed to build one LangChain chat model."""

    backend: Backend
    model: ModelName
    base_url: BaseUrl | None = None
    api_key_env: EnvVarName | None = None
    temperature: Temperature = 0.7
    max_tokens: MaxTokens = 512
    timeout_s: TimeoutS = 120.0
    retries: Retries = 2
    seed: int | None = None
    budget: BudgetChoice | None = Field(
        None,
        description="Answer bounds: compact, focused (compact with private reasoning only "
        "before a night power, a shot or the badge), terse (compact without private "
        "reasoning), full or numbers; default focused for the local backend, full otherwise.",
    )
    speech: Literal["acts", "free"] | None = Field(
        None,
        description="Speeches as structured acts (claim, check, accuse, vouch...) or free "
        "text; default acts for the local backend, free otherwise.",
    )

    second_look: bool = Field(
        True,
        description="Ask once more when a legal answer works against the seat's own side "
        "(a teammate or itself picked, a refusal; docs/agents.md); off: the first legal "
        "answer stands.",
    )

    def bounds(self) -> Bounds:
        """The answer bounds this model's players write within, their speech form and
        whether they take a second look."""
        acts = self.speech_form() == "acts"
        if isinstance(self.budget, Budget):
            chosen = Bounds(self.budget.reasoning, self.budget.speech, self.budget.message)
        else:
            chosen = BUDGETS[self.budget or ("focused" if self.backend == "local" else "full")]
        return replace(chosen, speech_acts=acts, second_look=self.second_look)

    def speech_form(self) -> Literal["acts", "free"]:
        return self.speech or ("acts" if self.backend == "local" else "free")

    def as_random_answerer(self) -> ModelConfig:
        """This config's harness (budget, speech form, every setting the prompt depends on)
        with a uniformly random answerer in place of its model (backends/simulated.py): what
        the harness scores with no skill behind it, offline."""
        return self.model_copy(
            update={
                "backend": "simulated",
                "model": RANDOM_ANSWERER,
                "base_url": None,
                "api_key_env": None,
                "budget": self.budget or ("focused" if self.backend == "local" else "full"),
                "speech": self.speech_form(),
                "latency_s": 0.0,
                "jitter_s": 0.0,
            }
        )

    def answer_tokens(self) -> int:
        """`max_tokens` as set; left unset, at least enough for the answer bounds (about
        three characters a token, plus the JSON around the texts), so a `full` budget is
        not cut off mid-answer."""
        if "max_tokens" in self.model_fields_set:
            return self.max_tokens
        bounds = self.bounds()
        return max(self.max_tokens, (bounds.reasoning + bounds.speech + bounds.message) // 3 + 150)

    # Limits of the asynchronous runner (`batch`, `tournament`), per server (base URL and key)
    # and per process: at most this many calls at once, at most this many calls a second.
    max_in_flight: InFlight | None = None
    requests_per_s: Rate | None = None
    # backend "simulated" only: each answer takes latency_s +- jitter_s (docs/scale.md).
    latency_s: Seconds = 1.0
    jitter_s: Seconds = 0.0

    @property
    def managed_local(self) -> bool:
        """Served by the embedded llama-server this process starts (no base_url of its own)."""
        return self.backend == "local" and self.base_url is None

    @model_validator(mode="after")
    def _check_backend_fields(self) -> ModelConfig:
        if self.backend == "simulated" and self.base_url is not None:
            raise ValueError("backend 'simulated' calls no server: remove base_url")
        if self.backend in ("api", "ollama") and self.base_url is None:
            raise ValueError(f"backend '{self.backend}' needs base_url")
        if self.api_key_env is not None and self.backend != "api":
            # Ollama and the managed llama-server take no key; silently ignoring one
            # would hide a config mistake.
            raise ValueError(f"api_key_env is only used by backend 'api', not '{self.backend}'")
        return self


class ModelOverride(_Strict):
    """A partial ``ModelConfig``: unset fields are inherited from the layer below."""

    backend: Backend | None = None
    model: ModelName | None = None
    base_url: BaseUrl | None = None
    api_key_env: EnvVarName | None = None
    temperature: Temperature | None = None
    max_tokens: MaxTokens | None = None
    timeout_s: TimeoutS | None = None
    retries: Retries | None = None
    seed: int | None = None
    budget: BudgetChoice | None = None
    speech: Literal["acts", "free"] | None = None
    second_look: bool | None = None
    max_in_flight: InFlight | None = None
    requests_per_s: Rate | None = None
    latency_s: Seconds | None = None
    jitter_s: Seconds | None = None


def _apply(base: ModelConfig, layers: Iterable[ModelOverride]) -> ModelConfig:
    merged = base.model_dump(exclude_unset=True)  # what is unset stays unset (answer_tokens)
    for layer in layers:
        changes = layer.model_dump(exclude_unset=True)
        if "backend" in changes and changes["backend"] != merged["backend"]:
            merged = {k: v for k, v in merged.items() if k not in CONNECTION_FIELDS}
        merged.update(changes)
    return ModelConfig.model_validate(merged)


def _check_keys(keys: Iterable[str], allowed: Sequence[str], what: str) -> None:
    for key in keys:
        if key not in allowed:
            raise ValueError(f"unknown {what} '{key}'; expected one of: {', '.join(allowed)}")


class PlayerModels(BaseModel):
    """Model configs for all agents with seat > role > camp > default precedence."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    default: ModelConfig
    camps: dict[str, ModelOverride] = Field(default_factory=dict)
    roles: dict[str, ModelOverride] = Field(default_factory=dict)
    seats: dict[str, ModelOverride] = Field(default_factory=dict)
    moderator: ModelOverride | None = None
    random_answerer: bool = Field(
        False,
        description="Every seat keeps its harness but a uniformly random answerer stands in "
        "for its model (a tournament's scaffold baselines, docs/evaluation.md).",
    )

    @field_validator("camps", "roles", mode="before")
    @classmethod
    def _known_keys(cls, value: Any, info: ValidationInfo) -> Any:
        if isinstance(value, Mapping):
            allowed, what = (
                (CAMP_NAMES, "camp") if info.field_name == "camps" else (ROLE_NAMES, "role")
            )
            _check_keys(value, allowed, what)
        return value

    @field_validator("seats", mode="before")
    @classmethod
    def _seat_ids(cls, value: Any) -> Any:
        if isinstance(value, Mapping):
            for key in value:
                if not (isinstance(key, str) and SEAT_PATTERN.fullmatch(key)):
                    raise ValueError(f"bad seat id '{key}'; expected P01, P02, ...")
        return value

    @model_validator(mode="after")
    def _each_override_merges(self) -> PlayerModels:
        # Catch a broken override at load time rather than when that seat first speaks.
        named = [
            (f"{section}.{key}", override)
            for section, overrides in (
                ("camps", self.camps),
                ("roles", self.roles),
                ("seats", self.seats),
            )
            for key, override in overrides.items()
        ]
        if self.moderator is not None:
            named.append(("moderator", self.moderator))
        for where, override in named:
            try:
                _apply(self.default, [override])
            except ValidationError as exc:
                raise ValueError(f"{where} (merged over default): {one_line(exc)}") from None
        return self

    def resolve(self, seat: str, role: str, camp: str | None = None) -> ModelConfig:
        """Config for one player; ``camp`` defaults to the role's camp."""
        role = str(role).lower()
        if role not in ROLE_NAMES:
            raise SettingsError(f"unknown role '{role}'; expected one of: {', '.join(ROLE_NAMES)}")
        camp = camp if camp is not None else camp_of(role).value
        if camp not in CAMP_NAMES:
            raise SettingsError(f"unknown camp '{camp}'; expected one of: {', '.join(CAMP_NAMES)}")
        if not SEAT_PATTERN.fullmatch(seat):
            raise SettingsError(f"bad seat id '{seat}'; expected P01, P02, ...")
        layers = [
            layer
            for layer in (self.camps.get(camp), self.roles.get(role), self.seats.get(seat))
            if layer is not None
        ]
        try:
            config = _apply(self.default, layers)
        except ValidationError as exc:
            raise SettingsError(f"model config for {seat} ({role}): {one_line(exc)}") from None
        return config.as_random_answerer() if self.random_answerer else config

    def resolve_all(self, roles_by_seat: Mapping[str, str]) -> dict[str, ModelConfig]:
        """Every seat's config at once: layers that each merge fine can still clash
        (one switches backend, a later one lacks the new base_url), and that should
        surface before the game starts."""
        return {seat: self.resolve(seat, role) for seat, role in roles_by_seat.items()}

    def for_moderator(self) -> ModelConfig:
        if self.moderator is None:
            return self.default
        return _apply(self.default, [self.moderator])


def apply_dotted_override(data: dict[str, Any], assignment: str) -> None:
    """Apply one CLI-style ``a.b.c=value`` assignment to ``data`` in place.

    Values stay strings so pydantic does the type coercion (and reports bad values);
    the one exception is ``null``, which clears an optional field such as ``seed``.
    """
    key, sep, raw = assignment.partition("=")
    key = key.strip()
    path = key.split(".")
    if not sep or not key or any(not part for part in path):
        raise SettingsError(f"bad override '{assignment}'; expected dotted.key=value")
    node = data
    for depth, part in enumerate(path[:-1]):
        child = node.get(part)
        if child is None:  # an empty YAML section ("seats:") parses as None
            child = node[part] = {}
        if not isinstance(child, dict):
            prefix = ".".join(path[: depth + 1])
            raise SettingsError(f"bad override '{key}': {prefix} is a value, not a section")
        node = child
    node[path[-1]] = None if raw.strip() == "null" else raw.strip()


def parse_player_models(data: Mapping[str, Any]) -> PlayerModels:
    try:
        return PlayerModels.model_validate(data)
    except ValidationError as exc:
        raise SettingsError(f"invalid model config: {one_line(exc)}") from None


def load_player_models(
    path: str | Path | None = None, overrides: Sequence[str] = ()
) -> PlayerModels:
    """Read a YAML/JSON file (optional) and apply ``key=value`` overrides on top."""
    data: dict[str, Any] = read_mapping(Path(path), "model config file") if path is not None else {}
    for assignment in overrides:
        apply_dotted_override(data, assignment)
    return parse_player_models(data)
