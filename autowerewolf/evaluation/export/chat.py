"""Trajectories for training: `export --format chat` (docs/evaluation.md, "Chat
trajectories"; schema docs/chat-export.schema.json).

One line per game decision of an LLM seat or of an agent across a process boundary (an
`external` seat, which read the environment's observation), and, from a training
environment that records them (`record_examples=True`), of its trainer's seats (`env`):
the OpenAI chat messages the
seat was sent, the answer it gave as an assistant message, whether it was legal, the seat's
role and camp, and the game's outcome as its reward (+1 its camp won, -1 it lost, 0 a draw).

The messages are rebuilt from the seat's view at the decision: the game is replayed through
the rules engine from its configuration and recorded answers (a game whose replay differs
from what was saved is left out and counted), the system message is the seat's
instructions, and the user message the game so far with the question the seat was asked
(its recorded prompt tail, which holds an agent design's notes). As in the dataset export,
every line has a public part (what everyone learnt: the game's winner, and who answered
what for a decision asked in public) and a `private` part with everything else: the
messages (they hold the seat's role and private facts), the answer's reasoning, legality,
role, camp and reward. The game's secret is never exported.
"""

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autowerewolf.evaluation.export.jsonl import PUBLIC_DECISION_FIELDS, is_public
from autowerewolf.evaluation.saved import finished_games
from autowerewolf.players.observation import prompted
from autowerewolf.players.records import DecisionRecord
from autowerewolf.private_files import output_folder, replaced_atomically
from autowerewolf.prompts.memory import memory_text
from autowerewolf.prompts.question import decision_message
from autowerewolf.prompts.recall import remember
from autowerewolf.prompts.speech_acts import said
from autowerewolf.prompts.table_rules import system_prompt
from autowerewolf.rules.decisions import Action, PendingDecision
from autowerewolf.rules.engine import new_game, play_out
from autowerewolf.rules.events import Event
from autowerewolf.rules.roles import Camp
from autowerewolf.rules.state import GameState
from autowerewolf.rules.steps import takes_text
from autowerewolf.rules.views import SeatView, seat_view
from autowerewolf.runner import GameRecord

SCHEMA = "autowerewolf.chat/1"
# The players whose decisions are examples: models, and agents that read the environment's
# observation.
CHAT_PLAYERS = frozenset({"llm", "external"})


class Unreplayable(Exception):
    """A saved game that its recorded answers do not replay."""


@dataclass(frozen=True)
class ChatFilter:
    model: str | None = None
    role: str | None = None
    camp: str | None = None
    winners_only: bool = False


def replayed_views(record: GameRecord) -> Iterator[tuple[int, DecisionRecord, SeatView]]:
    """Each chat player's game decision with the view it answered from, by replaying the
    game; Unreplayable if the replay does not end where the saved game ended."""
    config = record.game.config
    state, first = new_game(config)
    events = list(first)
    answered: dict[tuple[str, str], tuple[int, DecisionRecord]] = {}
    for index, r in enumerate(record.records):
        if r.purpose == "decision":
            answered[(r.key, r.seat)] = (index, r)
    found: list[tuple[int, DecisionRecord, SeatView]] = []

    def recorded(
        state: GameState, events: Sequence[Event], decision: PendingDecision
    ) -> dict[str, Action]:
        answers: dict[str, Action] = {}
        for seat in decision.options:
            hit = answered.get((decision.key, seat))
            if hit is None:
                raise Unreplayable(f"no recorded answer of {seat} at {decision.key}")
            index, r = hit
            answers[seat] = Action(option=r.option, text=r.text)
            if r.player in CHAT_PLAYERS:
                found.append((index, r, seat_view(state, events, seat, decision)))
        return answers

    try:
        play_out(state, events, recorded)
    except ValueError as err:  # an answer the rules refuse (Unreplayable is no ValueError)
        raise Unreplayable(str(err).splitlines()[0]) from None
    if events != list(record.events):
        raise Unreplayable("the replay's transcript differs from the saved one")
    return iter(found)


def messages(view: SeatView, r: DecisionRecord) -> list[dict[str, str]]:
    """The chat messages the seat was sent: an LLM seat's with the question it was asked
    (its recorded prompt tail), an external agent's as its request's."""
    if r.player == "llm" and r.prompt:
        memory = remember(view)
        user = decision_message(memory_text(memory.digest, memory.recent), r.prompt)
        return [
            {"role": "system", "content": system_prompt(view)},
            {"role": "user", "content": user},
        ]
    return prompted(view).messages()


