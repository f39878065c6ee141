"""Typed events. Each carries its audience; views filter on it. Stored in checkpoints."""

from enum import StrEnum

from autowerewolf.rules.frozen import Frozen


class Audience(StrEnum):
    PUBLIC = "public"
    WOLVES = "wolves"
    OMNISCIENT = "omniscient"  # moderator/log only
    SEAT = "seat"  # one seat: `Event.seat`


class EventKind(StrEnum):
    GAME_START = "game_start"
    ROLE = "role"  # your role (seat)
    WOLF_TEAM = "wolf_team"  # your teammates (wolves)
    DEAL = "deal"  # the full role map (omniscient)
    NIGHT_START = "night_start"
    WOLF_PROPOSAL = "wolf_proposal"
    WOLF_TARGET = "wolf_target"
    SEER_RESULT = "seer_result"
    WITCH_INFO = "witch_info"
    WITCH_CURE = "witch_cure"
    WITCH_POISON = "witch_poison"
    GUARD = "guard"
    DEATH = "death"  # a death with its cause (omniscient)
    DAY_START = "day_start"
    SIGNUP = "signup"
    SPEECH = "speech"
    BID = "bid"  # a bid to speak next (the bidder only)
    WITHDRAW = "withdraw"
    BALLOT = "ballot"
    VOTE_RESULT = "vote_result"
    SHERIFF = "sheriff"  # elected, passed, lost, postponed
    DEATHS_ANNOUNCED = "deaths_announced"
    DIRECTION = "direction"
    HUNTER_SHOT = "hunter_shot"
    SELF_EXPLOSION = "self_explosion"
    DUEL = "duel"  # the Knight duels a seat: value wolf or good
    WOLF_KING_TAKE = "wolf_king_take"  # an exploding White Wolf King takes a seat along
    IDIOT_FLIP = "idiot_flip"
    EXILE = "exile"
    GAME_OVER = "game_over"


class Event(Frozen):
    """One thing that happened. Flat on purpose: cheap to store, easy to filter and query."""

    kind: EventKind
    day: int
    phase: str
    audience: Audience
    seat: str | None = None  # the one seat for Audience.SEAT
    actor: str | None = None
    target: str | None = None
    targets: tuple[str, ...] = ()
    value: str | None = None
    text: str | None = None
    weight: float | None = None
    round: int | None = None  # ballots and vote results: 1, or 2 for a PK revote

    def visible_to(self, seat: str, is_wolf: bool) -> bool:
        if self.audience is Audience.PUBLIC:
            return True
        if self.audience is Audience.WOLVES:
            return is_wolf
        if self.audience is Audience.SEAT:
            return self.seat == seat
        return False
