"""The Werewolf board as a `verifiers` environment (docs/training.md, "verifiers"): the
model being evaluated or trained plays one seat, chosen by seat id, role or camp, against
configurable opponents, over a dataset of seeds and boards.

    vf-eval autowerewolf.verifiers_env -a '{"board": "9-standard", "camp": "wolf"}' \\
        -m MODEL -b http://127.0.0.1:8000/v1 -k KEY_VARIABLE -n 8

The seat's messages and the reading of its answers are the verifiers seat's
(verifiers_seat.py): its first question as an LLM seat reads it, then the events since its
last answer and its next question; one JSON object per answer, read by the project's one
reply parser. The rubric pays 1 when the seat's camp wins, and takes `invalid_penalty`
times the share of its answers that were invalid; the share of answers that needed a
repair is reported beside it (weight 0).

Needs the `verifiers` extra (verifiers 0.2: its classic `MultiTurnEnv` and `vf-eval`); the
seats-as-agents environment of verifiers 0.4 is verifiers_multiagent.py.
"""

import asyncio
import json
from typing import Any

from autowerewolf.extras import require

require("verifiers", "verifiers", "datasets")

import verifiers as vf  # noqa: E402
from datasets import Dataset  # noqa: E402
from verifiers.types import Messages, State, SystemMessage, UserMessage  # noqa: E402

from autowerewolf import verifiers_seat as seating  # noqa: E402
from autowerewolf.players.seating import PlayerKind, Seating  # noqa: E402
from autowerewolf.prompts import environment as words  # noqa: E402
from autowerewolf.rules.config import make_config  # noqa: E402
from autowerewolf.rules.engine import new_game  # noqa: E402
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

    async def setup_state(self, state: State) -> State:
        info = state["info"]
        seat = info["seat"]
        table = Table(info["board"], variants=info["variants"], controlled=[seat],
                      players=self.players, **self.table_options)  # fmt: skip
        # Opponents may wait on their models: in a worker thread, other rollouts go on.
        await asyncio.to_thread(table.reset, info["seed"])
        system, first, _ = seating.question(table, seat, 0)
        state["prompt"] = [SystemMessage(content=system), UserMessage(content=first)]
        state["werewolf"] = {"table": table, "seat": seat, "seen": len(table.events)}
        state["werewolf_result"] = seating.new_result()
        return state

    async def env_response(self, messages: Messages, state: State, **kwargs: Any) -> Messages:
        game = state["werewolf"]
        table: Table = game["table"]
        seat: str = game["seat"]
        result = state["werewolf_result"]
        notes = seating.play_reply(table, seat, reply_text(messages), result)
        await asyncio.to_thread(table.advance)
        if table.over:
            del state["werewolf"]  # the live table is not a result
            outcome = seating.game_over(table, seat, result)
            ended: Messages = [UserMessage(content="\n".join([*notes, outcome]))]
            state["final_env_response"] = ended
            return ended
        _, _, later = seating.question(table, seat, game["seen"])
        game["seen"] = len(table.events)
        return [UserMessage(content="\n\n".join([*notes, later]))]


async def camp_won(state: State, **kwargs: Any) -> float:
    """1 when the seat's camp won the game, else 0 (a loss, a draw, an unfinished game)."""
    return seating.camp_won(state.get("werewolf_result", seating.new_result()))


async def invalid_share(state: State, **kwargs: Any) -> float:
    """The share of the model's answers that could not be used."""
    return seating.invalid_share(state.get("werewolf_result", seating.new_result()))


async def repaired_share(state: State, **kwargs: Any) -> float:
    """The share of the model's answers used after a repair (counted, not penalised)."""
    return seating.repaired_share(state.get("werewolf_result", seating.new_result()))


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
    rubric = vf.Rubric(
        funcs=[camp_won, invalid_share, repaired_share], weights=[1.0, -invalid_penalty, 0.0]
    )
    return WerewolfEnv(
        table_options={"seating": Seating(default=opponents)},
        players=seating.opponent_players(opponents, models),
        dataset=Dataset.from_list(rows),
        rubric=rubric,
        max_turns=max_turns,
    )


__all__ = ["WerewolfEnv", "load_environment"]
