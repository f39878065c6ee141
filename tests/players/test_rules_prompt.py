"""The rules an LLM seat is told follow its board's flags (docs/agents.md, "Memory and
determinism"): on the `kaggle` board Kaggle's rules, and no sentence of the rulebook's that the
board changes (Kaggle's own moderator text is known to promise one protocol while running
another: kaggle-environments#1031)."""

import pytest

from autowerewolf.prompts.question import decision_instruction, prompt_key
from autowerewolf.prompts.table_rules import fragments, system_prompt
from autowerewolf.rules.config import BOARDS, make_config
from autowerewolf.rules.engine import new_game
from autowerewolf.rules.roles import Role
from autowerewolf.rules.steps import STEPS
from autowerewolf.rules.views import SeatView, seat_view
from tests.fakes.chat import FakeChatModel
from tests.players.test_llm_player import play_llm_game


def view_of(board: str, role: Role) -> SeatView:
    state, events = new_game(make_config(board, seed=1))
    seat = next(s.id for s in state.seats if s.role is role)
    return seat_view(state, events, seat)


def test_the_kaggle_rules_text() -> None:
    text = system_prompt(view_of("kaggle", Role.GUARD))
    told = [
        "2 werewolves, 4 villagers, 1 seer, 1 guard",
        "(if none of them names a victim, one is drawn at random)",
        "the Seer learns one player's role",
        "the Guard protects one player from the wolves (he is told when it saves the victim)",
        "deaths are announced with each dead player's role, and an exiled player's role is "
        "revealed too",
        "every living player speaks twice, in 2 rounds in the same order, starting from a "
        "random seat each day",
        "the players vote one at a time, in turn from a random seat",
        "each ballot is public as soon as it is cast",
        "A player may vote to exile himself.",
        "A tie is broken by a random draw among the tied players.",
        "If everyone abstains, a random living player is exiled.",
        "There are no last words",
        "The werewolves win when they equal or outnumber the good players.",
        "you are told when your protection saves the wolves' victim",
    ]
    assert [t for t in told if t not in text] == []
    not_told = [
        "Roles stay hidden on death",
        "the tied players speak again",
        "Last words: players who die",
        "sheriff",
        "self-explode",
        "never the same",
        "Witch",
        "poison",
        "whether one player is a wolf",
    ]
    assert [t for t in not_told if t in text] == []


def test_the_rulebook_text_is_kept_on_its_boards() -> None:
    text = system_prompt(view_of("12-A", Role.GUARD))
    for sentence in (
        "Roles stay hidden on death unless revealed",
        "On a tie, the tied players speak again and the others revote; a second tie exiles nobody.",
        "Last words: players who die on Night 1 and every exiled player may speak once more.",
        "the Seer checks whether one player is a wolf",
        "never the same player two nights running",
        "A player both guarded and saved by the Witch still dies",
    ):
        assert sentence in text
    assert "vote to exile himself" not in text and "random draw" not in text


def test_kaggle_decisions_are_worded_for_its_rules() -> None:
    rules = view_of("kaggle", Role.SEER).rules
    seer = decision_instruction("seer", 1, None, rules)
    guard = decision_instruction("guard", 1, None, rules)
    wolves = decision_instruction("wolves", 1, None, rules)
    roll_call = decision_instruction(prompt_key("exile_roll_call"), 2, None, rules)
    assert "You will learn that player's role." in seer
    assert "two nights in a row" not in guard
    assert "'none' is an abstention" in wolves
    assert "roll call" in roll_call and "public at once" in roll_call
    default = decision_instruction("guard", 1, None, view_of("12-A", Role.GUARD).rules)
    assert "You cannot protect the same player two nights in a row." in default


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_every_step_has_wording_on_every_board(board: str) -> None:
    rules = view_of(board, Role.VILLAGER).rules
    for step, spec in STEPS.items():
        if spec.prompt is not None:
            assert decision_instruction(spec.prompt, 1, "P01", rules), step


def _prompts_of_a_game(board: str, seed: int) -> list[str]:
    fake = FakeChatModel()
    play_llm_game(fake, seed=seed, board=board)
    return fake.prompts


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_every_question_a_seat_reads_follows_its_boards_flags(board: str) -> None:
    """RULES §2 and the board's flags: the questions an LLM seat is actually sent (through the
    player, the fake server recording them) word every rule fragment as its own board does,
    and never as another board's flags would. Walks every fragment and every wording any
    board gives it."""
    rules = view_of(board, Role.VILLAGER).rules
    mine = fragments(rules)
    others = {
        (key, text)
        for other in BOARDS
        for key, text in fragments(view_of(other, Role.VILLAGER).rules).items()
        if text.strip() and text != mine[key] and text not in "".join(mine.values())
    }
    prompts = "\n".join(_prompts_of_a_game(board, seed=1) + _prompts_of_a_game(board, seed=2))
    assert sorted((k, t) for k, t in others if t in prompts) == []
    # The Seer's and the Guard's own questions carry their board's wording.
    if Role.GUARD in rules.roles:
        assert ("two nights in a row" in prompts) == rules.variants.guard_no_repeat
    if Role.SEER in rules.roles:
        assert mine["seer_check"] in prompts


def test_a_person_reads_each_question_without_the_words_meant_for_a_model() -> None:
    """A human seat's question (web app, CLI) leaves out the advice and answer-format lines
    marked for models in decisions.yaml; a model's question keeps them, unmarked."""
    rules = view_of("12-A", Role.WITCH).rules
    for step, spec in STEPS.items():
        if not spec.prompt:
            continue
        model = decision_instruction(spec.prompt, 1, "P01", rules)
        person = decision_instruction(spec.prompt, 1, "P01", rules, person=True)
        assert "[[" not in model and "]]" not in model and "[[" not in person, step
        assert person and len(person) <= len(model), step
        for advice in ("Choose 'speak'", "a guess usually kills a friend", "worth the most",
                       "usually a good player", "evidence points at"):  # fmt: skip
            assert advice not in person, (step, person)
    poison = decision_instruction("witch_poison", 1, None, rules)
    assert "a guess usually kills a friend" in poison
    assert decision_instruction("witch_poison", 1, None, rules, person=True) == (
        "Night 1: your poison kills at once and you have only one."
    )
    wolves = decision_instruction("wolves", 1, None, rules, person=True)
    assert "one of the choices, and write" in wolves
