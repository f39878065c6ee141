"""What each seat may know (RULES §9). Every prompt is built from these views only."""

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from autowerewolf.rules.decisions import PendingDecision
from autowerewolf.rules.engine import pending_decision
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.frozen import FrozenModel
from autowerewolf.rules.roles import NIGHT_ROLES, Camp, Role
from autowerewolf.rules.state import GameState
from autowerewolf.rules.variants import DiscussionProtocol, Variants

# What the moderator reveals to everyone once the game is over, as at a real table: the
# deal, every death's cause and each night's actions (not the wolves' talk).
REVEALED_AT_END = frozenset(
    {
        EventKind.DEAL,
        EventKind.DEATH,
        EventKind.WOLF_TARGET,
        EventKind.SEER_RESULT,
        EventKind.WITCH_CURE,
        EventKind.WITCH_POISON,
        EventKind.GUARD,
        EventKind.HUNTER_SHOT,
    }
)


class PlayerInfo(FrozenModel):
    """Public facts about one seat."""

    seat: str
    name: str
    alive: bool
    sheriff: bool
    revealed_role: Role | None  # only when public: Hunter shot, Idiot flip, explosion
    can_vote: bool


class TableRules(BaseModel):
    """The rules every player is told: the board, its roles and the rule flags. Not the seed
    nor the deal."""

    model_config = ConfigDict(frozen=True)

    board: str
    roles: tuple[Role, ...]  # the board's roles, in the board's order (not the seats')
    variants: Variants
    max_days: int


def table_rules(state: GameState) -> TableRules:
    config = state.config
    return TableRules(
        board=config.board, roles=config.roles, variants=config.variants, max_days=config.max_days
    )


class SeatView(BaseModel):
    """Everything one seat may know right now, and nothing else."""

    model_config = ConfigDict(frozen=True)

    seat: str
    name: str
    role: Role
    camp: Camp
    day: int
    rules: TableRules
    step: str | None  # only for a seat that must decide: others must not learn the night's step
    teammates: tuple[str, ...]  # other wolves, for a wolf
    players: tuple[PlayerInfo, ...]
    cure_available: bool | None  # Witch only
    poison_available: bool | None  # Witch only
    last_guarded: str | None  # Guard only
    events: tuple[Event, ...]
    options: tuple[str, ...]  # legal options if this seat must decide now
    decision_key: str | None


# The roles told something at night that no other seat is (a check, the attack, a potion, a
# guard): each such seat's view is its own.
_TOLD_ALONE = frozenset(NIGHT_ROLES) - {Role.WEREWOLF}


def shared_view(view: SeatView) -> str:
    """A key that the seats whose views always hold the same events share: the pack's for a
    wolf (wolves are told the same things), a role's for a role of several seats who are
    told nothing alone (the villagers), else the seat's own (RULES §9). Under bidding each
    bid is told to its bidder alone, so every view is its own."""
    if view.rules.variants.discussion is not DiscussionProtocol.ROUND_ROBIN:
        return view.seat
    # A wolf role dealt once (the White Wolf King) reads its own role's words: its own view.
    if view.camp is Camp.WOLF and view.rules.roles.count(view.role) > 1:
        return "pack"
    if view.role in _TOLD_ALONE or view.rules.roles.count(view.role) == 1:
        return view.seat
    return view.role.value


def public_players(state: GameState) -> tuple[PlayerInfo, ...]:
    alive = set(state.publicly_alive)
    reveal_dead = state.config.variants.reveal_role_on_death
    return tuple(
        PlayerInfo(
            seat=s.id,
            name=s.name,
            alive=s.id in alive,
            sheriff=s.id == state.sheriff,
            revealed_role=s.role if s.revealed or (reveal_dead and s.id not in alive) else None,
            can_vote=not s.idiot_flipped,
        )
        for s in state.seats
    )


def visible_events(events: Iterable[Event], seat_id: str, is_wolf: bool) -> tuple[Event, ...]:
    return tuple(e for e in events if e.visible_to(seat_id, is_wolf))


def public_events(events: Iterable[Event]) -> tuple[Event, ...]:
    return tuple(e for e in events if e.audience is Audience.PUBLIC)


def ending_reveal(
    state: GameState, events: Iterable[Event], seat_id: str | None = None
) -> tuple[Event, ...]:
    """Once the game is over, what the moderator reveals to `seat_id` (None: the public)
    that it had not seen: the deal, the causes of death and the night actions."""
    if not state.is_over:
        return ()
    me = state.seat(seat_id) if seat_id is not None else None
    return tuple(
        e
        for e in events
        if e.kind in REVEALED_AT_END
        and e.audience is not Audience.PUBLIC
        and (me is None or not e.visible_to(me.id, me.is_wolf))
    )


def seat_view(
    state: GameState,
    events: Iterable[Event],
    seat_id: str,
    decision: PendingDecision | None = None,
    players: tuple[PlayerInfo, ...] | None = None,
) -> SeatView:
    """The view of `seat_id`; `decision` defaults to the pending one. `players`: the state's
    `public_players`, when the caller builds the views of several seats at once."""
    me = state.seat(seat_id)
    decision = decision if decision is not None else pending_decision(state)
    # The question this seat is asked now, if any (a probe or the pending decision).
    asked = decision if decision is not None and seat_id in decision.options else None
    is_witch = me.role is Role.WITCH
    return SeatView(
        seat=me.id,
        name=me.name,
        role=me.role,
        camp=me.camp,
        day=state.day,
        rules=table_rules(state),
        step=asked.step if asked else None,
        teammates=tuple(s.id for s in state.seats if me.is_wolf and s.is_wolf and s.id != me.id),
        players=players if players is not None else public_players(state),
        cure_available=(not state.cure_used) if is_witch else None,
        poison_available=(not state.poison_used) if is_witch else None,
        last_guarded=state.last_guarded if me.role is Role.GUARD else None,
        events=visible_events(events, me.id, me.is_wolf),
        options=asked.options[seat_id] if asked else (),
        decision_key=asked.key if asked else None,
    )
