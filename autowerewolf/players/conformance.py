"""A conformance check for players and agent designs, in the spirit of PettingZoo's
`api_test` and OpenSpiel's `random_sim_test`: `check_player(factory)` seats the player
under test at half the table (the other half plays seeded random) on every board, under
every discussion protocol and both exile votes, and asks it every decision the game reaches,
as the game asks it (players/base.py), until it has been asked every kind of decision each
table has, or the games run out. It reports what it got wrong:

* `exception`: `decide` raised;
* `answer`: what came back is not an `Answer` of an `Action` and `DecisionRecord`s;
* `illegal`: the option is not one of the request's options, or the text is too long;
* `record`: the record does not describe this answer (seat, key, step, option, purpose), or
  a note is not the seat's own;
* `slow`: one decision took longer than `time_limit_s`;
* `reads_state`: the player reached for what its request does not hand it: the rules'
  engine, views or the game's store, runner and graph, or the interpreter's frames and
  object graph, where a running game's state lives (calls made by the player's own code,
  not by libraries such as pydantic that inspect frames for their own reasons).

A wrong answer is replaced by a seeded random legal one, so the game goes on and the rest
of the player is checked too. docs/agents.md ("Checking a design") shows its use.
"""

import sys
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from functools import cache
from types import FrameType
from typing import Any

from autowerewolf.players.asker import Moment
from autowerewolf.players.base import Answer, DecisionRequest, Player
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import BOARDS, GameConfig, make_config
from autowerewolf.rules.decisions import MAX_TEXT_CHARS, Action, PendingDecision
from autowerewolf.rules.engine import Answerer, new_game, play_out
from autowerewolf.rules.events import Event
from autowerewolf.rules.random_play import random_action, random_answers
from autowerewolf.rules.state import GameState
from autowerewolf.rules.steps import STEPS

# The tables a design is checked at: every discussion protocol, both exile votes.
TABLES: tuple[dict[str, str], ...] = (
    {"discussion": "round_robin"},
    {"discussion": "bidding"},
    {"discussion": "bid_once"},
    {"exile_vote": "roll_call", "exile_tie": "draw"},
)
# What a player has no business calling: the game's engine and storage, which hold the
# state its request leaves out, and the interpreter's ways into other frames and objects.
FORBIDDEN_MODULES = (
    "autowerewolf.rules.engine",
    "autowerewolf.rules.views",
    "autowerewolf.runner",
    "autowerewolf.store",
    "autowerewolf.storage",
    "autowerewolf.graph",
    "autowerewolf.nodes",
    "autowerewolf.web",
    "langgraph",
)
FORBIDDEN_BUILTINS = frozenset(
    {"_getframe", "_current_frames", "get_objects", "get_referrers", "get_referents"}
)
FORBIDDEN_FUNCTIONS = frozenset({"currentframe", "stack", "getouterframes", "walk_stack"})
# Libraries that look at frames for their own reasons (pydantic resolving annotations,
# logging finding its caller...): only a call from elsewhere is the player's.
TRUSTED_CALLERS = (
    "pydantic", "typing", "typing_extensions", "langchain", "langsmith", "openai", "httpx",
    "inspect", "dataclasses", "enum", "abc", "functools", "logging", "warnings", "traceback",
    "collections", "threading", "concurrent", "asyncio", "tenacity", "importlib", "copy",
    "tiktoken", "numpy", "scipy", "bm25s", "json", "re", "uuid",
)  # fmt: skip

PlayerFactory = Callable[[str], Player]  # the player of one seat, built for a new game
EXPECTED_FROM_GAMES = 12  # random games that tell which steps a table reaches


@dataclass(frozen=True)
class Problem:
    kind: str  # exception, answer, illegal, record, slow, reads_state
    table: str  # board and flags
    key: str  # the decision
    seat: str
    detail: str

    def __str__(self) -> str:
        return f"{self.kind} at {self.key} ({self.table}, {self.seat}): {self.detail}"


@dataclass
class Report:
    """What `check_player` found: problems, and how much of the game it covered."""

    problems: list[Problem] = field(default_factory=list)
    asked: Counter[str] = field(default_factory=Counter)  # decisions asked, by step
    uncovered: dict[str, tuple[str, ...]] = field(default_factory=dict)  # table -> steps
    games: int = 0
    slowest_s: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.problems

    def kinds(self) -> set[str]:
        return {p.kind for p in self.problems}

    def __str__(self) -> str:
        lines = [
            f"{sum(self.asked.values())} decisions of {len(self.asked)} kinds in "
            f"{self.games} games; slowest {self.slowest_s:.3f} s; "
            f"{len(self.problems)} problems"
        ]
        by_kind = Counter(p.kind for p in self.problems)
        lines += [f"  {kind}: {n}, first: {self._first(kind)}" for kind, n in by_kind.items()]
        lines += [
            f"  never asked at {table}: {', '.join(steps)}"
            for table, steps in self.uncovered.items()
            if steps
        ]
        return "\n".join(lines)

    def _first(self, kind: str) -> Problem:
        return next(p for p in self.problems if p.kind == kind)


