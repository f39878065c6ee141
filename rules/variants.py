"""Rule variants: every table-dependent rule is a typed flag with the rulebook's default."""

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator


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


class SeerResult(StrEnum):
    CAMP = "camp"  # the Seer learns wolf or good (RULES §2)
    ROLE = "role"  # the Seer learns the role itself (Kaggle's Game Arena)


class FirstTurn(StrEnum):
    FIRST_SEAT = "first_seat"  # the lowest living seat goes first
    RANDOM_SEAT = "random_seat"  # clockwise from a seeded random seat, living or dead (Kaggle)


class SpeakingStart(StrEnum):
    AFTER_DEATHS = "after_deaths"  # after the lowest seat who died last night (RULES §6)
    RANDOM_SEAT = "random_seat"  # clockwise from a seeded random seat, every day (Kaggle)


class ExileVoting(StrEnum):
    SIMULTANEOUS = "simultaneous"  # everyone votes at once, ballots published together (§6)
    ROLL_CALL = "roll_call"  # one at a time from a seeded random seat, each ballot public


class ExileTie(StrEnum):
    PK = "pk"  # the tied players speak again and the others revote (RULES §6)
    DRAW = "draw"  # a seeded draw among the tied players is exiled (Kaggle)
    NOBODY = "nobody"  # nobody is exiled


class AllAbstain(StrEnum):
    NOBODY = "nobody"  # nobody is exiled (RULES §6)
    DRAW = "draw"  # a seeded draw among the players who could be voted for is exiled (Kaggle)


class Scoring(StrEnum):
    PLUS_MINUS = "plus_minus"  # winners +1, losers -1
    WIN_ONLY = "win_only"  # winners 1, losers 0 (Kaggle)


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
    discussion_rounds: int = Field(
        1,
        ge=1,
        le=10,
        description="Round robin: how many times each living player speaks a day, in the same "
        "order each round (§6; docs/rules.md).",
    )
    speaking_start: SpeakingStart = Field(
        SpeakingStart.AFTER_DEATHS,
        description="Where a day's speaking order starts when there is no sheriff (§6).",
    )
    seer_result: SeerResult = Field(
        SeerResult.CAMP, description="What the Seer learns of the player she checks (§2)."
    )
    wolves_must_kill: bool = Field(
        False,
        description="The wolves' 'none' is an abstention: it is not counted, and if every wolf "
        "abstains a seeded draw picks the victim (§2; docs/rules.md).",
    )
    wolf_proposal_start: FirstTurn = Field(
        FirstTurn.FIRST_SEAT, description="Which wolf proposes first each night (§2)."
    )
    guard_told_of_save: bool = Field(
        False, description="The Guard is told when his protection stopped the wolves' kill (§2)."
    )
    exile_vote: ExileVoting = Field(
        ExileVoting.SIMULTANEOUS, description="How the exile vote is cast (§6; docs/rules.md)."
    )
    exile_self_vote: bool = Field(False, description="A player may vote to exile himself (§6).")
    exile_tie: ExileTie = Field(ExileTie.PK, description="What a tied exile vote does (§6).")
    exile_all_abstain: AllAbstain = Field(
        AllAbstain.NOBODY, description="What an exile vote in which everyone abstains does (§6)."
    )
    last_words: bool = Field(
        True, description="Night-1 deaths and exiled players give last words (§5)."
    )
    scoring: Scoring = Field(
        Scoring.PLUS_MINUS, description="What each seat scores at the end of the game (§8)."
    )

    @model_validator(mode="after")
    def _roll_call_has_no_pk(self) -> "Variants":
        # A PK revote is a second simultaneous vote among the tied: a roll call is one pass.
        if self.exile_vote is ExileVoting.ROLL_CALL and self.exile_tie is ExileTie.PK:
            raise ValueError("exile_vote roll_call needs exile_tie draw or nobody (no PK revote)")
        return self
