"""Data-only game state. Frozen models: every rule returns a new state, never mutates one.

Class paths and enum values are stored in checkpoints: keep them where they are.
"""

from enum import StrEnum

from pydantic import Field

from autowerewolf.rules.config import GameConfig
from autowerewolf.rules.frozen import Frozen
from autowerewolf.rules.roles import Camp, Role, camp_of, on_wolf_side


class Step(StrEnum):
    """Names of the built-in steps. `GameState.step` holds a step name: what each step is
    (who acts, its options, resolver and successors) is declared once, in `rules/steps.py`."""

    WOLVES = "wolves"
    SEER = "seer"
    WITCH_CURE = "witch_cure"
    WITCH_POISON = "witch_poison"
    GUARD = "guard"
    DAWN = "dawn"
    ELECTION_SIGNUP = "election_signup"
    ELECTION_SPEECH = "election_speech"
    ELECTION_WITHDRAW = "election_withdraw"
    ELECTION_VOTE = "election_vote"
    ELECTION_PK_SPEECH = "election_pk_speech"
    ANNOUNCE = "announce"
    HUNTER_SHOT = "hunter_shot"
    BADGE = "badge"
    LAST_WORDS = "last_words"
    SHERIFF_DIRECTION = "sheriff_direction"
    DISCUSSION = "discussion"
    DISCUSSION_BID = "discussion_bid"
    EXILE_VOTE = "exile_vote"
    EXILE_ROLL_CALL = "exile_roll_call"
    EXILE_PK_SPEECH = "exile_pk_speech"
    SELF_EXPLOSION = "self_explosion"
    DUEL = "duel"
    WOLF_KING_TAKE = "wolf_king_take"
    GAME_OVER = "game_over"


class Cause(StrEnum):
    WOLF_KILL = "wolf_kill"
    POISON = "poison"
    EXILE = "exile"
    SHOT = "shot"
    EXPLOSION = "explosion"
    DUEL = "duel"
    TAKEN = "taken"  # taken along by an exploding White Wolf King


class BadgeStatus(StrEnum):
    UNDECIDED = "undecided"  # election not held yet
    HELD = "held"
    LOST = "lost"
    DISABLED = "disabled"  # board without sheriff


class TaskKind(StrEnum):
    HUNTER_SHOT = "hunter_shot"
    WIN_CHECK = "win_check"
    BADGE = "badge"
    LAST_WORDS = "last_words"


class ChainTask(Frozen):
    """One pending step of a death chain (RULES §7)."""

    kind: TaskKind
    seat: str | None = None


class Seat(Frozen):
    id: str
    name: str
    role: Role
    alive: bool = True
    death_day: int | None = None
    death_cause: Cause | None = None
    revealed: bool = False  # role publicly known
    idiot_flipped: bool = False

    @property
    def camp(self) -> Camp:
        return camp_of(self.role)

    @property
    def is_wolf(self) -> bool:
        return on_wolf_side(self.role)


class Night(Frozen):
    """Tonight's choices; cleared when night falls."""

    wolf_proposals: dict[str, str] = Field(default_factory=dict)
    wolf_target: str | None = None
    seer_target: str | None = None
    cured: bool = False
    poison_target: str | None = None
    guard_target: str | None = None


class Election(Frozen):
    signed_up: tuple[str, ...] = ()  # everyone who ever ran (they never vote)
    candidates: tuple[str, ...] = ()  # still running
    round: int = 1  # 2 = PK
    explosions: int = 0
    postponed: bool = False


class Vote(Frozen):
    """The exile vote of the current day."""

    round: int = 1
    candidates: tuple[str, ...] = ()  # PK: the tied players
    ballots: dict[str, str] = Field(default_factory=dict)  # a roll call's ballots so far


class Discussion(Frozen):
    """The day's discussion under a bidding protocol (RULES §6; docs/rules.md)."""

    order: tuple[str, ...] = ()  # the day's speaking order without the closer: bid ties
    closer: str | None = None  # the sheriff: he does not bid and sums up last (RULES §4)
    turn: int = 0  # discussion speeches given today
    spoken: dict[str, int] = Field(default_factory=dict)  # speeches today, by seat
    named: tuple[str, ...] = ()  # seats named in the last speech: first in bid ties


class GameState(Frozen):
    config: GameConfig
    seats: tuple[Seat, ...]
    ply: int = 0  # steps applied so far: the game's own clock for history and forks
    day: int = 1
    step: str = Step.WOLVES
    night: Night = Night()
    cure_used: bool = False
    poison_used: bool = False
    last_guarded: str | None = None
    unannounced: tuple[str, ...] = ()  # died at dawn, not yet announced: still publicly alive
    dawn_deaths: tuple[str, ...] = ()  # announced deaths of the last dawn (speaking order)
    sheriff: str | None = None
    badge: BadgeStatus = BadgeStatus.UNDECIDED
    election: Election = Election()
    vote: Vote = Vote()
    discussion: Discussion = Discussion()
    speakers: tuple[str, ...] = ()  # queue of the current sequential step
    chain: tuple[ChainTask, ...] = ()
    after_chain: str = Step.DISCUSSION  # where the day goes once the death chain is done
    day_cancelled: bool = False
    exploder: str | None = None
    # The discussion speakers still due when a Knight lost his duel: the day resumes with
    # them once his death chain is done (docs/rules.md, "Knight").
    interrupted: tuple[str, ...] | None = None
    winner: Camp | None = None
    win_reason: str | None = None
    # Outcomes of the moderator's draws fixed by a script, by draw key (docs/scripts.md);
    # every other draw is seeded. Never part of any seat's view.
    draws: dict[str, str] = Field(default_factory=dict)

    def seat(self, seat_id: str) -> Seat:
        return self.seats[int(seat_id[1:]) - 1]

    @property
    def living(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.seats if s.alive)

    @property
    def publicly_alive(self) -> tuple[str, ...]:
        """Alive as far as the players know: the night's dead count until announced."""
        return tuple(s.id for s in self.seats if s.alive or s.id in self.unannounced)

    @property
    def is_over(self) -> bool:
        return self.step == Step.GAME_OVER

    def replace_seat(self, seat_id: str, **changes: object) -> "GameState":
        index = int(seat_id[1:]) - 1
        seats = list(self.seats)
        seats[index] = seats[index].model_copy(update=changes)
        return self.model_copy(update={"seats": tuple(seats)})
