"""What the AEC and parallel environments share: their options, spaces and observations."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces

from autowerewolf.backends.config import PlayerModels
from autowerewolf.players.factory import PlayerBuilder, PlayerFactory, basic_player, load_models
from autowerewolf.players.features import (
    DECISION_STEPS,
    FEATURE_EVENTS,
    ROLES,
    PublicFeatures,
    SeatFacts,
    Standing,
    StandingMarks,
    VoteTally,
    feature_names,
    seat_features,
    standing_marks,
)
from autowerewolf.players.observation import prompted
from autowerewolf.players.seating import PlayerKind, Seating
from autowerewolf.prompts.recall import FactsLedger
from autowerewolf.prompts.render import describe
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.roles import Camp, camp_of
from autowerewolf.rules.state import GameState
from autowerewolf.table import DEFAULT_PENALTY, IllegalMode, Table

RENDER_MODES = ("human", "ansi")
# Longer than any prompt of a 30-day game.
MAX_OBSERVATION_CHARS = 1_000_000
# Action masks kept for reuse, one per set of legal actions.
MAX_MASKS = 4096


class AnyText(spaces.Text):
    """Text of any Unicode characters up to `max_length` (gymnasium's `Text` checks
    membership against a finite character set; a speech may hold any character).
    Samples are drawn from the default alphanumeric set."""

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length


@dataclass(frozen=True)
class EnvOptions:
    """The environments' keyword options (docs/training.md)."""

    board: str = "12-A"
    roles: Sequence[str] | None = None
    variants: Mapping[str, Any] = field(default_factory=dict)
    max_days: int = 30
    secret: str = ""
    agents: str | Sequence[str] = "all"
    opponents: PlayerKind = "random"
    seating: Seating | None = None
    models: PlayerModels | str | Path | None = None
    illegal: IllegalMode = "penalty"
    penalty: float = DEFAULT_PENALTY
    shaping: float = 0.0
    dense: float = 0.0
    text_observations: bool = False
    record_examples: bool = False
    steps: Sequence[str] | None = None
    assist: PlayerKind | Seating | None = None

    @classmethod
    def parse(cls, board: str, options: Mapping[str, Any]) -> "EnvOptions":
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(options) - known)
        if unknown:
            raise TypeError(f"unknown option {unknown[0]!r} (known: {', '.join(sorted(known))})")
        return cls(board=board, **options)

    def player_factory(self) -> PlayerFactory:
        if self.models is None:
            kinds = {self.opponents}
            if self.seating is not None:
                kinds |= {self.seating.default, *self.seating.seats.values()}
            return PlayerBuilder() if "llm" in kinds else basic_player
        models = self.models
        if not isinstance(models, PlayerModels):
            models = load_models(Path(models))
        return PlayerBuilder(models)

    def table(self) -> Table:
        seating = self.seating or Seating(default=self.opponents)
        return Table(
            self.board,
            roles=self.roles,
            variants=self.variants,
            max_days=self.max_days,
            secret=self.secret,
            controlled=self.agents,
            seating=seating,
            players=self.player_factory(),
            illegal=self.illegal,
            penalty=self.penalty,
            shaping=self.shaping,
            record_examples=self.record_examples,
            steps=self.steps,
            assist=Seating(default=self.assist) if isinstance(self.assist, str) else self.assist,
        )

    def slot(self) -> str | None:
        """The agent ids' stem under camp or role control (`wolf`, `seer`), else None."""
        spec = self.agents
        if isinstance(spec, str) and ":" in spec:
            return spec.partition(":")[2]
        return None

    def possible_agents(self, table: Table) -> list[str]:
        """Under camp or role control one id per slot (`wolf_0` ... `wolf_3`), the same in
        every deal; else the seats themselves."""
        stem = self.slot()
        spec = self.agents
        if stem is not None:
            camp = isinstance(spec, str) and spec.startswith("camp:")
            roles = table.config.roles
            n = sum((camp_of(r).value if camp else r.value) == stem for r in roles)
            return [f"{stem}_{i}" for i in range(n)]
        if spec == "all":
            return list(table.seats)
        chosen = {spec} if isinstance(spec, str) else set(spec)
        return [s for s in table.seats if s in chosen]


class AgentIds:
    """The agents' ids and their seats in the current deal: under camp or role control
    slot i is the i-th seat of that camp or role in seat order."""

    def __init__(self, stem: str | None) -> None:
        self.stem = stem
        self.seat_of: dict[str, str] = {}
        self.agent_of: dict[str, str] = {}

    def deal(self, seats: Sequence[str]) -> list[str]:
        ids = [f"{self.stem}_{i}" for i in range(len(seats))] if self.stem else list(seats)
        self.seat_of = dict(zip(ids, seats, strict=True))
        self.agent_of = dict(zip(seats, ids, strict=True))
        return ids


