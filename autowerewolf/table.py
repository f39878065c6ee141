"""A game driven for a trainer, without the graph: the table under the training
environments (`autowerewolf.env`, the verifiers environment).

The trainer controls some seats (all, a camp, a role or a list of seats); every other seat
is a player of the project (random, heuristic, scripted, an LLM from a models file, a
plug-in or an agent across a process boundary), asked with a `DecisionRequest` exactly as
the graph asks it. The table runs the rules engine until a controlled seat must decide,
collects the controlled seats' answers (a simultaneous step waits for all of them) and
applies them with the others'. Opponents never see the trainer's answers to the same step.

An illegal action is, by choice, an error (`IllegalAction`, one line) or a penalty: a
seeded random legal answer is played in its place and counted. Rewards are the rules'
team returns plus an optional shaping term paid at the end of the game only, so that no
reward tells a seat anything hidden while the game runs (trainer_seats.py: which seats the
trainer plays, and their rewards).
"""

import functools
import os
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from autowerewolf.players.asker import Moment, bounded
from autowerewolf.players.base import Player
from autowerewolf.players.factory import PlayerFactory, basic_player
from autowerewolf.players.features import DECISION_STEPS, SeatKnowledge
from autowerewolf.players.observation import (
    Actions,
    prompted,
    speech_menu,
    speech_text,
    whisper_action,
    whisper_menu,
)
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import MAX_SEED, GameConfig, make_config
from autowerewolf.rules.decisions import (
    MAX_TEXT_CHARS,
    Action,
    IllegalAction,
    Option,
    PendingDecision,
)
from autowerewolf.rules.engine import apply, is_terminal, new_game, play_out
from autowerewolf.rules.events import Audience, Event
from autowerewolf.rules.random_play import random_action
from autowerewolf.rules.rng import seat_seed
from autowerewolf.rules.state import GameState
from autowerewolf.rules.step_spec import TextKind
from autowerewolf.rules.steps import takes_text
from autowerewolf.rules.views import SeatView, seat_view
from autowerewolf.trainer_seats import Controlled, check_controlled, controlled_seats, end_rewards

IllegalMode = Literal["penalty", "error"]
DEFAULT_PENALTY = 0.1


def silent_text(seat: str) -> str:
    """A speech for an answer that brings none (the random player's)."""
    return f"{seat} has nothing to add."