class _Watch:
    """Records what the player under test reaches for while it decides (this thread only)."""

    def __init__(self) -> None:
        self.local = threading.local()

    def _reached(self) -> list[str] | None:
        found: list[str] | None = getattr(self.local, "reached", None)
        return found

    def _profile(self, frame: FrameType, event: str, arg: Any) -> None:
        reached = self._reached()
        if reached is None or event not in ("call", "c_call"):
            return
        # c_call: `frame` is the caller's; call: `frame` is the callee's.
        caller = frame if event == "c_call" else frame.f_back
        caller_module = caller.f_globals.get("__name__", "") if caller is not None else ""
        if caller_module.startswith((*FORBIDDEN_MODULES, *TRUSTED_CALLERS)):
            return
        if event == "c_call":
            if getattr(arg, "__name__", "") in FORBIDDEN_BUILTINS:
                reached.append(f"{getattr(arg, '__module__', None) or 'sys'}.{arg.__name__}")
            return
        module = frame.f_globals.get("__name__", "")
        name = frame.f_code.co_name
        if module.startswith(FORBIDDEN_MODULES) or (
            module in ("inspect", "traceback") and name in FORBIDDEN_FUNCTIONS
        ):
            reached.append(f"{module}.{name}")

    @contextmanager
    def watching(self) -> Iterator[list[str]]:
        reached: list[str] = []
        self.local.reached = reached
        previous = sys.getprofile()
        sys.setprofile(self._profile)
        try:
            yield reached
        finally:
            sys.setprofile(previous)
            self.local.reached = None


def _table_name(board: str, flags: Mapping[str, str]) -> str:
    return board + "".join(f" {k}={v}" for k, v in flags.items())


@dataclass
class _Game:
    """One game of the check: the agent's seats and everyone's records so far."""

    config: GameConfig
    state: GameState
    events: list[Event]
    agents: dict[str, Player]
    records: list[DecisionRecord] = field(default_factory=list)

    def request(self, seat: str, decision: PendingDecision) -> DecisionRequest:
        """The seat's question, built as every table builds it (players/asker.py)."""
        return Moment("", self.state, self.events, self.records, Seating()).request(seat, decision)


def _record_problems(request: DecisionRequest, answer: Answer) -> list[str]:
    record, action = answer.record, answer.action
    found = []
    expected = {"seat": request.seat, "key": request.key, "step": request.step}
    for name, value in expected.items():
        if getattr(record, name) != value:
            found.append(f"record.{name} is {getattr(record, name)!r}, not {value!r}")
    if record.option != action.option:
        found.append(f"record.option {record.option!r} is not the answer's {action.option!r}")
    if record.purpose != "decision":
        found.append(f"record.purpose is {record.purpose!r}, not 'decision'")
    for note in answer.notes:
        if not isinstance(note, DecisionRecord) or note.seat != request.seat:
            found.append(f"a note that is not the seat's own record: {note!r:.80}")
        elif note.purpose != "note":
            found.append(f"a note with purpose {note.purpose!r}, not 'note'")
    return found


def _answer_problems(request: DecisionRequest, answer: object) -> tuple[str, list[str]]:
    """(kind, details) of what is wrong with `answer`; no details if nothing is."""
    if not isinstance(answer, Answer) or not isinstance(answer.action, Action):
        return "answer", [f"returned {type(answer).__name__}, not an Answer of an Action"]
    if not isinstance(answer.record, DecisionRecord):
        return "answer", [f"its record is a {type(answer.record).__name__}"]
    action = answer.action
    if action.option not in request.options:
        legal = ", ".join(request.options)
        return "illegal", [f"chose {action.option!r}; legal: {legal}"]
    if len(action.text) > MAX_TEXT_CHARS:
        return "illegal", [f"text of {len(action.text)} characters; at most {MAX_TEXT_CHARS}"]
    return "record", _record_problems(request, answer)


