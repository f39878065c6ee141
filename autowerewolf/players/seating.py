"""Who sits where: data only, saved with the game so that it can be resumed or forked.

Model configs are not part of it: they are live settings (endpoints, key variable names)
passed in the runtime context on every run; the decision records say which model played."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from autowerewolf.players.agents.choice import AgentChoice
from autowerewolf.players.simple import ScriptedAnswer, ScriptEntry
from autowerewolf.prompts.probes import check_probes
from autowerewolf.rules.config import MAX_SEED

PlayerKind = Literal["random", "scripted", "human", "llm", "heuristic"]


class Seating(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    default: PlayerKind = Field("random", description="Kind of every seat not listed in `seats`.")
    seats: dict[str, PlayerKind] = Field({}, description="Per-seat kinds, e.g. {'P03': 'human'}.")
    player_seed: int | None = Field(
        None,
        ge=0,
        le=MAX_SEED,
        description="Root of the players' own seeds (random and fallback choices); defaults to "
        "the game seed. Each seat draws from a seed derived from it, never from it directly.",
    )
    human_deadline_s: float | None = Field(
        None,
        ge=1,
        le=86_400,
        description="A human seat's time for each question, in seconds (the web app keeps it): "
        "then the seat's seeded fallback answers, recorded as a timeout. None: no limit.",
    )
    decisions: dict[str, ScriptEntry] = Field(
        {}, description="Scripted answers by decision key (scripted seats only)."
    )

    draws: dict[str, str] = Field(
        {},
        description="Outcomes of the moderator's draws fixed by a script, by draw key "
        "(e.g. {'d1:exile_tie': 'P03'}): a game recorded elsewhere, replayed.",
    )

    overrides: dict[str, dict[str, ScriptedAnswer]] = Field(
        {}, description="Forced answers by decision key and seat, whatever the seat's kind (forks)."
    )

    contestants: dict[str, str] = Field(
        {}, description="Tournament contestant name per seat, for evaluation."
    )
    tournament: str | None = Field(
        None,
        description="The tournament that planned this game, for evaluation: `report "
        "--tournament NAME` finds its games by it when they have no result row.",
    )
    probes: tuple[str, ...] = Field(
        (),
        description="Measurement probes asked during the game (pre_vote, speech_votes, "
        "role_estimates): recorded, never shown to any player, never changing the game.",
    )

    @field_validator("probes")
    @classmethod
    def _known_probes(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        return check_probes(names)

    agents: AgentChoice = Field(
        default_factory=AgentChoice,
        description="The agent design of LLM seats: default, then camp, role and seat "
        "choices, resolved from each seat's own role (docs/agents.md).",
    )

    def kind_of(self, seat: str) -> PlayerKind:
        return self.seats.get(seat, self.default)
