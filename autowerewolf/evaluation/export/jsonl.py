"""Dataset export: finished games as JSONL, one line per game, per event and per decision,
with a manifest. Schema: docs/evaluation.md ("Dataset export").

Every line has a public part and a `private` part. The public part holds only what every
player and spectator learnt when it happened, and passes the same leak scan as the web
app's public payloads; everything else sits under `private`: the game's seed and deal,
events not told to everyone, and every field of a decision that was not announced
(reasoning, a reasoning model's thinking, prompts, raw answers, structured notes, options,
validity and costs), and whole decisions that were not asked in public (night actions,
bids, the Hunter's shot, probes, notes). Private fields are found by subtracting the
declared public ones, so a new field is private until it is declared public. The game's
secret is never exported. Databases are read only.
"""

import hashlib
import json
from collections import Counter
from contextlib import ExitStack
from importlib.metadata import version
from pathlib import Path
from typing import IO, Any

from autowerewolf.evaluation.saved import finished_games
from autowerewolf.evaluation.tournament.results import databases
from autowerewolf.players.records import DecisionRecord
from autowerewolf.private_files import output_folder, replaced_atomically
from autowerewolf.rules.events import Audience, Event
from autowerewolf.rules.steps import STEPS
from autowerewolf.runner import GameRecord
from autowerewolf.storage.target import source_name

SCHEMA = "autowerewolf.export/2"
# What everyone learnt of a decision asked in public (a speech, a vote, a sign-up).
PUBLIC_DECISION_FIELDS = ("seat", "player", "agent", "model", "purpose", "day", "step", "key")
PUBLIC_EVENT_FIELDS = ("day", "kind", "actor", "target", "targets", "value", "text", "weight")
PRIVATE_DECISION_FIELDS = tuple(
    name for name in DecisionRecord.model_fields if name not in (*PUBLIC_DECISION_FIELDS, "text")
)
PRIVATE_GAME_FIELDS = ("seed", "player_seed", "deal", "ends", "steps")
PRIVATE_EVENT_FIELDS = tuple(
    name for name in Event.model_fields if name not in (*PUBLIC_EVENT_FIELDS, "round")
)
FIELDS: dict[str, dict[str, str]] = {
    "games": {
        "game_id": "the game's id in its database",
        "database": "the database file's name",
        "board, variants, max_days": "the rules every player was told",
        "winner, win_reason, days": "the outcome",
        "seats": "per seat: id, public name, player kind, contestant (tournaments), models",
        "private": "hidden from every player: game seed, player seed, deal (seat -> role), "
        "each seat's end (alive, death day and cause), steps (the moderator's count)",
    },
    "events": {
        "game_id, index": "the game, and the event's place in its transcript",
        "public": "whether everyone was told of the event",
        "day, kind, actor, target, targets, value, text, weight, round": "a public event",
        "private": "the step an event happened in, its audience (public, wolves, seat, "
        "omniscient) and audience seat; all fields of an event not told to everyone: "
        + ", ".join(PRIVATE_EVENT_FIELDS),
    },
    "decisions": {
        "game_id, index": "the game, and the record's place in its list",
        "public": "whether the decision was asked and answered in public (speeches, votes, "
        "sign-ups, the badge); if not, every field is under private",
        "seat, player, agent, model, purpose, day, step, key, choice, text": (
            "a public decision: who answered and what"
        ),
        "private": "seen by the answering seat only: " + ", ".join(PRIVATE_DECISION_FIELDS),
    },
}