class _Checker:
    def __init__(
        self, factory: PlayerFactory, time_limit_s: float, report: Report, watch: bool
    ) -> None:
        self.factory, self.time_limit_s, self.report = factory, time_limit_s, report
        self.watch = _Watch() if watch else None

    def ask(self, game: _Game, table: str, seat: str, decision: PendingDecision) -> Action:
        """The agent's answer, checked; a seeded random legal one in place of a wrong one."""
        request = game.request(seat, decision)
        fallback = random_action(request.seed, request.key, request.options, seat)
        self.report.asked[decision.step] += 1

        def problem(kind: str, detail: str) -> None:
            self.report.problems.append(Problem(kind, table, decision.key, seat, detail))

        started = time.perf_counter()
        reached: list[str] = []
        try:
            with self.watch.watching() if self.watch else nullcontext(reached) as reached:
                answer: object = game.agents[seat].decide(request)
        except Exception as err:
            frame = traceback.extract_tb(err.__traceback__)[-1]
            problem("exception", f"{type(err).__name__}: {err} ({frame.filename}:{frame.lineno})")
            return fallback
        finally:
            elapsed = time.perf_counter() - started
            self.report.slowest_s = max(self.report.slowest_s, elapsed)
        if elapsed > self.time_limit_s:
            problem("slow", f"{elapsed:.2f} s (limit {self.time_limit_s:g} s)")
        for name in dict.fromkeys(reached):
            problem("reads_state", f"called {name}")
        kind, details = _answer_problems(request, answer)
        for detail in details:
            problem(kind, detail)
        if kind != "record" or not isinstance(answer, Answer):
            return fallback
        game.records += [answer.record, *answer.notes]
        return answer.action

    def play(self, board: str, flags: Mapping[str, str], seed: int, half: int) -> set[str]:
        """One game; the agent sits at every other seat (from the first or the second).
        Returns the steps it was asked."""
        config = make_config(board, seed=seed, variants=dict(flags), secret="")
        state, events = new_game(config)
        agents = {s.id: self.factory(s.id) for i, s in enumerate(state.seats) if i % 2 == half}
        game = _Game(config, state, events, agents)
        table = _table_name(board, flags)
        asked: set[str] = set()

        def answer(
            state: GameState, events: Sequence[Event], decision: PendingDecision
        ) -> dict[str, Action]:
            game.state = state
            answers = random_answers(config.root, decision)
            for seat in decision.options:
                if seat in agents:
                    asked.add(decision.step)
                    answers[seat] = self.ask(game, table, seat, decision)
            return answers

        game.state, _ = play_out(game.state, game.events, answer)
        self.report.games += 1
        return asked


def _random_noting(reached: set[str], seed: int) -> Answerer:
    """Random answers drawn from `seed`, noting each step they answer in `reached`."""

    def answer(
        _state: GameState, _events: Sequence[Event], decision: PendingDecision
    ) -> dict[str, Action]:
        reached.add(decision.step)
        return random_answers(seed, decision)

    return answer


@cache
def _steps_of(board: str, flags: tuple[tuple[str, str], ...], seed: int) -> frozenset[str]:
    """The decision steps random games at this table reach (what the agent should see)."""
    reached: set[str] = set()
    for game_seed in range(seed, seed + EXPECTED_FROM_GAMES):
        config = make_config(board, seed=game_seed, variants=dict(flags), secret="")
        state, events = new_game(config)
        play_out(state, events, _random_noting(reached, game_seed))
    return frozenset(reached)


def check_player(
    factory: PlayerFactory,
    *,
    boards: Sequence[str] = tuple(BOARDS),
    tables: Sequence[Mapping[str, str]] = TABLES,
    games: int = 8,
    seed: int = 0,
    time_limit_s: float = 60.0,
    watch: bool = True,
) -> Report:
    """Check the player `factory(seat)` builds (one per seat, per game) at every table of
    `boards` x `tables`, in up to `games` games per table, stopping early at a table once it
    has been asked every decision step random games there reach (each deal is played twice,
    the agent at the even seats, then the odd ones). The report's `problems`
    say what it got wrong; `uncovered` the steps it was never asked. `watch=False` skips the
    `reads_state` watch, which profiles every call the player makes (about 6 times slower)."""
    report = Report()
    checker = _Checker(factory, time_limit_s, report, watch)
    for board in boards:
        for flags in tables:
            expected = _steps_of(board, tuple(flags.items()), seed)
            seen: set[str] = set()
            for n in range(games):
                # Each deal twice: the agent takes every seat of it once.
                seen |= checker.play(board, flags, seed + n // 2, half=n % 2)
                if expected <= seen and n % 2:
                    break
            missing = tuple(s for s in STEPS if s in expected - seen)
            report.uncovered[_table_name(board, flags)] = missing
    return report
