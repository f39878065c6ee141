"""RULES §9: the seats that share a view (rules.views.shared_view: the pack, the villagers)
are told the same things, so their system prompts and their transcripts are the same text
and one slot of the embedded server serves them all (players/factory.py). Checked over
random games on every board and on random rule flags; any event told to one seat alone
(a bid, a check) would break it."""

from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from autowerewolf.prompts.memory import memory_text
from autowerewolf.prompts.recall import remember
from autowerewolf.prompts.table_rules import system_prompt
from autowerewolf.rules.config import BOARDS, make_config
from autowerewolf.rules.engine import apply, is_terminal, new_game, pending_decision
from autowerewolf.rules.random_play import random_answers
from autowerewolf.rules.roles import Role
from autowerewolf.rules.views import SeatView, public_players, seat_view, shared_view
from tests.rules.test_properties import legal, variant_sets

# Views are compared every few decisions: every seat's memory at every step is slow.
EVERY = 4


def prompt_start(view: SeatView) -> str:
    """Everything a seat's prompt holds before its question."""
    memory = remember(view)
    return f"{system_prompt(view)}\n{memory_text(memory.digest, memory.recent)}"


@settings(max_examples=30, deadline=None)
@given(
    board=st.sampled_from(sorted(BOARDS)),
    variants=variant_sets,
    seed=st.integers(0, 2**32 - 1),
)
def test_the_seats_of_a_shared_view_read_the_same_prompt_up_to_their_question(
    board: str, variants: dict[str, object], seed: int
) -> None:
    config = make_config(board, variants=legal(board, variants), seed=seed)
    state, events = new_game(config)
    shared_seen: set[str] = set()
    step = 0
    while not is_terminal(state):
        decision = pending_decision(state)
        if step % EVERY == 0:
            players = public_players(state)
            groups: dict[str, list[SeatView]] = defaultdict(list)
            for seat in state.seats:
                view = seat_view(state, events, seat.id, decision, players)
                groups[shared_view(view)].append(view)
            for key, views in groups.items():
                if len(views) > 1:
                    shared_seen.add(key)
                    starts = {prompt_start(view) for view in views}
                    assert len(starts) == 1, (key, [v.seat for v in views])
                    assert len({v.role for v in views}) == 1 or key == "pack"
        answers = random_answers(seed, decision) if decision is not None else {}
        state, new_events = apply(state, answers, decision)
        events.extend(new_events)
        step += 1
    # Wolves share under round-robin talk; under bidding every view is its own.
    round_robin = state.config.variants.discussion.value == "round_robin"
    several_wolves = state.config.roles.count(Role.WEREWOLF) > 1
    assert ("pack" in shared_seen) == (round_robin and several_wolves)
