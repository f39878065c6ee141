"""Property-based tests over seeded random legal play (RULES §1-§9 invariants)."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autowerewolf.rules.config import BOARDS, make_config
from autowerewolf.rules.decisions import Action, Option
from autowerewolf.rules.engine import apply, is_terminal, new_game, pending_decision
from autowerewolf.rules.random_play import random_answers
from autowerewolf.rules.rng import chance
from autowerewolf.rules.roles import Camp, Role, is_god
from autowerewolf.rules.state import Step
from autowerewolf.rules.variants import WinMode
from autowerewolf.rules.views import seat_view
from tests.rules.rules_helpers import leaks

ELECTION_STEPS = {
    Step.ELECTION_SIGNUP,
    Step.ELECTION_SPEECH,
    Step.ELECTION_WITHDRAW,
    Step.ELECTION_VOTE,
    Step.ELECTION_PK_SPEECH,
}
# The night's dead take part until announced: the election, and the take of a White Wolf
# King who explodes in it (docs/rules.md §12).
UNTIL_ANNOUNCED = {*ELECTION_STEPS, Step.WOLF_KING_TAKE}
DEAD_MAY_ACT = {Step.HUNTER_SHOT, Step.BADGE, Step.LAST_WORDS}
SEAT_OPTION = "P"

variant_sets = st.fixed_dictionaries(
    {},
    optional={
        "allow_wolf_self_knife": st.booleans(),
        "witch_can_self_heal_n1": st.booleans(),
        "witch_both_potions_one_night": st.booleans(),
        "guard_can_self_guard": st.booleans(),
        "guard_no_repeat": st.booleans(),
        "same_guard_same_save_kills": st.booleans(),
        "sheriff_enabled": st.booleans(),
        "sheriff_vote_weight": st.sampled_from([1.0, 1.5, 2.0]),
        "badge_swallow": st.sampled_from(["single", "double"]),
        "exile_needs_majority": st.booleans(),
        "allow_wolf_self_explode": st.booleans(),
        "hunter_can_shoot_if_poisoned": st.booleans(),
        "idiot_flip_keeps_badge": st.booleans(),
        "reveal_role_on_death": st.booleans(),
        "win_mode": st.sampled_from(["side", "city", "parity"]),
        "discussion": st.sampled_from(["round_robin", "bidding", "bid_once"]),
        "discussion_turns": st.sampled_from([1, 3, 20]),
        "speech_cap": st.sampled_from([1, 2, 3]),
        "discussion_rounds": st.sampled_from([1, 2, 3]),
        "speaking_start": st.sampled_from(["after_deaths", "random_seat"]),
        "seer_result": st.sampled_from(["camp", "role"]),
        "wolves_must_kill": st.booleans(),
        "wolf_proposal_start": st.sampled_from(["first_seat", "random_seat"]),
        "guard_told_of_save": st.booleans(),
        "exile_vote": st.sampled_from(["simultaneous", "roll_call"]),
        "exile_self_vote": st.booleans(),
        "exile_tie": st.sampled_from(["pk", "draw", "nobody"]),
        "exile_all_abstain": st.sampled_from(["nobody", "draw"]),
        "last_words": st.booleans(),
        "scoring": st.sampled_from(["plus_minus", "win_only"]),
    },
)
boards = st.sampled_from(sorted(BOARDS))
seeds = st.integers(0, 2**32 - 1)
# A random game's draws: its board, its seed and the random players' seed.
random_games = {"board": boards, "seed": seeds, "player_seed": seeds}


def legal(board: str, variants: dict[str, object]) -> dict[str, object]:
    """`variants` on `board`, except a roll call's PK tie rule, which the flags refuse
    (docs/rules.md §6): it becomes a draw."""
    resolved = {**BOARDS[board].variants.model_dump(), **variants}
    if resolved["exile_vote"] == "roll_call" and resolved["exile_tie"] == "pk":
        return {**variants, "exile_tie": "draw"}
    return variants


def wolves_have_won(state) -> bool:
    living = [s for s in state.seats if s.alive]
    wolves = sum(s.is_wolf for s in living)
    good = len(living) - wolves
    mode = state.config.variants.win_mode
    if mode is WinMode.CITY:
        return good == 0
    if mode is WinMode.PARITY:
        return wolves >= good
    roles = state.config.roles
    no_villagers = Role.VILLAGER in roles and not any(s.role is Role.VILLAGER for s in living)
    no_gods = any(is_god(r) for r in roles) and not any(is_god(s.role) for s in living)
    return no_villagers or no_gods


def check_decision(state, decision) -> None:
    """RULES §2-§7: dead players never act; a flipped Idiot never votes; targets live."""
    unannounced = set(state.unannounced)
    step = decision.step
    if step == Step.ELECTION_SIGNUP:  # the night's dead take part until announced (§3)
        assert set(decision.options) == set(state.publicly_alive)
    for seat_id, options in decision.options.items():
        seat = state.seat(seat_id)
        assert options, f"{step}: {seat_id} has no option"
        if not seat.alive:
            allowed = (step in UNTIL_ANNOUNCED and seat_id in unannounced) or (
                step in DEAL_WITH_DEAD and DEAL_WITH_DEAD[step](state, seat_id)
            )
            assert allowed, f"dead {seat_id} asked at {step}"
        if step in DEAD_MAY_ACT:
            assert not seat.alive, f"living {seat_id} asked at {step}"
            assert DEAL_WITH_DEAD[step](state, seat_id), f"{seat_id} asked at {step}"
        if step in (Step.EXILE_VOTE, Step.EXILE_ROLL_CALL, Step.ELECTION_VOTE):
            assert not seat.idiot_flipped, f"flipped Idiot {seat_id} asked to vote"
        for option in options:
            if option.startswith(SEAT_OPTION):
                target = state.seat(option)
                ok = target.alive or (step in UNTIL_ANNOUNCED and option in unannounced)
                assert ok, f"{step}: dead {option} offered to {seat_id}"
                if step in (Step.EXILE_VOTE, Step.EXILE_ROLL_CALL):
                    self_vote = state.config.variants.exile_self_vote
                    assert not target.idiot_flipped and (self_vote or option != seat_id)


DEAL_WITH_DEAD = {
    Step.HUNTER_SHOT: lambda s, seat: s.seat(seat).role is Role.HUNTER,
    Step.BADGE: lambda s, seat: s.sheriff == seat,
    Step.LAST_WORDS: lambda s, seat: True,
}


def answers_for(player_seed: int, decision, explode_rate: float) -> dict[str, Action]:
    """random_answers, with wolves exploding at `explode_rate` where they may."""
    answers = random_answers(player_seed, decision)
    for seat_id, options in decision.options.items():
        draw = chance(player_seed, f"{decision.key}:{seat_id}:boom")
        if Option.EXPLODE in options and draw < explode_rate:
            answers[seat_id] = Action(option=Option.EXPLODE)
    return answers


def play_checked(
    config, player_seed: int, view_every: int = 0, explode_rate: float = 0.0, all_every: int = 0
):
    state, events = new_game(config)
    roles = Counter(config.roles)
    plies = 0
    while not is_terminal(state):
        decision = pending_decision(state)
        if decision is not None:
            check_decision(state, decision)
            if view_every and plies % view_every == 0:
                everyone = all_every and plies % all_every == 0
                for seat_id in [s.id for s in state.seats] if everyone else decision.options:
                    problems = leaks(state, seat_view(state, events, seat_id))
                    assert problems == [], (seat_id, problems)
        answers = answers_for(player_seed, decision, explode_rate) if decision else {}
        state, new = apply(state, answers)
        events.extend(new)
        plies += 1
        assert Counter(s.role for s in state.seats) == roles, "role counts changed"
        assert plies < 5000, "game does not end"
    return state, events


def check_end(state) -> None:
    """RULES §8: exactly one winner, or a draw only at max_days."""
    assert state.day <= state.config.max_days
    if state.winner is None:
        assert state.day == state.config.max_days
    elif state.winner is Camp.GOOD:
        assert not any(s.alive and s.is_wolf for s in state.seats)
        assert not wolves_have_won(state)
    else:
        assert wolves_have_won(state)


@settings(max_examples=150, deadline=None)
@given(**random_games)
def test_rules_1_8_random_play_on_every_board_ends_with_one_winner(board, seed, player_seed):
    """RULES §1-§8: seeded random legal play on every board ends in bounded time with one
    winner; dead players never act; a flipped Idiot never votes; role counts never change."""
    state, _ = play_checked(make_config(board, seed=seed), player_seed)
    check_end(state)


@settings(max_examples=300, deadline=None)
@given(
    **random_games,
    variants=variant_sets,
    max_days=st.sampled_from([2, 4, 30]),
    explode_rate=st.sampled_from([0.0, 0.1, 0.4]),
)
def test_rules_2_8_random_play_with_random_variants(
    board, variants, seed, player_seed, max_days, explode_rate
):
    """RULES §2-§8 with random variant combinations, frequent explosions (election and day)
    and short games ending as draws."""
    config = make_config(board, variants=legal(board, variants), seed=seed, max_days=max_days)
    state, _ = play_checked(config, player_seed, explode_rate=explode_rate)
    check_end(state)


def check_no_view_leaks(board, variants, seed, player_seed, explode_rate) -> None:
    """RULES §9: no seat's view holds another seat's hidden role, Seer result, Witch/Guard
    choice or wolf-channel message (deciding seats checked at every decision, every seat at
    every fifth step and at the end)."""
    config = make_config(board, variants=legal(board, variants), seed=seed)
    state, events = play_checked(
        config, player_seed, view_every=1, explode_rate=explode_rate, all_every=5
    )
    for s in state.seats:
        assert leaks(state, seat_view(state, events, s.id)) == [], s.id


leak_games = {**random_games, "variants": variant_sets, "explode_rate": st.sampled_from([0.0, 0.2])}


# Each game checks hundreds of views: the default run plays 25, the long run 100.
@settings(max_examples=25, deadline=None)
@given(**leak_games)
def test_rules_9_no_view_ever_leaks(board, variants, seed, player_seed, explode_rate):
    check_no_view_leaks(board, variants, seed, player_seed, explode_rate)


@pytest.mark.long
@settings(max_examples=100, deadline=None)
@given(**leak_games)
def test_rules_9_no_view_ever_leaks_in_100_games(board, variants, seed, player_seed, explode_rate):
    check_no_view_leaks(board, variants, seed, player_seed, explode_rate)


@settings(max_examples=20, deadline=None)
@given(board=boards, seed=seeds)
def test_rules_1_determinism_property(board, seed):
    """RULES §1: same seed -> identical event list."""
    a = play_checked(make_config(board, seed=seed), seed)
    b = play_checked(make_config(board, seed=seed), seed)
    assert a == b