class WerewolfSpaces:
    """One observation space and one action space, shared by every agent."""

    def __init__(self, table: Table, text: bool) -> None:
        self.feature_names = feature_names(table.seats)
        n_features = len(self.feature_names)
        n_actions = len(table.actions.names)
        parts: dict[str, spaces.Space[Any]] = {
            "observation": spaces.Box(0.0, 1.0, (n_features,), np.float32),
            "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
        }
        if text:
            parts["text"] = AnyText(MAX_OBSERVATION_CHARS, min_length=0)
        self.text = text
        self.observation = spaces.Dict(parts)
        self.action = spaces.Discrete(n_actions)
        self.state_names = state_names(table.seats)
        self.state = spaces.Box(0.0, 1.0, (len(self.state_names),), np.float32)


def state_names(seats: Sequence[str]) -> tuple[str, ...]:
    """The global state's layout: the day, the step, then each seat's role and life."""
    per_seat = (*(f"role={r.value}" for r in ROLES), "alive", "sheriff")
    return ("day", *(f"step={s}" for s in DECISION_STEPS),
            *(f"{s}.{f}" for s in seats for f in per_seat))  # fmt: skip


def global_state(game: GameState, step: str | None) -> np.ndarray:
    """The whole game for a centralised critic (never for a policy): every seat's role,
    true life and the sheriff, the day and the pending step."""
    out = np.zeros(len(state_names([s.id for s in game.seats])), np.float32)
    out[0] = min(game.day, 30) / 30
    if step is not None:
        out[1 + DECISION_STEPS.index(step)] = 1.0
    base, width = 1 + len(DECISION_STEPS), len(ROLES) + 2
    for i, seat in enumerate(game.seats):
        row = base + i * width
        out[row + ROLES.index(seat.role)] = 1.0
        out[row + len(ROLES)] = seat.alive
        out[row + len(ROLES) + 1] = seat.id == game.sheriff
    return out


def standing(game: GameState) -> list[Standing]:
    """Each seat's public standing, as `rules.views.public_players` gives it (a test holds
    them equal), without building a view: the environment's observations read it per state."""
    alive = set(game.publicly_alive)
    reveal_dead = game.config.variants.reveal_role_on_death
    return [
        (
            s.id in alive,
            s.id == game.sheriff,
            s.role if s.revealed or (reveal_dead and s.id not in alive) else None,
            not s.idiot_flipped,
        )
        for s in game.seats
    ]


def own_facts(
    game: GameState, seat: str, step: str | None, teammates: tuple[str, ...]
) -> SeatFacts:
    """The seat's own fields of its view (rules.views.seat_view), read from the state."""
    me = game.seat(seat)
    witch, guard = me.role.value == "witch", me.role.value == "guard"
    return SeatFacts(
        seat,
        me.role,
        game.day,
        step,
        teammates,
        (not game.cure_used) if witch else None,
        (not game.poison_used) if witch else None,
        game.last_guarded if guard else None,
    )


