"""A model seat of the verifiers environments (docs/training.md, "verifiers"): what it is
asked, how its answers are read and played, and the tally its rewards are computed from.
Shared by the classic environment (verifiers_env.py, verifiers 0.2) and the multi-agent one
(verifiers_multiagent.py, verifiers 0.4); it imports no verifiers, as each environment
needs a release of its own.

The first question is the seat's prompt as an LLM seat reads it (the system prompt, the
game so far, the question); each later one holds the events the seat saw since its last
answer (the project's one renderer) and its next question. Answers are read by the one
reply parser (prompts/replies.py): a think block, prose or a code fence around the JSON, a
choice written as its seat's name or in another case are repaired and counted. An answer
that cannot be used is told back to the seat and a seeded random legal choice is played.
"""

from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple, TypedDict

from autowerewolf.players.factory import PlayerBuilder, PlayerFactory, basic_player, load_models
from autowerewolf.players.seating import PlayerKind
from autowerewolf.prompts import environment as words
from autowerewolf.prompts.render import compact
from autowerewolf.prompts.replies import read_choice_answer
from autowerewolf.prompts.seat_prompt import question_prompt
from autowerewolf.rules.steps import takes_text
from autowerewolf.rules.views import visible_events
from autowerewolf.table import Table


class Question(NamedTuple):
    system: str  # the seat's instructions
    first: str  # its whole first prompt
    later: str  # the question after the first: the events since `since`, then the question


class SeatResult(TypedDict):
    answers: int
    invalid: int
    repaired: int
    repairs: dict[str, int]  # each repair's name, and how many answers needed it
    won: bool | None  # None while the game runs
    winner: str | None
    days: int


def opponent_players(opponents: PlayerKind, models: str | None) -> PlayerFactory:
    """The players of the seats no model of the environment plays: `opponents` (random,
    heuristic, or llm from the `models` file, else the default models)."""
    if models:
        return PlayerBuilder(load_models(Path(models)))
    return PlayerBuilder() if opponents == "llm" else basic_player


def new_result() -> SeatResult:
    return {"answers": 0, "invalid": 0, "repaired": 0, "repairs": {}, "won": None,
            "winner": None, "days": 0}  # fmt: skip


def question(table: Table, seat: str, since: int) -> Question:
    """What `seat`, asked now, reads; `since` is the count of events it was told before."""
    view = table.view(seat)
    prompt = question_prompt(view, view.step or "")
    text = takes_text(view.step or "")
    seen = visible_events(table.events[since:], seat, view.camp.value == "wolf")
    lines = [f"D{e.day} {line}" for e, line in compact(seen, seat)]
    later = f"{words.since_last_answer(lines)}\n\n{prompt.tail}\n{words.answer_format(text)}"
    return Question(prompt.system, f"{prompt.user}\n{words.answer_format(text)}", later)


def play_reply(table: Table, seat: str, reply: str, result: SeatResult) -> list[str]:
    """Read `seat`'s `reply` to its pending question, count it in `result` and answer the
    table with it; returns what to tell the seat with its next message (an invalid answer,
    and the choice played in its place)."""
    result["answers"] += 1
    labels = {p.seat: p.name for p in table.view(seat).players}
    try:
        read = read_choice_answer(reply, table.asked[seat], labels, takes_text(table.game.step))
    except ValueError as err:
        result["invalid"] += 1
        played, _ = table.to_action(seat, "invalid")  # the seeded random legal answer
        table.answer(seat, "invalid")
        return [words.invalid_answer(str(err), played.option)]
    if read.repairs:
        result["repaired"] += 1
        result["repairs"] = dict(Counter(result["repairs"]) + Counter(read.repairs))
    answer: Any = {"option": read.option, "text": read.text}
    table.answer(seat, answer)
    return []


def game_over(table: Table, seat: str, result: SeatResult) -> str:
    """Fill in the finished game's outcome for `seat`; returns the line that tells it."""
    final = table.game
    won = final.winner is not None and final.winner is final.seat(seat).camp
    winner = final.winner.value if final.winner else None
    result["won"], result["winner"], result["days"] = won, winner, final.day
    return words.game_over(winner, final.win_reason or "", won)


def camp_won(result: SeatResult) -> float:
    """1 when the seat's camp won the game, else 0 (a loss, a draw, an unfinished game)."""
    return 1.0 if result["won"] else 0.0


def invalid_share(result: SeatResult) -> float:
    """The share of the seat's answers that could not be used."""
    return result["invalid"] / max(result["answers"], 1)


def repaired_share(result: SeatResult) -> float:
    """The share of the seat's answers used after a repair (a think block, prose around
    the JSON, a choice written as a name...): counted, not penalised."""
    return result["repaired"] / max(result["answers"], 1)
