"""What keeps the memory of many concurrent games small (docs/scale.md): per-decision
schemas are cached within a bound, frozen models share their sets of set field names, and
the runner collects reference cycles when a game ends."""

import asyncio
import gc
import itertools
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from autowerewolf.batch import runner as runner_module
from autowerewolf.batch.runner import BATCH_GC_THRESHOLD, BatchGame, Runner, batch_gc
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import Seating
from autowerewolf.prompts.answers import (
    COMPACT,
    FULL,
    SCHEMA_CACHE_SIZE,
    _answer_schema,
    answer_schema,
)
from autowerewolf.prompts.estimates import estimates_schema
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.storage.async_savers import async_saver
from autowerewolf.storage.stores import open_store
from tests.fixed import SECRET

SEATS = [f"P{n:02d}" for n in range(1, 13)]


def test_schemas_for_new_option_sets_in_every_game_stay_within_the_cache_bound() -> None:
    # A long batch meets new sets of legal options in every game; the cache must not grow
    # with them (it grew by ~0.26 MB per finished game before it was bounded).
    option_sets = list(itertools.islice(itertools.combinations(SEATS, 8), SCHEMA_CACHE_SIZE * 2))
    for options in option_sets:
        answer_schema("speech", options)
        estimates_schema(options, ("werewolf", "seer"))
    assert _answer_schema.cache_info().currsize <= SCHEMA_CACHE_SIZE
    assert estimates_schema.cache_info().currsize <= SCHEMA_CACHE_SIZE
    assert answer_schema("speech", option_sets[-1]) is answer_schema("speech", option_sets[-1])


def _record(seat: str) -> DecisionRecord:
    return DecisionRecord(
        seat=seat, player="llm", day=1, step="vote", key=f"k-{seat}", options=("P01",), option="P01"
    )


def test_frozen_instances_share_their_set_field_names_and_copies_keep_theirs() -> None:
    first, second = _record("P01"), _record("P02")
    assert first.__pydantic_fields_set__ is second.__pydantic_fields_set__
    names = set(first.model_fields_set)
    changed = first.model_copy(update={"text": "hello"})
    assert "text" in changed.model_fields_set and first.model_fields_set == names
    assert "text" not in first.model_dump(exclude_unset=True)
    assert DecisionRecord.model_validate(first.model_dump()) == first

    event = Event(kind=EventKind.SPEECH, day=1, phase="day", audience=Audience.PUBLIC)
    moved = event.model_copy(update={"day": 2})  # the engine's own copy-on-update
    assert moved.day == 2 and event.day == 1
    assert event.model_fields_set == {"kind", "day", "phase", "audience"}
    with pytest.raises(ValueError):
        first.text = "changed"  # type: ignore[misc]
    assert first.model_fields_set == names


def _full_collections_in_a_game(tmp_path: Path, every_s: float) -> int:
    db = tmp_path / f"gc-{every_s}.db"
    open_store(db, create=True).close()
    full: list[int] = []

    def seen(phase: str, info: dict[str, Any]) -> None:
        if phase == "stop" and info["generation"] == 2:
            full.append(1)

    async def play() -> None:
        async with async_saver(db) as saver:
            runner = Runner(saver)
            game = BatchGame(
                "g", GameSetup(secret=SECRET, board="12-A", seed=3), Seating(default="random")
            )
            await runner.play(game)

    before = gc.get_threshold()
    gc.set_threshold(*BATCH_GC_THRESHOLD)
    gc.callbacks.append(seen)
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(runner_module, "FULL_COLLECTION_EVERY_S", every_s)
            asyncio.run(play())
    finally:
        gc.callbacks.remove(seen)
        gc.set_threshold(*before)
    return len(full)


def test_the_runner_collects_cycles_when_a_game_ends_and_a_collection_is_due(
    tmp_path: Path,
) -> None:
    # In batch mode the oldest generation is otherwise collected so rarely that a model
    # call's cycles pile up: RSS grew by 121 MB instead of 74 MB with 100 games at once.
    assert _full_collections_in_a_game(tmp_path, every_s=1e9) == 0
    assert _full_collections_in_a_game(tmp_path, every_s=0.0) >= 1


def test_the_schema_cache_key_holds_what_the_schema_uses() -> None:
    def choices(schema: type[Any]) -> list[str]:
        return list(schema.model_json_schema()["properties"]["choice"]["enum"])

    options = ("P01", "P02", "none")
    vote = answer_schema(None, options, COMPACT, ("accuse P01", "accuse P03"))
    # The offered phrases shape only a structured speech: other schemas share one class.
    assert answer_schema(None, options, COMPACT, ("accuse P02",)) is vote
    assert answer_schema("speech", ("speak",), COMPACT, ("accuse P01",)) is answer_schema(
        "speech", ("speak",), COMPACT, ("vouch P02", "accuse P03")
    )
    # Other legal options, another text or other bounds: another schema.
    assert choices(answer_schema(None, ("P01", "none"))) == ["P01", "none"]
    assert choices(vote) == list(options)
    assert answer_schema("message", options) is not vote
    assert answer_schema(None, options, FULL) is not vote
    acts = replace(COMPACT, speech_acts=True)
    few = answer_schema("speech", ("speak",), acts, ("accuse P01", "accuse P02"))
    more = answer_schema("speech", ("speak",), acts, ("accuse P01", "accuse P02", "accuse P03"))
    assert few is not more and "P03" in json.dumps(more.model_json_schema())
    assert "P03" not in json.dumps(few.model_json_schema())


def test_batch_mode_freezes_what_lived_before_the_batch_and_thaws_it_after() -> None:
    before = gc.get_threshold()
    with batch_gc():
        assert gc.get_threshold() == BATCH_GC_THRESHOLD
        assert gc.get_freeze_count() > 0  # the imported modules: left out of collections
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == before
