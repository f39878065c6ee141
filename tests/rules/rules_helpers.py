"""A small scripted driver for rules tests.

`Game` wraps the engine: fix the deal with a layout string, answer the pending decision
with a short mapping (unnamed seats get a neutral default), resolve automatic steps, and
keep every event. Layout letters: W werewolf, V villager, S seer, X witch, H hunter,
G guard, I idiot (seat P01 first).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from autowerewolf.rules.config import make_config
from autowerewolf.rules.decisions import Action, PendingDecision
from autowerewolf.rules.engine import apply, is_terminal, new_game, pending_decision
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.flow import enter
from autowerewolf.rules.roles import Role
from autowerewolf.rules.state import Cause, GameState, Step

LETTERS = {
    "W": Role.WEREWOLF,
    "V": Role.VILLAGER,
    "S": Role.SEER,
    "X": Role.WITCH,
    "H": Role.HUNTER,
    "G": Role.GUARD,
    "I": Role.IDIOT,
    "K": Role.KNIGHT,
    "Z": Role.WHITE_WOLF_KING,
}
# Default fixed deals: wolves P01-P04, villagers P05-P08, then the gods.
LAYOUTS = {
    "12-A": "WWWWVVVVSXHG",
    "12-B": "WWWWVVVVSXHI",
    "12-K": "WWWWVVVVSXHK",
    "12-W": "ZWWWVVVVSXHG",
    "9-standard": "WWWVVVSXH",
    "8-arena": "WWVVVVSG",
    "kaggle": "WWVVVVSG",
}
# Neutral answers for seats a test does not name, best first.
DEFAULTS = ("abstain", "pass", "stay", "none", "speak", "clockwise", "tear")
NIGHT = (Step.WOLVES, Step.SEER, Step.WITCH_CURE, Step.WITCH_POISON, Step.GUARD)
SPEECHES = (
    Step.ELECTION_SPEECH,
    Step.ELECTION_PK_SPEECH,
    Step.DISCUSSION,
    Step.EXILE_PK_SPEECH,
    Step.LAST_WORDS,
)


def seat(n: int) -> str:
    return f"P{n:02d}"


class Game:
    def __init__(
        self,
        board: str = "12-A",
        layout: str | None = None,
        *,
        variants: Mapping[str, Any] | None = None,
        roles: Iterable[str] | None = None,
        seed: int = 0,
        max_days: int = 30,
        draws: Mapping[str, str] | None = None,
    ) -> None:
        if layout is None and roles is None:
            layout = LAYOUTS.get(board)
        self.config = make_config(
            board,
            roles=list(roles) if roles is not None else None,
            variants=variants,
            seed=seed,
            max_days=max_days,
            deal=[LETTERS[c] for c in layout] if layout is not None else None,
        )
        state, events = new_game(self.config, draws=draws)
        self.state = state
        self.events: list[Event] = list(events)

    # --- reading -------------------------------------------------------------------
    @property
    def step(self) -> str:
        return self.state.step

    @property
    def pending(self) -> PendingDecision | None:
        return pending_decision(self.state)

    def options(self, seat_id: str) -> tuple[str, ...]:
        pending = self.pending
        assert pending is not None, f"nothing pending at {self.step}"
        return pending.options.get(seat_id, ())

    def alive(self, seat_id: str) -> bool:
        return self.state.seat(seat_id).alive

    def of(self, kind: EventKind, since: int = 0) -> list[Event]:
        return [e for e in self.events[since:] if e.kind is kind]

    def public(self, since: int = 0) -> list[Event]:
        return [e for e in self.events[since:] if e.audience is Audience.PUBLIC]

    def speeches(self, context: str | None = None) -> list[str]:
        return [e.actor for e in self.of(EventKind.SPEECH) if context is None or e.value == context]

    @property
    def over(self) -> bool:
        return is_terminal(self.state)

    def prekill(self, *seats: str) -> Game:
        """Scenario set-up at the start of a night: these seats are already dead (day 0)."""
        assert self.step == Step.WOLVES and not self.state.night.wolf_proposals
        state = self.state
        for s in seats:
            state = state.replace_seat(s, alive=False, death_day=0, death_cause=Cause.EXILE)
        self.state = enter(state, Step.WOLVES, [])
        return self

    # --- acting --------------------------------------------------------------------
    def auto(self) -> Game:
        """Resolve steps that need no answer (dawn, announcements, an explosion)."""
        while not is_terminal(self.state) and pending_decision(self.state) is None:
            self.state, new = apply(self.state, {})
            self.events.extend(new)
        return self

    def answers_for(self, chosen: Mapping[str, str]) -> dict[str, Action]:
        pending = self.pending
        assert pending is not None, f"nothing pending at {self.step}"
        answers = {}
        for seat_id, options in pending.options.items():
            option = chosen.get(seat_id)
            if option is None:
                option = next((o for o in DEFAULTS if o in options), options[0])
            answers[seat_id] = Action(option=option, text=f"{seat_id} says {option}")
        return answers

    def answer(self, chosen: Mapping[str, str] | None = None, **by_seat: str) -> Game:
        """Answer the pending decision (unnamed seats: a neutral default), then auto()."""
        chosen = {**(chosen or {}), **by_seat}
        pending = self.pending
        assert pending is not None, f"nothing pending at {self.step}"
        unknown = set(chosen) - set(pending.options)
        assert not unknown, f"{sorted(unknown)} not asked at {self.step}: {pending.options}"
        self.state, new = apply(self.state, self.answers_for(chosen))
        self.events.extend(new)
        return self.auto()

    def raw(self, answers: Mapping[str, Action]) -> Game:
        self.state, new = apply(self.state, answers)
        self.events.extend(new)
        return self

    def night(
        self,
        kill: str | None = None,
        *,
        seer: str | None = None,
        save: bool = False,
        poison: str | None = None,
        guard: str | None = None,
        proposals: Mapping[str, str] | None = None,
    ) -> Game:
        """Play the night's decisions: every wolf proposes `kill` (or `proposals`)."""
        assert self.step in NIGHT, f"not night: {self.step}"
        while self.step in NIGHT:
            pending = self.pending
            assert pending is not None
            (who,) = pending.options
            if self.step == Step.WOLVES:
                pick = (proposals or {}).get(who, kill or "none")
            elif self.step == Step.SEER:
                pick = seer or pending.options[who][0]
            elif self.step == Step.WITCH_CURE:
                pick = "save" if save else "none"
            elif self.step == Step.WITCH_POISON:
                pick = poison or "none"
            else:
                pick = guard or "none"
            self.answer({who: pick})
        return self

    def no_election(self) -> Game:
        """Everybody passes at sign-up: badge lost."""
        assert self.step == Step.ELECTION_SIGNUP
        return self.answer()

    def elect(self, sheriff: str) -> Game:
        """Only `sheriff` runs: elected unopposed."""
        assert self.step == Step.ELECTION_SIGNUP
        return self.answer({sheriff: "run"})

    def speak_all(self, explode: str | None = None) -> Game:
        """Answer speech steps (and last words, direction, bids: 0 each) until something
        else is pending."""
        while self.step in (*SPEECHES, Step.SHERIFF_DIRECTION, Step.DISCUSSION_BID):
            if self.step == Step.DISCUSSION_BID:
                self.answer()
                continue
            (who,) = self.pending.options
            self.answer({who: "explode" if who == explode else self.options(who)[0]})
            if who == explode:
                break
        return self

    def speakers(self, step: Step) -> list[str]:
        """Each speaker of `step` speaks in turn; returns who spoke, in order."""
        spoke = []
        while self.step == step:
            (who,) = self.pending.options
            spoke.append(who)
            self.answer({who: "speak"})
        return spoke

    def vote(self, ballots: Mapping[str, str] | None = None, **by_seat: str) -> Game:
        if self.step == Step.EXILE_ROLL_CALL:
            return self.roll_call(ballots, **by_seat)
        assert self.step in (Step.EXILE_VOTE, Step.ELECTION_VOTE), self.step
        return self.answer(ballots, **by_seat)

    def roll_call(self, ballots: Mapping[str, str] | None = None, **by_seat: str) -> Game:
        """Answer a roll call voter by voter; unnamed voters abstain."""
        chosen = {**(ballots or {}), **by_seat}
        while self.step == Step.EXILE_ROLL_CALL:
            (who,) = self.pending.options
            self.answer({who: chosen.get(who, "abstain")})
        return self

    def to_vote(self) -> Game:
        """Speak through the discussion (and any last words) to the exile vote."""
        self.speak_all()
        assert self.step in (Step.EXILE_VOTE, Step.EXILE_ROLL_CALL), self.step
        return self

    def exile_by(self, target: str, voters: Iterable[str]) -> Game:
        return self.vote({v: target for v in voters})

    def play_defaults(self, until: Step, limit: int = 500) -> Game:
        """Answer with neutral defaults until `until` is pending."""
        for _ in range(limit):
            if self.step is until or self.over:
                return self
            self.answer()
        raise AssertionError(f"never reached {until}")