class Table:
    """One game at a time; `reset(seed)` deals a new one."""

    def __init__(
        self,
        board: str = "12-A",
        *,
        roles: Sequence[str] | None = None,
        variants: Mapping[str, Any] | None = None,
        max_days: int = 30,
        secret: str = "",
        controlled: Controlled = "all",
        seating: Seating | None = None,
        players: PlayerFactory = basic_player,
        illegal: IllegalMode = "penalty",
        penalty: float = DEFAULT_PENALTY,
        shaping: float = 0.0,
        record_examples: bool = False,
        steps: Sequence[str] | None = None,
        assist: Seating | None = None,
    ) -> None:
        if illegal not in ("penalty", "error"):
            raise ValueError(f"illegal must be 'penalty' or 'error', not {illegal!r}")
        self._make = functools.partial(
            make_config,
            board,
            roles=roles,
            variants=dict(variants or {}),
            max_days=max_days,
            secret=secret,
        )
        config = self._config(0)  # a bad board or flag fails here, before any game
        self.seats: tuple[str, ...] = tuple(f"P{i + 1:02d}" for i in range(config.n_seats))
        self.controlled_spec = controlled
        check_controlled(controlled, self.seats)
        self.seating = seating or Seating(default="random")
        if "human" in (self.seating.default, *self.seating.seats.values()):
            raise ValueError("a training table has no human seats")
        self.players = players
        # The steps the trainer answers for its seats (None: every step); at the others its
        # seats are answered by `assist`'s players (default: the opponents' seating).
        self.steps = frozenset(steps) if steps is not None else None
        unknown_steps = sorted((self.steps or frozenset()) - set(DECISION_STEPS))
        if unknown_steps:
            raise ValueError(f"unknown step {unknown_steps[0]!r} ({', '.join(DECISION_STEPS)})")
        self.assist = assist or self.seating
        self.illegal: IllegalMode = illegal
        self.penalty = penalty
        self.shaping = shaping
        self.record_examples = record_examples
        # The trainer's decisions with what the seat was shown (record_examples only).
        self.examples: list[tuple[DecisionRecord, list[dict[str, str]], SeatView]] = []
        self.actions = Actions(self.seats)
        self.config: GameConfig = config
        self.state: GameState | None = None
        self.events: list[Event] = []
        self.controlled: tuple[str, ...] = ()
        self._controlled: frozenset[str] = frozenset()
        self.asked: dict[str, tuple[str, ...]] = {}  # controlled seats asked now
        self._legal: dict[str, tuple[str, ...]] = {}  # their legal action names, built once
        self._known: dict[str, SeatKnowledge] = {}  # what each seat saw, read incrementally
        self._private: list[Event] = []  # the events that are not public
        self._sorted = 0  # events sorted into _private so far
        self._living: list[str] | None = None  # the publicly living seats of the pending step
        self._roles: list[str] = []  # the board's roles, for the speech menu
        self._wolves: dict[str, bool] = {}  # each seat of the deal: is it a wolf
        self.key: str | None = None  # the pending decision's key
        self._decision: PendingDecision | None = None
        self._text: TextKind | None = None  # the text the pending step takes
        self._plain: dict[str, Action] = {}  # answers without text, built once
        self._answers: dict[str, Action] = {}
        self._opponents: dict[str, Player] = {}
        self._seeds: dict[str, int] = {}
        self._history: dict[str, list[DecisionRecord]] = {}
        self.fallbacks: dict[str, int] = {}  # illegal actions replaced, per seat
        self.decisions = 0  # controlled seats' answers this game

    def _config(self, seed: int) -> GameConfig:
        return self._make(seed=seed)

    # --- a game -------------------------------------------------------------------

    def reset(self, seed: int | None = None) -> None:
        self.close_players()
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "big") & MAX_SEED
        self.config = self._config(seed)
        self.state, events = new_game(self.config)
        self.events = list(events)
        root = self.config.player_root(self.seating.player_seed)
        self._seeds = {s: seat_seed(root, s) for s in self.seats}
        self._history = {}
        self._known = {}
        self._private, self._sorted = [], 0
        self._wolves = {s.id: s.is_wolf for s in self.state.seats}
        self._roles = list(dict.fromkeys(r.value for r in self.config.roles))
        self.controlled = controlled_seats(self.controlled_spec, self.state, self.seats)
        self._controlled = frozenset(self.controlled)
        self.fallbacks = dict.fromkeys(self.controlled, 0)
        self.decisions = 0
        self.examples = []
        self._run()

    @property
    def over(self) -> bool:
        return self.state is None or is_terminal(self.state)

    @property
    def game(self) -> GameState:
        if self.state is None:
            raise RuntimeError("reset the table first")
        return self.state

    def seed_of(self, seat: str) -> int:
        return self._seeds[seat]

    def view(self, seat: str, with_events: bool = True) -> SeatView:
        """What `seat` may know now, with its question if it is asked (RULES §9); without
        its events for an observer that reads them one by one."""
        events = self.events if with_events else ()
        decision = self._decision if self.asked else None
        return seat_view(self.game, events, seat, decision)

    def _run(self) -> None:
        """Play the engine and the opponents until a controlled seat is asked or the game
        ends (rules/engine.py `play_out`)."""

        def answer(
            state: GameState, events: Sequence[Event], decision: PendingDecision
        ) -> dict[str, Action] | None:
            trained = self.steps is None or decision.step in self.steps
            answers = {
                seat: self._opponent_answer(state, seat, decision)
                for seat in decision.options
                if seat not in self._controlled or not trained
            }
            asked = {s: o for s, o in decision.options.items() if s in self._controlled}
            if not trained:
                return answers
            if not asked:
                return answers
            self.asked, self._answers, self._legal, self._living = asked, answers, {}, None
            self.key, self._decision = decision.key, decision
            self._text = takes_text(decision.step)
            return None

        self.state, pending = play_out(self.game, self.events, answer)
        if pending is None:
            self.asked, self._answers, self.key = {}, {}, None

    def _opponent_answer(self, state: GameState, seat: str, decision: PendingDecision) -> Action:
        """An opponent's answer, asked as the graph asks it (players/asker.py)."""
        options = decision.options[seat]
        seating = self.assist if seat in self._controlled else self.seating
        kind = seating.kind_of(seat)
        if kind == "random":  # what RandomPlayer.decide answers, without building the view
            return random_action(self._seeds[seat], decision.key, options, seat)
        history = self._history.setdefault(seat, [])
        moment = Moment("", state, self.events, history, seating)
        request = moment.request(seat, decision)
        player = self._opponents.get(seat)
        if player is None:
            player = self.players(seat, kind, seating, request.view)
            self._opponents[seat] = player
        answer = bounded(player.decide(request))
        history += [answer.record, *answer.notes]
        return answer.action

    # --- the trainer's answers -------------------------------------------------------

    def knowledge(self, seat: str) -> SeatKnowledge:
        """What `seat` noted from the events told to it alone or to its pack (its checks,
        cures, the attack it was told), each read once; the public events are everyone's
        (the observer reads them once for all seats)."""
        known = self._known.get(seat)
        if known is None:
            known = self._known[seat] = SeatKnowledge(seat)
        private = self._private_events()
        if known.seen < len(private):
            is_wolf = self._wolves[seat]
            known.observe(e for e in private[known.seen :] if e.visible_to(seat, is_wolf))
            known.seen = len(private)
        return known

    def _private_events(self) -> list[Event]:
        """The game's events that are not public, in order, each sorted out once."""
        events, private = self.events, self._private
        if self._sorted < len(events):
            private += (e for e in events[self._sorted :] if e.audience is not Audience.PUBLIC)
            self._sorted = len(events)
        return private

    def legal(self, seat: str) -> tuple[str, ...]:
        """The action names legal for `seat` now: its options, and at a speech the speech
        acts of the structured speakers' menu, at a wolf's proposal the whispers."""
        legal = self._legal.get(seat)
        if legal is not None:
            return legal
        options = self.asked.get(seat, ())
        legal = options
        if self._text == "speech" and Option.SPEAK in options:
            game = self.game
            if self._living is None:
                alive = set(game.publicly_alive)
                self._living = [s for s in self.seats if s in alive]
            role = game.seat(seat).role
            menu = speech_menu(seat, role, self._living, self._roles, self.knowledge(seat))
            legal = (*options, *menu)
        elif self._text == "message":
            legal = (*options, *whisper_menu(options))
        self._legal[seat] = legal
        return legal

    def to_action(self, seat: str, action: object) -> tuple[Action, str | None]:
        """The trainer's action for `seat` as the engine's, and what was wrong with it (None
        if it was legal). Accepted: an action index, an option name, a pair (option, text)
        or a mapping {"option": ..., "text": ...}."""
        options = self.legal(seat)
        option, text = action, ""
        if isinstance(action, Mapping):
            option, text = action.get("option"), action.get("text", "")
        elif isinstance(action, tuple | list) and len(action) == 2:
            option, text = action
        name = option if isinstance(option, str) else self._action_name(option)
        problem = None
        if not isinstance(text, str):
            problem, text = f"text must be a string, not {type(text).__name__}", ""
        elif option is None:
            problem = f"{seat} at {self.key}: no action (legal: {', '.join(options)})"
        elif name not in options:
            shown = name if name is not None else repr(option)
            problem = f"{seat} at {self.key}: {shown} is not legal (legal: {', '.join(options)})"
        if problem is not None:
            engine_options = self.asked.get(seat, ())
            return random_action(self._seeds[seat], self.key or "", engine_options, seat), problem
        assert name is not None
        said = speech_text(name, seat)
        if said is not None:
            return Action(option=Option.SPEAK, text=said), None
        whisper = whisper_action(name)
        if whisper is not None:
            return Action(option=whisper[0], text=whisper[1]), None
        if self._text is None:
            plain = self._plain.get(name)
            if plain is None:
                plain = self._plain[name] = Action(option=name)
            return plain, None
        if not text.strip() and name == Option.SPEAK:
            text = silent_text(seat)
        return Action(option=name, text=text[:MAX_TEXT_CHARS]), None

    def _action_name(self, option: object) -> str | None:
        """The name of an action index (any integer type), None if it is not one."""
        try:
            index = int(option)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            return None
        names = self.actions.names
        return names[index] if 0 <= index < len(names) and index == option else None

    def answer(self, seat: str, action: object) -> float:
        """Take `seat`'s answer to the pending decision; returns the penalty it earned (0
        for a legal one). With illegal="error" an illegal answer raises IllegalAction."""
        if seat not in self.asked:
            raise IllegalAction(f"{seat} is not asked anything now")
        chosen, problem = self.to_action(seat, action)
        self._answers[seat] = chosen
        self.decisions += 1
        if self.record_examples:
            self._keep_example(seat, chosen, problem)
        if problem is None:
            return 0.0
        if self.illegal == "error":
            raise IllegalAction(problem)
        self.fallbacks[seat] += 1
        return -self.penalty

    def _keep_example(self, seat: str, chosen: Action, problem: str | None) -> None:
        view = self.view(seat)
        record = DecisionRecord(
            seat=seat,
            player="env",
            day=view.day,
            step=str(self.game.step),
            key=self.key or "",
            options=self.asked[seat],
            option=chosen.option,
            text=chosen.text,
            valid=problem is None,
            fallback=problem is not None,
            error=problem,
        )
        self.examples.append((record, prompted(view).messages(), view))

    def chat_examples(self, game_id: str) -> list[dict[str, Any]]:
        """The finished game's trainer decisions as `export --format chat` lines (docs/
        evaluation.md, "Chat trajectories"), their index the decision's place in the game."""
        from autowerewolf.evaluation.export.chat import chat_example

        if not self.over:
            raise RuntimeError("the game is not over")
        return [
            chat_example(game_id, self.game, i, record, view, sent)
            for i, (record, sent, view) in enumerate(self.examples)
        ]

    @property
    def ready(self) -> bool:
        """Every asked controlled seat has answered."""
        return all(seat in self._answers for seat in self.asked)

    def advance(self) -> list[Event]:
        """Apply the pending decision's answers and play on; returns the new events."""
        if not self.ready:
            missing = ", ".join(s for s in self.asked if s not in self._answers)
            raise IllegalAction(f"{self.key}: waiting for {missing}")
        start = len(self.events)
        self.state, new = apply(self.game, self._answers, self._decision)
        self.events.extend(new)
        self._run()
        return self.events[start:]

    # --- the outcome ---------------------------------------------------------------

    def rewards(self) -> dict[str, float]:
        """Each controlled seat's reward at the end of the game (trainer_seats.end_rewards)."""
        return end_rewards(self.game, self.controlled, self.shaping)

    def close_players(self) -> None:
        """Close the opponents' players that hold resources (agent processes)."""
        for player in self._opponents.values():
            close = getattr(player, "close", None)
            if callable(close):
                close()
        self._opponents = {}
