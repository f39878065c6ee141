"""The Werewolf board as a `verifiers` environment (docs/training.md, "verifiers"): the
model being evaluated or trained plays one seat, chosen by seat id, role or camp, against
configurable opponents, over a dataset of seeds and boards.

    vf-eval autowerewolf.verifiers_env -a '{"board": "9-standard", "camp": "wolf"}' \\
        -m MODEL -b http://127.0.0.1:8000/v1 -k KEY_VARIABLE -n 8

The first message is the seat's first question as an LLM seat reads it (the system
prompt, the game so far, the question); each later user message holds the events the seat
saw since its last answer (the project's one renderer) and its next question. The model
answers each with one JSON object (`reasoning`, `choice`, and the `speech` or `message`
where the step takes one), read by the project's one reply parser (prompts/replies.py: a
think block, prose or a code fence around the object, a choice written as its seat's name
or in another case are repaired, and each repair is counted). An answer that cannot be used
is told back to the model and a seeded random legal choice is played in its place. The
rubric pays 1 when the seat's camp wins, and takes `invalid_penalty` times the share of its
answers that were invalid; the share of answers that needed a repair is reported beside it
(weight 0).

Needs the `verifiers` extra (verifiers 0.2: its classic `MultiTurnEnv` and `vf-eval`).
"""

import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any

from autowerewolf.extras import require

require("verifiers", "verifiers", "datasets")

import verifiers as vf  # noqa: E402
from datasets import Dataset  # noqa: E402
from verifiers.types import Messages, State, SystemMessage, UserMessage  # noqa: E402

from autowerewolf.players.factory import PlayerBuilder, basic_player, load_models  # noqa: E402
from autowerewolf.players.seating import PlayerKind, Seating  # noqa: E402
from autowerewolf.prompts import environment as words  # noqa: E402
from autowerewolf.prompts.render import compact  # noqa: E402
from autowerewolf.prompts.replies import read_choice_answer  # noqa: E402
from autowerewolf.prompts.seat_prompt import question_prompt  # noqa: E402
from autowerewolf.rules.config import make_config  # noqa: E402
from autowerewolf.rules.engine import new_game  # noqa: E402
from autowerewolf.rules.steps import takes_text  # noqa: E402
from autowerewolf.rules.views import visible_events  # noqa: E402
from autowerewolf.table import Table  # noqa: E402


def chosen_seat(board: str, seed: int, variants: dict[str, Any], seat: str | None,
                role: str | None, camp: str | None) -> str:  # fmt: skip
    """The seat the model plays: named, else the first seat of the role or camp dealt."""
    if seat is not None:
        return seat
    state, _ = new_game(make_config(board, seed=seed, variants=variants))
    for s in state.seats:
        if (role is None or s.role.value == role) and (camp is None or s.camp.value == camp):
            return s.id
    raise ValueError(f"no seat of role {role!r} and camp {camp!r} on board {board}")


def reply_text(messages: Messages) -> str:
    content = messages[-1].content if messages else ""
    if isinstance(content, str):
        return content
    return "".join(getattr(part, "text", "") or "" for part in content or [])