# --- information rules (RULES §9) ---------------------------------------------------------

_PRIVATE_KINDS = {
    EventKind.ROLE: None,  # own seat only (checked below)
    EventKind.WOLF_TEAM: Role.WEREWOLF,
    EventKind.WOLF_PROPOSAL: Role.WEREWOLF,
    EventKind.WOLF_TARGET: Role.WEREWOLF,
    EventKind.SEER_RESULT: Role.SEER,
    EventKind.WITCH_INFO: Role.WITCH,
    EventKind.WITCH_CURE: Role.WITCH,
    EventKind.WITCH_POISON: Role.WITCH,
    EventKind.GUARD: Role.GUARD,
}
_NEVER = {EventKind.DEAL, EventKind.DEATH}
_ROLE_REVEALING = {
    EventKind.HUNTER_SHOT,
    EventKind.SELF_EXPLOSION,
    EventKind.IDIOT_FLIP,
    EventKind.DUEL,  # the Knight reveals himself, and the duel tells his opponent's camp
}
_SECRET_VALUES = {r.value for r in Role} | {"wolf", "good"}


def leaks(state: GameState, view: Any) -> list[str]:
    """Everything in `view` (a SeatView) that RULES §9 forbids this seat to know."""
    problems: list[str] = []
    me = state.seat(view.seat)
    reveal_dead = state.config.variants.reveal_role_on_death
    if view.role is not me.role:
        problems.append("wrong own role")
    wolves = {s.id for s in state.seats if s.is_wolf}
    expected_mates = wolves - {me.id} if me.is_wolf else set()
    if set(view.teammates) != expected_mates:
        problems.append(f"teammates {view.teammates}")
    if (view.cure_available is not None or view.poison_available is not None) != (
        me.role is Role.WITCH
    ):
        problems.append("potion availability shown to a non-witch")
    if view.last_guarded is not None and me.role is not Role.GUARD:
        problems.append("last guarded shown to a non-guard")
    alive = set(state.publicly_alive)
    for p in view.players:
        seat_ = state.seat(p.seat)
        if p.alive != (p.seat in alive):
            problems.append(f"{p.seat} alive={p.alive} differs from public knowledge")
        if p.revealed_role is not None:
            public = seat_.revealed or (reveal_dead and p.seat not in alive)
            if not public or p.revealed_role is not seat_.role:
                problems.append(f"{p.seat} role {p.revealed_role} shown but not public")
    for e in view.events:
        where = f"{e.kind.value}@d{e.day}"
        if e.kind in _NEVER or e.audience is Audience.OMNISCIENT:
            problems.append(f"omniscient event {where}")
        elif e.kind is EventKind.ROLE:
            if e.seat != me.id or e.audience is not Audience.SEAT:
                problems.append(f"another seat's role {where}")
        elif e.kind is EventKind.BID:  # a bid is told to its bidder only
            if e.audience is not Audience.SEAT or e.seat != me.id:
                problems.append(f"another seat's {where}")
        elif e.kind in _PRIVATE_KINDS:
            owner = _PRIVATE_KINDS[e.kind]
            # The wolves' events are every wolf's, whichever wolf role he holds.
            wolves_event = owner is Role.WEREWOLF and me.is_wolf
            if me.role is not owner and not wolves_event:
                problems.append(f"private {where} seen by {me.role}")
            if e.audience is Audience.SEAT and e.seat != me.id:
                problems.append(f"another seat's {where}")
        else:
            if e.audience is not Audience.PUBLIC:
                problems.append(f"unexpected private {where}")
            if e.kind in _ROLE_REVEALING:
                if not state.seat(e.actor).revealed:
                    problems.append(f"{where} names an unrevealed role")
            elif e.kind is not EventKind.GAME_OVER and e.value in _SECRET_VALUES:
                problems.append(f"{where} carries {e.value!r}")
            text = e.text or ""
            if e.kind is not EventKind.SPEECH and not reveal_dead:
                for s in state.seats:
                    if f"{s.id}={s.role.value}" in text:
                        problems.append(f"{where} text names {s.id}'s role")
                if "role=" in text:
                    problems.append(f"{where} text names a role")
    pending = pending_decision(state)
    mine = pending.options.get(me.id, ()) if pending is not None else ()
    if tuple(view.options) != tuple(mine):
        problems.append("options differ from the seat's own pending options")
    return problems
