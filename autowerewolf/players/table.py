"""Asking the seats of one decision: automatic players concurrently, humans by interrupt."""

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from langgraph.types import interrupt

from autowerewolf.players.base import Answer, DecisionRequest, Player, plain_record
from autowerewolf.players.heuristic import HeuristicPlayer
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import PlayerKind, Seating
from autowerewolf.players.simple import RandomPlayer, ScriptedPlayer, scripted_action
from autowerewolf.rules.decisions import Action, PendingDecision
from autowerewolf.rules.events import Event
from autowerewolf.rules.state import GameState
from autowerewolf.rules.views import seat_view
from autowerewolf.transcript import lines

PlayerFactory = Callable[[str, PlayerKind, Seating, GameState], Player]
HUMAN_TRANSCRIPT_LINES = 40


class UnknownPlayerKind(ValueError):
    pass


def basic_player(seat: str, kind: PlayerKind, seating: Seating, game: GameState) -> Player:
    if kind == "random":
        return RandomPlayer()
    if kind == "scripted":
        return ScriptedPlayer(seating.decisions)
    if kind == "heuristic":
        return HeuristicPlayer()
    raise UnknownPlayerKind(f"seat {seat}: player kind {kind!r} is not available here")


class SeatTable:
    """The live players of one game, built from its Seating."""

    def __init__(self, seating: Seating, factory: PlayerFactory = basic_player) -> None:
        self.seating = seating
        self._factory = factory
        self._players: dict[str, Player] = {}

    def player(self, seat: str, game: GameState) -> Player:
        if seat not in self._players:
            self._players[seat] = self._factory(
                seat, self.seating.kind_of(seat), self.seating, game
            )
        return self._players[seat]

    def answer(
        self, game: GameState, events: Sequence[Event], decision: PendingDecision
    ) -> tuple[dict[str, Action], list[DecisionRecord]]:
        player_seed = (
            game.config.seed if self.seating.player_seed is None else self.seating.player_seed
        )
        requests = {
            seat: DecisionRequest(seat_view(game, events, seat, decision), decision, player_seed)
            for seat in decision.options
        }
        answers = forced_answers(self.seating, requests)
        humans = [s for s in requests if s not in answers and self.seating.kind_of(s) == "human"]
        machines = [s for s in requests if s not in answers and s not in humans]
        if len(machines) > 1:
            with ThreadPoolExecutor(max_workers=len(machines)) as pool:
                done = pool.map(lambda s: self.player(s, game).decide(requests[s]), machines)
                answers.update(zip(machines, done, strict=True))
        else:
            answers.update({s: self.player(s, game).decide(requests[s]) for s in machines})
        if humans:
            answers.update(ask_humans({s: requests[s] for s in humans}))
        ordered = sorted(answers)
        return {s: answers[s].action for s in ordered}, [answers[s].record for s in ordered]


def forced_answers(seating: Seating, requests: dict[str, DecisionRequest]) -> dict[str, Answer]:
    """Answers fixed by a fork's `--set`: they replace whatever the seat would have chosen."""
    answers = {}
    for seat, request in requests.items():
        action = scripted_action(seating.overrides, request)
        if action is not None:
            answers[seat] = Answer(action, plain_record(request, "override", action))
    return answers


def human_prompt(request: DecisionRequest) -> dict[str, Any]:
    view = request.view
    return {
        "seat": view.seat,
        "name": view.name,
        "role": view.role.value,
        "teammates": list(view.teammates),
        "options": list(view.options),
        "transcript": lines(view.events)[-HUMAN_TRANSCRIPT_LINES:],
    }


def parse_human_answer(request: DecisionRequest, raw: object) -> Action:
    """Accepts "P05" or {"option": "speak", "text": "..."}; raises ValueError with the reason."""
    if isinstance(raw, str):
        raw = {"option": raw}
    if not isinstance(raw, dict) or not isinstance(raw.get("option"), str):
        raise ValueError("answer must be an option string or {'option': ..., 'text': ...}")
    option, text = raw["option"].strip(), str(raw.get("text") or "")
    if option not in request.options:
        raise ValueError(f"{option!r} is not legal; choose one of {', '.join(request.options)}")
    return Action(option=option, text=text)


def ask_humans(requests: dict[str, DecisionRequest]) -> dict[str, Answer]:
    """One interrupt for all human seats of a decision; asks again, with the errors, if needed."""
    payload: dict[str, Any] = {
        "key": next(iter(requests.values())).decision.key,
        "step": next(iter(requests.values())).decision.step.value,
        "seats": {s: human_prompt(r) for s, r in requests.items()},
    }
    while True:
        reply = interrupt(payload)
        errors: dict[str, str] = {}
        answers: dict[str, Answer] = {}
        for seat, request in requests.items():
            raw = reply.get(seat) if isinstance(reply, dict) else None
            try:
                action = parse_human_answer(request, raw)
            except ValueError as err:
                errors[seat] = str(err)
                continue
            answers[seat] = Answer(action, plain_record(request, "human", action))
        if not errors:
            return answers
        payload = {**payload, "errors": errors}
