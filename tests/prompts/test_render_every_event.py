"""Every event the engine can emit has words: random games on every board, read by every
seat and by the log, render each event (prompts/render.py); a kind without wording is a
loud error, never a crash at its first use in a game."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autowerewolf.prompts.render import _FORMATS, UnknownEvent, compact, describe, digest_line
from autowerewolf.rules.config import BOARDS, make_config
from autowerewolf.rules.events import Event, EventKind
from autowerewolf.rules.random_play import play_random_game
from autowerewolf.rules.views import visible_events


def test_every_event_kind_has_its_wording() -> None:
    assert [kind for kind in EventKind if kind not in _FORMATS] == []


def test_an_event_kind_without_wording_is_refused_by_name() -> None:
    event = Event.model_construct(kind="no_such_kind", day=1)  # a kind no table knows
    with pytest.raises(UnknownEvent, match="no_such_kind"):
        describe(event)


@settings(max_examples=25, deadline=None)
@given(board=st.sampled_from(sorted(BOARDS)), seed=st.integers(0, 2**31))
def test_every_event_of_a_random_game_renders_for_every_reader(board: str, seed: int) -> None:
    state, events = play_random_game(make_config(board, seed=seed))
    kinds: set[EventKind] = set()
    readers = [
        (None, events),
        *((s.id, visible_events(events, s.id, s.is_wolf)) for s in state.seats),
    ]
    for reader, seen in readers:
        for event in seen:
            kinds.add(event.kind)
            assert describe(event, reader).strip()
            digest_line(event, reader)
        assert len(compact(seen, reader)) <= len(seen)
    assert EventKind.GAME_OVER in kinds
