"""Game files (YAML or JSON): a game's setup and seating, plus scripted decisions.

A script is a game file whose `decisions` answer chosen decisions by their key
(shown by `autowerewolf history` and `inspect`); anything it leaves out is played
by seeded random legal choices. See docs/scripts.md.
"""

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from autowerewolf.errors import SettingsError, settings_error
from autowerewolf.files import read_mapping
from autowerewolf.players.agents.choice import AgentChoice
from autowerewolf.players.seating import PlayerKind, Seating
from autowerewolf.players.simple import ScriptEntry
from autowerewolf.prompts.probes import check_probes
from autowerewolf.rules.config import GameSetup


class PlayersSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    default: PlayerKind | None = None
    seats: dict[str, PlayerKind] = {}


class GameFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    board: str = "12-A"
    roles: list[str] | None = None
    variants: dict[str, Any] = {}
    seed: int | None = None
    secret: str | None = None  # the game's secret (rules/rng.py); default: a fresh one
    max_days: int = 30
    name_pool: list[str] | None = None
    deal: list[str] | dict[str, str] | None = None
    players: PlayersSpec = PlayersSpec()
    player_seed: int | None = None
    decisions: dict[str, ScriptEntry] = {}
    draws: dict[str, str] = {}
    probes: list[str] = []
    agents: AgentChoice = AgentChoice()
    db: str | None = None  # where the game is saved (a file or postgresql:// URL); --db wins

    @field_validator("probes")
    @classmethod
    def _known_probes(cls, names: list[str]) -> list[str]:
        return list(check_probes(names))

    def setup(self, seed: int, secret: str | None = None) -> GameSetup:
        deal = self.deal
        if isinstance(deal, dict):
            deal = [deal[seat] for seat in sorted(deal)]
        return GameSetup(
            board=self.board,
            roles=tuple(self.roles) if self.roles else None,
            variants=self.variants,
            seed=seed,
            name_pool=tuple(self.name_pool) if self.name_pool is not None else None,
            max_days=self.max_days,
            deal=tuple(deal) if deal else None,
            secret=secret,
        )

    def seating(self, default: PlayerKind) -> Seating:
        return Seating(
            default=self.players.default or default,
            seats=self.players.seats,
            player_seed=self.player_seed,
            decisions=self.decisions,
            draws=self.draws,
            probes=tuple(self.probes),
            agents=self.agents,
        )


def load_game_file(path: Path) -> GameFile:
    data = read_mapping(path, "game file")
    try:
        game_file = GameFile.model_validate(data)
    except ValidationError as err:
        raise settings_error(str(path), err) from None
    if isinstance(game_file.deal, dict):
        seats = game_file.setup(0).build().n_seats
        expected = {f"P{i:02d}" for i in range(1, seats + 1)}
        if set(game_file.deal) != expected:
            raise SettingsError(f"{path}: deal must give a role to each of P01..P{seats:02d}")
    return game_file
