"""The Knight's words (docs/rules.md §11): the table's rules name the duel on 12-K only, the
duel's event reads its outcome, and the second look at a duel nothing points at can only
change its target (the step has no 'none')."""

from autowerewolf.prompts.render import describe
from autowerewolf.prompts.second_look import no_evidence_note
from autowerewolf.prompts.table_rules import system_prompt
from autowerewolf.rules.config import make_config
from autowerewolf.rules.engine import new_game
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.state import Step
from autowerewolf.rules.views import seat_view

KNIGHT_RULE = "The Knight, once per game in his discussion turn, may duel a player"


def rules_of(board: str) -> str:
    state, events = new_game(make_config(board, seed=1))
    return system_prompt(seat_view(state, events, "P01"))


def test_only_a_knight_board_tells_the_duel() -> None:
    assert KNIGHT_RULE in rules_of("12-K")
    assert KNIGHT_RULE not in rules_of("12-A")


def duel(value: str) -> Event:
    return Event(
        kind=EventKind.DUEL, day=2, phase=Step.DUEL, audience=Audience.PUBLIC,
        actor="P12", target="P03", value=value,
    )  # fmt: skip


def test_the_duel_reads_its_outcome() -> None:
    assert describe(duel("wolf")) == (
        "P12 reveals as the Knight and duels P03: P03 is a werewolf and dies; night falls."
    )
    assert describe(duel("good")) == (
        "P12 reveals as the Knight and duels P03: P03 is good, so the Knight dies."
    )


def test_the_second_look_at_a_duel_asks_for_another_target_not_none() -> None:
    note = no_evidence_note(Step.DUEL)
    assert "your duel" in note and "choose another player" in note and "'none'" not in note
    assert "choose 'none' and keep your poison" in no_evidence_note(Step.WITCH_POISON)