def answer_message(r: DecisionRecord) -> dict[str, str]:
    """The answer as the assistant's message, in the shape LLM seats answer in: a structured
    speech as its acts, a structured whisper as its ground (prompts/speech_acts.py)."""
    content: dict[str, Any] = {"reasoning": r.reasoning or "", "choice": r.option}
    data = r.data or {}
    kind = takes_text(r.step)
    if data.get("acts"):
        content["acts"] = [said(act) for act in data["acts"]]
    elif "because" in data:
        content["because"] = data["because"]
    elif kind is not None:
        content[kind] = r.text
    return {"role": "assistant", "content": json.dumps(content, ensure_ascii=False)}


def chat_line(record: GameRecord, index: int, r: DecisionRecord, view: SeatView) -> dict[str, Any]:
    return chat_example(record.game_id, record.game, index, r, view, messages(view, r))


def chat_example(
    game_id: str,
    game: GameState,
    index: int,
    r: DecisionRecord,
    view: SeatView,
    sent: list[dict[str, str]],
) -> dict[str, Any]:
    """One line: the decision `r` of a finished `game`, answered from `view` after the
    seat was sent the messages `sent`."""
    camp = view.camp
    reward = 0.0 if game.winner is None else (1.0 if game.winner is camp else -1.0)
    private: dict[str, Any] = {
        "messages": sent,
        "answer": answer_message(r),
        "valid": r.valid,
        "fallback": r.fallback,
        "error": r.error,
        "role": view.role.value,
        "camp": camp.value,
        "reward": reward,
    }
    decision = r.model_dump(mode="json")
    line: dict[str, Any] = {
        "game_id": game_id,
        "index": index,
        "winner": game.winner.value if game.winner else None,
        "public": is_public(r),
    }
    asked = {name: decision[name] for name in PUBLIC_DECISION_FIELDS}
    asked.update(choice=r.option, text=r.text)
    if line["public"]:
        line.update(asked)
    else:
        private.update(asked)
    return {**line, "private": private}


def _kept(line: dict[str, Any], r: DecisionRecord, chosen: ChatFilter) -> bool:
    private = line["private"]
    return (
        (chosen.model is None or r.model == chosen.model)
        and (chosen.role is None or private["role"] == chosen.role)
        and (chosen.camp is None or private["camp"] == chosen.camp)
        and (not chosen.winners_only or private["reward"] > 0)
    )


def export_chat(source: Path, out: Path, chosen: ChatFilter = ChatFilter()) -> dict[str, Any]:
    """Write chat.jsonl and chat-manifest.json into `out`; returns the manifest."""
    if chosen.camp is not None:
        Camp(chosen.camp)  # a ValueError names a camp that does not exist
    counts = {"games": 0, "examples": 0, "unreplayable": 0}
    skipped: list[str] = []
    # Both files appear, 0600, only when all is written (private_files.py).
    with (
        output_folder(out),
        replaced_atomically(out / "chat.jsonl") as f,
        replaced_atomically(out / "chat-manifest.json") as manifest_file,
    ):
        for _, _, record in finished_games(source):
            try:
                found = list(replayed_views(record))
            except Unreplayable as err:
                counts["unreplayable"] += 1
                skipped.append(f"{record.game_id}: {err}")
                continue
            counts["games"] += 1
            for index, r, view in found:
                line = chat_line(record, index, r, view)
                if _kept(line, r, chosen):
                    f.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
                    counts["examples"] += 1
        manifest = {
            "schema": SCHEMA,
            "filters": {k: v for k, v in vars(chosen).items() if v not in (None, False)},
            "counts": counts,
            "unreplayable": skipped,
            "public": ["game_id", "index", "winner", "public", "and for a decision asked in "
                       "public: seat, player, agent, model, purpose, day, step, key, choice, "
                       "text"],
            "hidden": ["chat.private.messages", "chat.private.answer", "chat.private.valid",
                       "chat.private.fallback", "chat.private.error", "chat.private.role",
                       "chat.private.camp", "chat.private.reward",
                       "lines where public is false: the decision's fields under chat.private"],
        }  # fmt: skip
        manifest_file.write(json.dumps(manifest, indent=2) + "\n")
    return manifest
