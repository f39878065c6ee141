"""A seat's memory is a pure function of its view, folded by day: append-only within a day
(the server's prompt cache reuses the prefix) and bounded to the current day verbatim."""

from itertools import pairwise

from autowerewolf.players.llm.memory import remember
from autowerewolf.prompts.player import memory_text
from autowerewolf.rules.config import make_config
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.random_play import play_random_game
from autowerewolf.rules.views import seat_view


def test_memory_is_the_same_whenever_it_is_computed() -> None:
    state, events = play_random_game(make_config(seed=11, max_days=30))
    view = seat_view(state, events, "P01")
    assert remember(view) == remember(view)


def test_earlier_days_are_folded_at_dawn_only_and_the_prompt_stays_bounded() -> None:
    state, events = play_random_game(make_config(seed=11, max_days=30))
    dawns = [i for i, e in enumerate(events) if e.kind is EventKind.DAY_START]
    assert len(dawns) >= 3, "the game must last a few days"
    previous: tuple[int, tuple[str, ...]] | None = None
    for cut in range(20, len(events) + 1, 7):
        memory = remember(seat_view(state, events[:cut], "P01"))
        last_dawn = max((d for d in dawns if d < cut), default=0)
        # Verbatim: only what happened since the latest dawn (grouped ballots are one line).
        assert len(memory.recent) <= cut - last_dawn
        if previous is not None and previous[0] == last_dawn:
            assert memory.digest == previous[1]  # no fold between two dawns
        previous = (last_dawn, memory.digest)
        # Days before yesterday keep no speech: the digest does not grow with the game.
        yesterday = events[last_dawn].day - 1
        old = [line for line in memory.digest if int(line[1 : line.index(" ")]) < yesterday]
        assert not [line for line in old if " says: " in line]


def test_within_a_day_the_transcript_only_grows_at_its_end() -> None:
    state, events = play_random_game(make_config(seed=5))
    dawns = [i for i, e in enumerate(events) if e.kind is EventKind.DAY_START]
    start, end = dawns[1], dawns[2]
    grouped = (EventKind.BALLOT, EventKind.SIGNUP)
    # Cut between steps: a step's ballots or sign-ups arrive together, as one line.
    cuts = [
        c
        for c in range(start + 1, end)
        if not (events[c].kind in grouped and events[c].kind is events[c - 1].kind)
    ]
    texts = [
        memory_text(m.digest, m.recent)
        for m in (remember(seat_view(state, events[:cut], "P02")) for cut in cuts)
    ]
    for earlier, later in pairwise(texts):
        assert later.startswith(earlier)
