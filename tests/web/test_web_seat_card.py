"""What a human seat's page is given, without a server: each option's line for a person,
and the role card (the seat's own record), checked against the seat's own facts and the
leak scan at every point of games."""

import pytest

from autowerewolf.prompts.choices import option_help
from autowerewolf.rules.config import make_config
from autowerewolf.rules.engine import new_game, pending_decision
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.random_play import play_random_game
from autowerewolf.rules.roles import Role
from autowerewolf.rules.state import Step
from autowerewolf.rules.steps import STEPS
from autowerewolf.rules.views import seat_view
from autowerewolf.web.frames import me_json
from autowerewolf.web.humans import decision_json
from tests.fixed import SECRET
from tests.web.leaks import leaks


def test_every_word_option_of_every_step_is_explained_to_a_person() -> None:
    """Each word a step may offer (rules/steps.py) has a line for a person; seats have none."""
    for step, spec in STEPS.items():
        for word in spec.words:
            assert option_help(step, word), (step, word)
    assert option_help(Step.WOLVES, "P03") == ""
    with pytest.raises(KeyError):
        option_help(Step.WOLVES, "no-such-word")


def test_a_seats_question_carries_each_options_help() -> None:
    state, events = new_game(make_config("12-A", seed=1, secret=SECRET))
    pending = pending_decision(state)
    assert pending is not None and pending.step == Step.WOLVES
    asked = decision_json(state, events, pending.seats[0], None)
    assert asked is not None
    helps = {o["option"]: o["help"] for o in asked["options"]}
    assert helps["none"] == option_help(Step.WOLVES, "none")
    assert all(h == "" for o, h in helps.items() if o != "none")


@pytest.mark.parametrize(
    ("board", "seed"), [("12-A", 2), ("12-A", 7), ("12-K", 3), ("9-standard", 4)]
)
def test_each_role_card_holds_only_what_the_seats_own_powers_told_it(board: str, seed: int) -> None:
    """The role card (me_json) of every seat, at every point of a game: the Seer's checks
    are exactly her results so far, the Witch's attacked seat exactly what she was told,
    the Knight's duel his own; every other seat's card has none of them; no card leaks."""
    config = make_config(board, seed=seed, secret=SECRET)
    state, events = play_random_game(config)
    for upto in range(1, len(events) + 1, 7):
        seen = events[:upto]
        for seat in state.seats:
            view = seat_view(state, seen, seat.id)
            card = me_json(view)
            assert leaks([card], state, seat.id) == [], (seat.id, upto)
            told_me = [e for e in seen if e.seat == seat.id]  # events for this seat alone
            results = [e for e in told_me if e.kind is EventKind.SEER_RESULT]
            checks = [(e.day, e.target, e.value) for e in results]
            if seat.role is Role.SEER:
                assert [(c["night"], c["seat"], c["result"]) for c in card["checks"]] == checks
            else:
                assert card["checks"] == []
            told = [e for e in told_me if e.kind is EventKind.WITCH_INFO]
            if seat.role is Role.WITCH and told:
                assert card["attacked"] == {"night": told[-1].day, "seat": told[-1].target}
            elif seat.role is not Role.WITCH:
                assert card["attacked"] is None
            assert (card["duel_used"] is None) is (seat.role is not Role.KNIGHT)
    seer = next(s.id for s in state.seats if s.role is Role.SEER)
    assert me_json(seat_view(state, events, seer))["checks"]  # the Seer checks on Night 1
