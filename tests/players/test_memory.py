"""A seat's memory is a pure function of its view, folded by day: append-only within a day
(the server's prompt cache reuses the prefix) and bounded to about two days verbatim."""

import json
import os
import subprocess
import sys
from itertools import pairwise

from autowerewolf.prompts.memory import memory_text
from autowerewolf.prompts.recall import FOLD_EVERY_DAYS, FactsLedger, remember
from autowerewolf.rules.config import make_config
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.random_play import play_random_game
from autowerewolf.rules.views import seat_view

MEMORY_OF_P01 = """
import dataclasses, json
from autowerewolf.prompts.recall import remember
from autowerewolf.prompts.memory import memory_text
from autowerewolf.rules.config import make_config
from autowerewolf.rules.random_play import play_random_game
from autowerewolf.rules.views import seat_view

state, events = play_random_game(make_config(seed=11, max_days=30))
memory = remember(seat_view(state, events, "P01"))
text = memory_text(memory.digest, memory.recent)
print(json.dumps({"memory": dataclasses.asdict(memory), "text": text}, default=str))
"""


def test_memory_is_the_same_in_every_process() -> None:
    """A resumed or forked game rebuilds its seats' memories in another process: the same
    view must give the same memory there, whatever the interpreter's string-hash seed (the
    iteration order of sets and of dicts built from them)."""
    here = subprocess.run(
        [sys.executable, "-c", MEMORY_OF_P01], capture_output=True, text=True, check=True
    )
    computed = json.loads(here.stdout)
    assert computed["memory"]["digest"] and computed["memory"]["recent"]
    assert computed["memory"]["ledger"]["facts"], "the game must leave facts to note"
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        other = subprocess.run(
            [sys.executable, "-c", MEMORY_OF_P01], capture_output=True, text=True, env=env,
            check=True,
        )  # fmt: skip
        assert json.loads(other.stdout) == computed, f"PYTHONHASHSEED={hash_seed}"


def test_earlier_days_are_folded_at_every_third_dawn_only_and_the_prompt_stays_bounded() -> None:
    state, events = play_random_game(make_config(seed=9, max_days=30))  # 7 days
    # The dawns of Day 4, 7 ... fold; the dawns of Day 1, 2, 3, 5, 6 ... do not.
    folding = [
        i
        for i, e in enumerate(events)
        if e.kind is EventKind.DAY_START and e.day > 1 and (e.day - 1) % FOLD_EVERY_DAYS == 0
    ]
    assert FOLD_EVERY_DAYS == 3 and len(folding) >= 2, "the game must last a few days"
    previous: tuple[int, tuple[str, ...]] | None = None
    folds = 0
    for cut in range(20, len(events) + 1, 7):
        memory = remember(seat_view(state, events[:cut], "P01"))
        last_dawn = max((d for d in folding if d < cut), default=0)
        # Verbatim: only what happened since the folding dawn (grouped ballots are one line).
        assert len(memory.recent) <= cut - last_dawn
        assert memory.verbatim_day == (events[last_dawn].day if last_dawn else 0)
        if previous is not None and previous[0] == last_dawn:
            assert memory.digest == previous[1]  # no fold between two folding dawns
        elif previous is not None:
            folds += 1
        previous = (last_dawn, memory.digest)
        # Days before yesterday keep no speech: the digest does not grow with the game.
        yesterday = events[last_dawn].day - 1
        old = [line for line in memory.digest if int(line[1 : line.index(" ")]) < yesterday]
        assert not [line for line in old if " says: " in line]
    assert folds >= 2


def test_between_folding_dawns_the_transcript_only_grows_at_its_end() -> None:
    state, events = play_random_game(make_config(seed=5))
    dawns = {e.day: i for i, e in enumerate(events) if e.kind is EventKind.DAY_START}
    # From the first event to the dawn of Day 4: three nights and three days.
    start, end = 0, dawns[4]
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


def _public(kind: EventKind, day: int, **fields: str) -> Event:
    return Event(kind=kind, day=day, phase="day", audience=Audience.PUBLIC, **fields)


def test_the_ledger_notes_seer_reports_of_wolves_and_who_sided_with_an_exposed_wolf() -> None:
    """The evidence a Witch's poison and a Hunter's shot may act on (prompts/choices.py):
    a seat's own report of a check that found a wolf (not a copy of another's); votes cast
    with a wolf later exposed on two days or more. One day's vote or vouching for him is
    not evidence (benchmarks/evidence.py: such seats were mostly good)."""
    ledger = FactsLedger()
    for event in (
        _public(
            EventKind.SPEECH, 1, actor="P09", text="I am the Seer, and my check found P03 a wolf."
        ),
        _public(EventKind.SPEECH, 1, actor="P07", text="I checked P04: a werewolf, trust me."),
        _public(EventKind.SPEECH, 1, actor="P06", text="My check found P05 good, not a wolf."),
        _public(
            EventKind.SPEECH, 1, actor="P05", text="P09 is the Seer; his check found P03 a wolf."
        ),
        _public(EventKind.SPEECH, 1, actor="P10", text="My check found P03 a wolf, like P09's."),
        _public(EventKind.SPEECH, 2, actor="P09", text="Again: my check found P03 a wolf."),
        _public(EventKind.SPEECH, 1, actor="P08", text="I trust P02: he is calm."),
        _public(EventKind.BALLOT, 1, actor="P02", target="P09", value="exile"),
        _public(EventKind.BALLOT, 1, actor="P11", target="P09", value="exile"),
        _public(EventKind.BALLOT, 1, actor="P12", target="P09", value="exile"),
        _public(EventKind.BALLOT, 1, actor="P04", target="P10", value="exile"),
        _public(EventKind.BALLOT, 2, actor="P02", target="P10", value="exile"),
        _public(EventKind.BALLOT, 2, actor="P11", target="P10", value="exile"),
        _public(EventKind.BALLOT, 2, actor="P12", target="P05", value="exile"),
    ):
        ledger.observe(event)
    assert ledger.named_wolves == {"P03": ["P09", "P10"], "P04": ["P07"]}
    assert ledger.days_voted_with("P02") == {"P11": 2, "P12": 1}
    assert ledger.wolf_allies() == {}  # nobody is exposed yet
    ledger.observe(_public(EventKind.SELF_EXPLOSION, 3, actor="P02", value="werewolf"))
    assert ledger.wolf_allies() == {"P11": "P02"}
