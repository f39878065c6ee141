"""What every role with a power of its own plays alike, one row a role (docs/rules.md §11,
§12): an LLM seat on the fake server is offered the power, told its rule and plays to the
end; a human seat answering through the CLI uses it; so does a PettingZoo game."""

from dataclasses import dataclass
from pathlib import Path

import pytest

from autowerewolf.prompts.table_rules import system_prompt
from autowerewolf.rules.config import make_config
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.random_play import play_random_game
from autowerewolf.rules.roles import Role
from autowerewolf.rules.views import seat_view
from tests.fakes.chat import FakeChatModel
from tests.fixed import HEX_SECRET
from tests.players.test_llm_player import play_llm_game
from tests.roles.seats import env_game, human_game, llm_preferring, preferring, seat_of_role


@dataclass(frozen=True)
class Power:
    board: str
    role: Role
    answer: str  # the option that uses the power
    kind: EventKind  # what using it leaves in the record
    offered: str  # words of the question that offers it
    rule: str  # words of the table's rules that state it


POWERS = [
    Power(
        "12-K",
        Role.KNIGHT,
        "duel",
        EventKind.DUEL,
        "As the Knight you may also answer 'duel'",
        "The Knight, once per game in his discussion turn, may duel",
    ),
    Power(
        "12-W",
        Role.WHITE_WOLF_KING,
        "explode",
        EventKind.WOLF_KING_TAKE,
        "As the White Wolf King you then name one player",
        "The White Wolf King is a werewolf who, when he self-explodes, may take",
    ),
]
each_power = pytest.mark.parametrize("power", POWERS, ids=lambda p: p.role.value)


@each_power
def test_an_llm_seat_is_offered_the_power_told_its_rule_and_uses_it(power: Power) -> None:
    fake = FakeChatModel(llm_preferring(power.answer))
    out = play_llm_game(fake, seed=4, board=power.board)
    assert out["game"].is_over
    assert [e for e in out["events"] if e.kind is power.kind]
    assert all(r.valid and not r.fallback for r in out["records"])
    assert any(power.offered in p for p in fake.prompts)
    seat = next(s.id for s in out["game"].seats if s.role is power.role)
    assert power.rule in system_prompt(seat_view(out["game"], out["events"], seat))


def turn_on_day_one(power: Power, seed: int) -> bool:
    """Whether the seat of the power's role, in the random game of `seed`, takes a turn of
    its own on Day 1 (a speech or the power itself, not last words)."""
    state, events = play_random_game(make_config(power.board, seed=seed, secret=HEX_SECRET))
    seat = next(s.id for s in state.seats if s.role is power.role)
    turns = (power.kind, EventKind.SPEECH)
    return any(
        e.day == 1 and e.actor == seat and e.kind in turns and e.value != "last_words"
        for e in events
    )


@each_power
def test_a_human_seat_uses_the_power_through_the_cli(power: Power, tmp_path: Path) -> None:
    # The night and the others' answers are the random game's: its seat lives to a turn.
    seed = next(s for s in range(20) if turn_on_day_one(power, s))
    seat = seat_of_role(power.board, seed, HEX_SECRET, power.role)
    choose = preferring(power.answer, "pass")
    record = human_game(power.board, seed, HEX_SECRET, seat, choose, tmp_path)
    assert [e.actor for e in record.events if e.kind is power.kind] == [seat]


@each_power
def test_the_environment_plays_a_game_in_which_the_power_is_used(power: Power) -> None:
    events = env_game(power.board, 3, power.answer)
    assert [e for e in events if e.kind is power.kind]