class WerewolfEnv(vf.MultiTurnEnv):  # type: ignore[misc]
    """One game per rollout; the model plays one seat of it."""

    def __init__(self, *, table_options: dict[str, Any], players: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.table_options = table_options
        self.players = players

    def _question(self, table: Table, seat: str, since: int) -> tuple[str, str, str]:
        """The seat's instructions, its whole first prompt, and the incremental message."""
        view = table.view(seat)
        prompt = question_prompt(view, view.step or "")
        text = takes_text(view.step or "")
        seen = visible_events(table.events[since:], seat, view.camp.value == "wolf")
        lines = [f"D{e.day} {line}" for e, line in compact(seen, seat)]
        later = f"{words.since_last_answer(lines)}\n\n{prompt.tail}\n{words.answer_format(text)}"
        return prompt.system, f"{prompt.user}\n{words.answer_format(text)}", later

    async def setup_state(self, state: State) -> State:
        info = state["info"]
        seat = info["seat"]
        table = Table(info["board"], variants=info["variants"], controlled=[seat],
                      players=self.players, **self.table_options)  # fmt: skip
        # Opponents may wait on their models: in a worker thread, other rollouts go on.
        await asyncio.to_thread(table.reset, info["seed"])
        system, first, _ = self._question(table, seat, 0)
        state["prompt"] = [SystemMessage(content=system), UserMessage(content=first)]
        state["werewolf"] = {"table": table, "seat": seat, "seen": len(table.events)}
        state["werewolf_result"] = {"answers": 0, "invalid": 0, "repaired": 0, "repairs": {},
                                    "won": None}  # fmt: skip
        return state

    async def env_response(self, messages: Messages, state: State, **kwargs: Any) -> Messages:
        game = state["werewolf"]
        table: Table = game["table"]
        seat: str = game["seat"]
        result = state["werewolf_result"]
        options = table.asked[seat]
        text = takes_text(table.game.step)
        result["answers"] += 1
        notes: list[str] = []
        labels = {p.seat: p.name for p in table.view(seat).players}
        try:
            read = read_choice_answer(reply_text(messages), options, labels, text)
            answer: Any = {"option": read.option, "text": read.text}
            if read.repairs:
                result["repaired"] += 1
                result["repairs"] = dict(Counter(result["repairs"]) + Counter(read.repairs))
        except ValueError as err:
            answer = "invalid"  # the table plays its seeded random legal answer
            result["invalid"] += 1
            played, _ = table.to_action(seat, answer)
            notes.append(words.invalid_answer(str(err), played.option))
        table.answer(seat, answer)
        await asyncio.to_thread(table.advance)
        if table.over:
            final = table.game
            won = final.winner is not None and final.winner is final.seat(seat).camp
            result.update(won=won, winner=final.winner.value if final.winner else None,
                          days=final.day)  # fmt: skip
            del state["werewolf"]  # the live table is not a result
            outcome = words.game_over(result["winner"], final.win_reason or "", won)
            ended: Messages = [UserMessage(content="\n".join([*notes, outcome]))]
            state["final_env_response"] = ended
            return ended
        _, _, later = self._question(table, seat, game["seen"])
        game["seen"] = len(table.events)
        return [UserMessage(content="\n\n".join([*notes, later]))]


async def camp_won(state: State, **kwargs: Any) -> float:
    """1 when the seat's camp won the game, else 0 (a loss, a draw, an unfinished game)."""
    return 1.0 if state.get("werewolf_result", {}).get("won") else 0.0


async def invalid_share(state: State, **kwargs: Any) -> float:
    """The share of the model's answers that could not be used."""
    result = state.get("werewolf_result", {})
    return float(result.get("invalid", 0)) / max(int(result.get("answers", 0)), 1)


async def repaired_share(state: State, **kwargs: Any) -> float:
    """The share of the model's answers that were used after a repair (a think block,
    prose around the JSON, a choice written as a name...): counted, not penalised."""
    result = state.get("werewolf_result", {})
    return float(result.get("repaired", 0)) / max(int(result.get("answers", 0)), 1)


def load_environment(
    board: str = "12-A",
    variants: dict[str, Any] | None = None,
    seat: str | None = None,
    role: str | None = None,
    camp: str | None = None,
    opponents: PlayerKind = "heuristic",
    models: str | None = None,
    games: int = 50,
    seed_start: int = 0,
    invalid_penalty: float = 0.5,
    max_turns: int = 400,
) -> vf.Environment:
    """Games of seeds seed_start.. on one board, the model playing `seat`, or the first
    seat of `role` and/or `camp` dealt (default: any seat, P01), against `opponents`
    (random, heuristic, or llm from the `models` file)."""
    flags = dict(variants or {})
    if seat is None and role is None and camp is None:
        seat = "P01"
    rows = []
    for seed in range(seed_start, seed_start + games):
        mine = chosen_seat(board, seed, flags, seat, role, camp)
        rows.append({
            "prompt": [{"role": "user", "content": words.game_intro(board)}],
            # As JSON text: verifiers reads it back; an empty mapping has no Arrow type.
            "info": json.dumps({"board": board, "variants": flags, "seed": seed, "seat": mine}),
            "answer": "",
        })  # fmt: skip
    players = PlayerBuilder(load_models(Path(models))) if models else basic_player
    if opponents == "llm" and not models:
        players = PlayerBuilder()
    rubric = vf.Rubric(
        funcs=[camp_won, invalid_share, repaired_share], weights=[1.0, -invalid_penalty, 0.0]
    )
    return WerewolfEnv(
        table_options={"seating": Seating(default=opponents)},
        players=players,
        dataset=Dataset.from_list(rows),
        rubric=rubric,
        max_turns=max_turns,
    )


__all__ = ["WerewolfEnv", "load_environment"]
