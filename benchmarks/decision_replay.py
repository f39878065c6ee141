"""Saved decisions asked again, with today's prompts, to a live local model: what a prompt
change does to one kind of decision, in minutes instead of hours of complete games.

    flock /tmp/autowerewolf-model.lock python benchmarks/decision_replay.py \\
        --db bench-models/qwen0.5b.db --model /path/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf \\
        --kind explode --limit 16

`--kind explode` takes every wolf turn where exploding was legal beside a speech (campaign,
discussion and exile PK speeches); `--kind poison` every Witch poison call; `--kind shot`
every Hunter shot; `--kind refusal`
every speech or wolf message the game recorded out of character (an assistant's apology
or refusal, `prompts/second_look.py`), summarised as in or out of character. The decisions
are read from the checkpoints of the finished games in `--db` (read-only), shuffled with
`--shuffle-seed` and cut to `--limit`; each is asked with the seat's saved view through
the `plain` LLM player (second look included) on the project's llama.cpp server, as
`embedded_models.py` runs it (a slot per seat, temperature 0.7, the local default's
answer bounds and speech acts). The output is one line per
decision (its key, the saved choice, the new choice, whether a second look was taken) and a
summary: the kinds of choice then and now (a poison or a shot by the target's true side).
"""

import argparse
import random
from collections import Counter
from collections.abc import Generator, Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from autowerewolf.backends.local_server import LocalServer
from autowerewolf.players.asker import Moment
from autowerewolf.players.base import DecisionRequest
from autowerewolf.players.factory import DEFAULT_MODELS, ModelPool
from autowerewolf.players.llm.player import LLMPlayer
from autowerewolf.prompts.second_look import out_of_character
from autowerewolf.rules.decisions import PendingDecision
from autowerewolf.rules.engine import pending_decision
from autowerewolf.rules.steps import takes_text
from autowerewolf.rules.views import SeatView
from autowerewolf.runner import GameRecord, Games

KINDS = ("explode", "poison", "shot", "speech", "refusal")


def wanted(kind: str, step: str, options: tuple[str, ...]) -> bool:
    if kind == "explode":
        return "explode" in options and "speak" in options
    if kind == "refusal":
        return takes_text(step) is not None
    if kind == "speech":
        return step == "discussion"
    return step == ("hunter_shot" if kind == "shot" else "witch_poison")


class Saved(NamedTuple):
    game_id: str
    request: DecisionRequest
    choice: str  # what the game recorded
    text: str  # ... and what the seat said with it
    act: str  # the verb of its speech's first act ("accuse"), if it spoke in acts
    wolves: frozenset[str]  # the game's true wolves, to summarise a poison or a shot


def waiting_checkpoints(
    db: Path,
) -> Generator[tuple[GameRecord, int, Moment, PendingDecision]]:
    """Each checkpoint of the finished games of `db` (read-only) that waits for a decision,
    oldest first: the game as it finished, the checkpoint's index in the game's history,
    the table there and its decision."""
    games = Games(db, readonly=True)
    try:
        for game_id in games.ids():
            record = games.peek(game_id)
            if record is None or record.status != "finished":
                continue
            for n, snapshot in enumerate(games.history(game_id)):
                values = snapshot.values
                pending = pending_decision(values["game"])
                if pending is not None:
                    table = Moment(
                        game_id, values["game"], values["events"], values["records"],
                        values["seating"],
                    )  # fmt: skip
                    yield record, n, table, pending
    finally:
        games.close()


def saved_requests(db: Path, kind: str) -> Iterator[Saved]:
    """Each wanted decision of the finished games, with the choice the game recorded."""
    asked: set[tuple[str, int, str]] = set()
    for record, _, table, pending in waiting_checkpoints(db):
        choices = {
            (r.key, r.seat): (r.option, r.text, _first_act(r.data))
            for r in record.records
            if r.purpose == "decision"
        }
        state = table.game
        for seat, options in pending.options.items():
            asked_at = (record.game_id, state.ply, seat)
            if asked_at in asked or not wanted(kind, pending.step, options):
                continue
            asked.add(asked_at)
            request = table.request(seat, pending)
            choice, text, act = choices.get((request.key, seat), ("?", "", ""))
            if kind == "refusal" and not out_of_character(text):
                continue
            wolves = frozenset(s.id for s in state.seats if s.is_wolf)
            yield Saved(record.game_id, request, choice, text, act, wolves)


def _first_act(data: Mapping[str, Any] | None) -> str:
    acts = (data or {}).get("acts") or [{}]
    return str(acts[0].get("act") or "no act")


def kind_of(
    kind: str, choice: str, text: str, act: str, view: SeatView, wolves: frozenset[str]
) -> str:
    """A seat option is summarised by its true side ('wolf seat', 'good seat'; which seat
    varies with the game); a speech by its first act's verb; a refusal replay by what was
    said."""
    if kind == "speech":
        return act
    if kind == "refusal":
        return "out of character" if out_of_character(text) else "in character"
    if choice not in {p.seat for p in view.players}:
        return choice
    return "wolf seat" if choice in wolves else "good seat"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--model", type=Path, required=True, help="a .gguf file")
    parser.add_argument("--kind", choices=KINDS, required=True)
    parser.add_argument("--limit", type=int, default=16)
    parser.add_argument("--shuffle-seed", type=int, default=0)
    args = parser.parse_args()
    requests = list(saved_requests(args.db, args.kind))
    random.Random(args.shuffle_seed).shuffle(requests)
    requests = requests[: args.limit]
    print(f"{len(requests)} decisions", flush=True)
    then: Counter[str] = Counter()
    now: Counter[str] = Counter()
    second_looks = 0
    with LocalServer(model_path=args.model, alias="replay") as srv:
        config = DEFAULT_MODELS.default.model_copy(update={"model": "replay", "timeout_s": 900})
        pool = ModelPool(local=srv)
        # Each seat on its own slot, as in a game (decisions of one seat share its prompts).
        bounds = config.bounds()  # the local default's: focused, speeches in acts
        players = {seat: LLMPlayer(pool.chat(config, seat), "replay", bounds) for seat in range(12)}
        for game_id, request, before, said, act, wolves in requests:
            seats = [p.seat for p in request.view.players]
            answer = players[seats.index(request.view.seat) % 12].decide(request)
            action = answer.action
            looked = "reconsidered" in (answer.record.error or "")
            second_looks += looked
            acted = _first_act(answer.record.data)
            then[kind_of(args.kind, before, said, act, request.view, wolves)] += 1
            now[kind_of(args.kind, action.option, action.text, acted, request.view, wolves)] += 1
            print(
                f"{game_id} {request.key} {request.seat}: then {before}, "
                f"now {action.option}" + (" (second look)" if looked else ""),
                f"{action.text[:100]!r}" if args.kind in ("refusal", "speech") else "",
                flush=True,
            )
    print(f"then: {dict(then)}; now: {dict(now)}; second looks now: {second_looks}")


if __name__ == "__main__":
    main()
