"""Dataset export: finished games as JSONL, one line per game, per event and per decision,
with a manifest. Schema: docs/evaluation.md ("Dataset export").

Nothing hidden is left unmarked: a game's seed and deal sit under `omniscient`; an event
the moderator alone saw has `omniscient: true`; a decision's reasoning, prompt, raw
answer and structured data (role estimates...) sit under `private` (only its own seat saw
them). Databases are read only.
"""

import hashlib
import json
from collections import Counter
from importlib.metadata import version
from pathlib import Path
from typing import Any, TextIO

from autowerewolf.evaluation.results import databases
from autowerewolf.evaluation.saved import finished_games
from autowerewolf.players.records import DecisionRecord
from autowerewolf.rules.events import Audience, Event
from autowerewolf.rules.steps import STEPS, StepKind
from autowerewolf.runner import GameRecord
from autowerewolf.storage.target import source_name

SCHEMA = "autowerewolf.export/1"
PRIVATE_FIELDS = ("reasoning", "prompt", "raw", "data")
FIELDS: dict[str, dict[str, str]] = {
    "games": {
        "game_id": "the game's id in its database",
        "database": "the database file's name",
        "board, variants, max_days": "the rules every player was told",
        "winner, win_reason, days, steps": "the outcome",
        "seats": "per seat: id, public name, player kind, contestant (tournaments), models",
        "omniscient": "hidden from every player: game seed, player seed, deal (seat -> role), "
        "each seat's end (alive, death day and cause)",
    },
    "events": {
        "game_id, index": "the game, and the event's place in its transcript",
        "day, phase, kind, actor, target, targets, value, text, weight, round": "the event",
        "audience": "who saw it: public, wolves, seat (audience_seat) or omniscient",
        "omniscient": "true when only the moderator saw it (the deal, deaths with causes)",
    },
    "decisions": {
        "game_id, index": "the game, and the record's place in its list",
        "seat, player, agent, model": "who answered: seat, player kind, agent design, model",
        "purpose": "decision (applied), probe (measured, never applied) or note",
        "day, step, key, options, choice, text": "the question and the answer",
        "audience": "who learnt of the question when it was asked: public (day steps), "
        "wolves (the wolves' night step) or seat (other night steps, probes, notes)",
        "valid, retries, fallback, error, tokens_in, tokens_out, cached_tokens, latency_s": (
            "how the answer was obtained"
        ),
        "private": "seen by the answering seat only: " + ", ".join(PRIVATE_FIELDS),
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
        "steps": game.ply,
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
        "omniscient": {
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
        },
    }


def event_line(game_id: str, index: int, event: Event) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "index": index,
        **event.model_dump(mode="json", exclude={"audience", "seat"}),
        "audience": event.audience.value,
        "audience_seat": event.seat if event.audience is Audience.SEAT else None,
        "omniscient": event.audience is Audience.OMNISCIENT,
    }


def decision_audience(record: DecisionRecord) -> str:
    step = STEPS.get(record.step)
    if record.purpose != "decision" or step is None:
        return "seat"
    if step.kind is not StepKind.NIGHT:
        return "public"
    return "wolves" if record.step == "wolves" else "seat"


def decision_line(game_id: str, index: int, record: DecisionRecord) -> dict[str, Any]:
    fields = record.model_dump(mode="json", exclude={"option", *PRIVATE_FIELDS})
    return {
        "game_id": game_id,
        "index": index,
        **fields,
        "choice": record.option,
        "audience": decision_audience(record),
        "private": {name: getattr(record, name) for name in PRIVATE_FIELDS},
    }


def _write(f: TextIO, line: dict[str, Any]) -> None:
    f.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def export(source: Path, out: Path) -> dict[str, Any]:
    """Write games.jsonl, events.jsonl, decisions.jsonl and manifest.json into `out`;
    returns the manifest."""
    out.mkdir(parents=True, exist_ok=True)
    sources = [
        {"file": db.name, "bytes": db.stat().st_size, "sha256": sha256(db)}
        if isinstance(db, Path)
        else {"database": str(db)}  # a PostgreSQL database: no file to fingerprint
        for db in databases(source)
    ]
    counts: Counter[str] = Counter()
    with (
        (out / "games.jsonl").open("w", encoding="utf-8") as games,
        (out / "events.jsonl").open("w", encoding="utf-8") as events,
        (out / "decisions.jsonl").open("w", encoding="utf-8") as decisions,
    ):
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
            "omniscient": ["games.omniscient", "events where omniscient is true"],
            "private": [f"decisions.private.{name}" for name in PRIVATE_FIELDS],
        },
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest
