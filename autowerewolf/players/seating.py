"""Who sits where: data only, saved with the game so that it can be resumed or forked."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from autowerewolf.backends.config import PlayerModels
from autowerewolf.players.simple import ScriptedAnswer, ScriptEntry

PlayerKind = Literal["random", "scripted", "human", "llm", "heuristic"]


class Seating(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    default: PlayerKind = Field("random", description="Kind of every seat not listed in `seats`.")
    seats: dict[str, PlayerKind] = Field({}, description="Per-seat kinds, e.g. {'P03': 'human'}.")
    player_seed: int | None = Field(
        None, description="Seed of random and fallback choices; defaults to the game seed."
    )
    decisions: dict[str, ScriptEntry] = Field(
        {}, description="Scripted answers by decision key (scripted seats only)."
    )

    overrides: dict[str, dict[str, ScriptedAnswer]] = Field(
        {}, description="Forced answers by decision key and seat, whatever the seat's kind (forks)."
    )

    models: PlayerModels | None = Field(
        None, description="Model configs of LLM seats; None = the embedded local model."
    )

    contestants: dict[str, str] = Field(
        {}, description="Tournament contestant name per seat, for evaluation."
    )

    def kind_of(self, seat: str) -> PlayerKind:
        return self.seats.get(seat, self.default)
