"""Rule variants: every table-dependent rule is a typed flag with the rulebook's default."""

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field


class WinMode(StrEnum):
    SIDE = "side"  # wolves win when all villagers or all gods are dead
    CITY = "city"  # wolves win when every good player is dead
    PARITY = "parity"  # wolves win when living wolves >= living good (Werewolf Arena)


class BadgeSwallow(StrEnum):
    SINGLE = "single"  # an explosion during the election loses the badge
    DOUBLE = "double"  # the first postpones the election to Day 2, a second loses it


class DiscussionProtocol(StrEnum):
    ROUND_ROBIN = "round_robin"  # each living player speaks once, in the speaking order
    BIDDING = "bidding"  # before each speech the players bid 0-4; the highest speaks (Arena)
    BID_ONCE = "bid_once"  # one bid per player per day fixes the day's speaking order


class Variants(BaseModel):
    """Flags a table may change. Defaults are the rulebook's [D] choices (RULES.md)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    allow_wolf_self_knife: bool = Field(True, description="Wolves may target a wolf (§2).")
    witch_can_self_heal_n1: bool = Field(
        False, description="The Witch may cure herself, on Night 1 only (§2)."
    )
    witch_both_potions_one_night: bool = Field(
        False, description="The Witch may use cure and poison in the same night (§2)."
    )
    guard_can_self_guard: bool = Field(True, description="The Guard may protect himself (§2).")
    guard_no_repeat: bool = Field(
        True, description="The Guard may not protect the same player two nights running (§2)."
    )
    same_guard_same_save_kills: bool = Field(
        True, description="A target both guarded and cured dies (§2)."
    )
    sheriff_enabled: bool = Field(True, description="Day-1 sheriff election and badge (§3).")
    sheriff_vote_weight: float = Field(
        1.5,
        gt=0,
        le=10,
        allow_inf_nan=False,
        description="Weight of the sheriff's exile ballot (§4).",
    )
    badge_swallow: BadgeSwallow = Field(
        BadgeSwallow.SINGLE, description="Effect of a self-explosion during the election (§3)."
    )
    exile_needs_majority: bool = Field(
        False, description="Exile only with more than half of the weighted votes cast (§6)."
    )
    allow_wolf_self_explode: bool = Field(
        True, description="A wolf may self-explode during a daytime speaking step (§6)."
    )
    hunter_can_shoot_if_poisoned: bool = Field(
        False, description="A poisoned Hunter may still shoot (§7)."
    )
    idiot_flip_keeps_badge: bool = Field(
        False, description="A sheriff Idiot who flips keeps the badge (§4)."
    )
    reveal_role_on_death: bool = Field(
        False, description="Announce the role of every dead player (§1)."
    )
    win_mode: WinMode = Field(WinMode.SIDE, description="Wolves' win condition (§8).")
    discussion: DiscussionProtocol = Field(
        DiscussionProtocol.ROUND_ROBIN,
        description="How the day's discussion picks its speakers (§6; docs/rules.md).",
    )
    discussion_turns: int | None = Field(
        None,
        ge=1,
        le=100,
        description="Discussion speeches per day under bidding or bid_once, the sheriff's "
        "summary included; default: the number of living players.",
    )
    speech_cap: int = Field(
        2, ge=1, le=100, description="Most discussion speeches a player gives per day (bidding)."
    )