def game_line(database: str, record: GameRecord) -> dict[str, Any]:
    game = record.game
    seating = record.seating
    models: dict[str, set[str]] = {}
    for r in record.records:
        if r.model:
            models.setdefault(r.seat, set()).add(r.model)
    return {
        "game_id": record.game_id,
        "database": database,
        "board": game.config.board,
        "variants": game.config.variants.model_dump(mode="json"),
        "max_days": game.config.max_days,
        "winner": game.winner.value if game.winner else None,
        "win_reason": game.win_reason,
        "days": game.day,
        "seats": [
            {
                "seat": s.id,
                "name": s.name,
                "player": seating.kind_of(s.id),
                "contestant": seating.contestants.get(s.id),
                "models": sorted(models.get(s.id, ())),
            }
            for s in game.seats
        ],
        "private": {
            "seed": game.config.seed,
            "player_seed": seating.player_seed,
            "deal": {s.id: s.role.value for s in game.seats},
            "ends": {
                s.id: {
                    "alive": s.alive,
                    "death_day": s.death_day,
                    "death_cause": s.death_cause.value if s.death_cause else None,
                }
                for s in game.seats
            },
            "steps": game.ply,
        },
    }


def event_line(game_id: str, index: int, event: Event) -> dict[str, Any]:
    fields = event.model_dump(mode="json")
    line: dict[str, Any] = {"game_id": game_id, "index": index}
    if event.audience is not Audience.PUBLIC:
        return {**line, "public": False, "private": fields}
    public = {name: fields.pop(name) for name in (*PUBLIC_EVENT_FIELDS, "round")}
    return {**line, "public": True, **public, "private": fields}


def is_public(record: DecisionRecord) -> bool:
    step = STEPS.get(record.step)
    return record.purpose == "decision" and step is not None and step.public


def decision_line(game_id: str, index: int, record: DecisionRecord) -> dict[str, Any]:
    fields = record.model_dump(mode="json")
    line: dict[str, Any] = {"game_id": game_id, "index": index}
    if not is_public(record):
        return {**line, "public": False, "private": fields}
    public = {name: fields.pop(name) for name in PUBLIC_DECISION_FIELDS}
    public.update(choice=fields.pop("option"), text=fields.pop("text"))
    return {**line, "public": True, **public, "private": fields}


def public_part(line: dict[str, Any]) -> dict[str, Any]:
    """What a line shows everyone: all but its private part."""
    return {k: v for k, v in line.items() if k != "private"}


def _write(f: IO[str], line: dict[str, Any]) -> None:
    f.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def export(source: Path, out: Path) -> dict[str, Any]:
    """Write games.jsonl, events.jsonl, decisions.jsonl and manifest.json into `out`;
    returns the manifest. The files appear together when all is written, each 0600: a
    failure leaves none of them (private_files.py)."""
    with output_folder(out), ExitStack() as files:
        games, events, decisions, manifest_file = (
            files.enter_context(replaced_atomically(out / name))
            for name in ("games.jsonl", "events.jsonl", "decisions.jsonl", "manifest.json")
        )
        sources = [
            {"file": db.name, "bytes": db.stat().st_size, "sha256": sha256(db)}
            if isinstance(db, Path)
            else {"database": str(db)}  # a PostgreSQL database: no file to fingerprint
            for db in databases(source)
        ]
        counts: Counter[str] = Counter()
        for db, _, record in finished_games(source):
            _write(games, game_line(source_name(db), record))
            for i, event in enumerate(record.events):
                _write(events, event_line(record.game_id, i, event))
            for i, decision in enumerate(record.records):
                _write(decisions, decision_line(record.game_id, i, decision))
            counts.update(games=1, events=len(record.events), decisions=len(record.records))
        manifest = {
            "schema": SCHEMA,
            "autowerewolf": version("autowerewolf"),
            "sources": sources,
            "counts": {k: counts[k] for k in ("games", "events", "decisions")},
            "files": {f"{name}.jsonl": fields for name, fields in FIELDS.items()},
            "hidden": {
                "games": [f"games.private.{name}" for name in PRIVATE_GAME_FIELDS],
                "events": [f"events.private.{name}" for name in PRIVATE_EVENT_FIELDS]
                + ["events where public is false: every field under events.private"],
                "decisions": [f"decisions.private.{name}" for name in PRIVATE_DECISION_FIELDS]
                + ["decisions where public is false: every field under decisions.private"],
            },
        }
        manifest_file.write(json.dumps(manifest, indent=2) + "\n")
    return manifest