class Observer:
    """Observations and infos of the seats, each built from what the seat may know: the
    public facts once per state for every seat (the public events read once), then the
    seat's own (its private events read once each); one observation per seat and state is
    kept, so observing twice costs nothing."""

    def __init__(self, table: Table, spaces_: WerewolfSpaces) -> None:
        self.table = table
        self.spaces = spaces_
        self._kept: dict[str, tuple[GameState, dict[str, Any]]] = {}
        self._masks: dict[tuple[str, ...], np.ndarray] = {}
        self._masks_at: GameState | None = None
        self._masks_now: dict[str, np.ndarray] = {}
        self.forget()

    def forget(self) -> None:
        self._kept = {}
        self._public = FactsLedger()
        self._public_seen = 0
        self._tally = VoteTally()
        self._features: PublicFeatures | None = None
        self._shared = np.zeros(0, np.float32)  # its vector at the state of _shared_at
        self._shared_at: tuple[GameState | None, int] = (None, 0)
        self._standing: list[Standing] = []
        self._standing_of: tuple[Any, ...] = (None, None, None)  # what it was read from
        self._standing_marks: StandingMarks = ([], np.float32(0))
        self._teammates: dict[str, tuple[str, ...]] = {}

    def mask(self, agent: str) -> np.ndarray:
        """The seat's action mask; one read-only array per set of legal actions, built once,
        and each seat's kept for the state (its info and its observation share it)."""
        state = self.table.state  # None before the first game (the spaces' sample mask)
        if self._masks_at is not state:
            self._masks_at, self._masks_now = state, {}
        mask = self._masks_now.get(agent)
        if mask is None:
            mask = self._masks_now[agent] = self._mask_of(agent)
        return mask

    def _mask_of(self, agent: str) -> np.ndarray:
        legal = self.table.legal(agent) if agent in self.table.asked else ()
        mask = self._masks.get(legal)
        if mask is None:
            actions = self.table.actions
            mask = np.zeros(len(actions.names), np.int8)
            mask[actions.indices(legal)] = 1
            mask.flags.writeable = False
            if len(self._masks) >= MAX_MASKS:  # speech menus differ from game to game
                self._masks = {}
            self._masks[legal] = mask
        return mask

    def info(self, agent: str) -> dict[str, Any]:
        table = self.table
        asked = agent in table.asked
        return {
            "action_mask": self.mask(agent),
            "options": table.legal(agent) if asked else (),
            "step": str(table.game.step) if asked else None,
            "key": table.key if asked else None,
            "day": table.game.day,
            "seat": agent,
        }

    def final_info(self, agent: str) -> dict[str, Any]:
        game = self.table.game
        return {
            "winner": game.winner.value if game.winner else None,
            "win_reason": game.win_reason,
            "fallbacks": self.table.fallbacks.get(agent, 0),
            "seat": agent,
        }

    def _public_features(self) -> tuple[PublicFeatures, np.ndarray]:
        """The public features at this state: rebuilt from the ledger when a public event
        they read came, their standing when it changed."""
        table, state = self.table, self.table.game
        events = table.events
        public = self._features
        kept_state, kept_events = self._shared_at
        if public is not None and kept_state is state and kept_events == len(events):
            return public, self._shared
        heard: set[EventKind] = set()
        for event in events[self._public_seen :]:
            if event.audience is Audience.PUBLIC:
                self._public.observe(event)
                heard.add(event.kind)
        self._public_seen = len(events)
        rebuilt = False
        if public is None or not heard.isdisjoint(FEATURE_EVENTS):
            public = PublicFeatures(table.seats, self._public, self._tally, public, heard)
            self._features, rebuilt = public, True
        # The standing reads the seats, the unannounced dead and the sheriff alone; a state
        # copied without changing them shares their objects.
        facts = (state.seats, state.unannounced, state.sheriff)
        if not all(a is b for a, b in zip(facts, self._standing_of, strict=True)):
            now = standing(state)
            self._standing_of = facts
            if now != self._standing:
                self._standing, self._standing_marks = now, standing_marks(now)
                rebuilt = True
        if rebuilt:
            self._shared = public.at_standing(self._standing_marks)
        self._shared_at = (state, len(events))
        return public, self._shared

    def features(self, seat: str) -> np.ndarray:
        table, game = self.table, self.table.game
        teammates = self._teammates.get(seat)
        if teammates is None:
            me = game.seat(seat)
            teammates = tuple(s.id for s in game.seats if me.is_wolf and s.is_wolf and s.id != seat)
            self._teammates[seat] = teammates
        step = str(game.step) if seat in table.asked else None
        facts = own_facts(game, seat, step, teammates)
        public, shared = self._public_features()
        return seat_features(public, shared, table.knowledge(seat), facts)

    def observe(self, agent: str) -> dict[str, Any]:
        state = self.table.game
        kept = self._kept.get(agent)
        if kept is not None and kept[0] is state:
            return kept[1]
        obs: dict[str, Any] = {
            "observation": self.features(agent),
            "action_mask": self.mask(agent),
        }
        if self.spaces.text:
            obs["text"] = prompted(self.table.view(agent)).text
        self._kept[agent] = (state, obs)
        return obs


def vote_rewards(
    game: GameState, events: Sequence[Event], seats: Sequence[str], weight: float
) -> dict[str, float]:
    """The optional dense reward (`dense`): `weight` to a good seat for each exile ballot on
    a wolf, `-weight` for one on a good seat. It tells the seat the camp of whom it voted
    for while the game runs, so it is off by default."""
    out: dict[str, float] = {}
    mine = set(seats)
    for event in events:
        if event.kind is not EventKind.BALLOT or event.value != "exile" or not event.target:
            continue
        voter = event.actor
        if voter in mine and voter is not None and game.seat(voter).camp is Camp.GOOD:
            wolf = game.seat(event.target).camp is Camp.WOLF
            out[voter] = out.get(voter, 0.0) + (weight if wolf else -weight)
    return out


def public_transcript(events: Sequence[Event]) -> list[str]:
    return [f"D{e.day} {describe(e)}" for e in events if e.audience is Audience.PUBLIC]


class TranscriptRenderer:
    """An environment's `render`: the public transcript, all of it ("ansi") or printed as it
    grows ("human"); nothing without a render mode."""

    def __init__(self, mode: str | None) -> None:
        self.mode = mode
        self.shown = 0

    def render(self, events: Sequence[Event]) -> str | None:
        if self.mode is None:
            return None
        lines = public_transcript(events)
        if self.mode == "ansi":
            return "\n".join(lines)
        for line in lines[self.shown :]:
            print(line)
        self.shown = len(lines)
        return None
