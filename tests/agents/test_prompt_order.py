"""Decision prompts name the seat's own id and its teammates before the question, never last
before the choices (a small model copies the last seat it read), and label each listed
choice with who that seat is to the player (the seat itself, where listed, as "you")."""

import json
import re
from dataclasses import dataclass
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from autowerewolf.players.agents.choice import AgentChoice
from autowerewolf.players.base import DecisionRequest
from autowerewolf.players.llm.player import LLMPlayer
from autowerewolf.prompts.choices import Known, choices_text, lists_seats, option_labels
from autowerewolf.prompts.question import ANSWER_LINES, IDENTITY_LINE
from autowerewolf.prompts.recall import remember
from autowerewolf.prompts.seat_prompt import decision_question
from autowerewolf.prompts.second_look import against_own_side
from autowerewolf.rules.decisions import Action
from autowerewolf.rules.roles import Role
from autowerewolf.rules.views import SeatView, seat_view
from tests.agents.helpers import play
from tests.fakes.chat import FakeChatModel, legal_json, seat_of
from tests.rules.rules_helpers import Game

SEAT = re.compile(r"\bP\d{2}\b")


def listed_seats(choices: str) -> list[str]:
    """The seats listed among the choices, without the seats their tags name."""
    listed = choices.split(". Also legal")[0]
    return SEAT.findall(re.sub(r"\([^)]*\)", "", listed))


@dataclass(frozen=True)
class Played:
    prompts: list[str]
    wolves: set[str]


@pytest.fixture(scope="module")
def adaptive_game() -> Played:
    """One fake-model game of `adaptive` seats, whose prompts two tests read."""
    fake = FakeChatModel()
    out = play(fake, seed=7, agents=AgentChoice(default="adaptive"))
    return Played(fake.prompts, {s.id for s in out["game"].seats if s.is_wolf})


def test_the_last_seat_named_before_the_choices_is_never_the_seat_itself(
    adaptive_game: Played,
) -> None:
    wolves = adaptive_game.wolves
    checked = 0
    for prompt in adaptive_game.prompts:
        if "\nChoices: " not in prompt:
            continue
        me = seat_of(prompt)
        before, after = prompt.rsplit("\nChoices: ", 1)
        # The question opens with who the seat is (its id too: the system prompt names no
        # seat, prompts/question.py); after that line, its own id is never the last one.
        identity = IDENTITY_LINE.findall(before)[-1]
        assert identity[1] == me and before.count(f"seat {me}") == 1
        named = SEAT.findall(IDENTITY_LINE.sub("", before.rsplit("Game so far:", 1)[-1]))
        choices = after.split("\n")[0]
        listed = listed_seats(choices)
        # Only a choice among seats can be copied from the last seat read.
        assert not (listed and named) or named[-1] != me, prompt[-600:]
        if me in listed:  # e.g. a Guard may protect itself: then it is marked as itself
            assert re.search(rf"\b{me} \((?:[^)]*, )?you\b", choices), choices
        if me in wolves:
            assert not set(listed) & wolves, after
        checked += 1
    assert checked > 50


def test_the_seer_sees_its_results_on_its_choices() -> None:
    fake = FakeChatModel()
    out = play(fake, seed=2, agents=AgentChoice())  # a game whose Seer votes after checking
    seer = next(s.id for s in out["game"].seats if s.role.value == "seer")
    votes = [
        p.rsplit("\nChoices: ", 1)[1]
        for p in fake.prompts
        if seat_of(p) == seer and "vote to exile" in p and "\nD1 [seer] " in p
    ]
    assert votes
    assert any("you checked: wolf" in v or "players you checked as good" in v for v in votes)


def test_a_choice_of_seats_has_its_facts_on_its_labels_and_no_ledger(
    adaptive_game: Played,
) -> None:
    # The ledger was about a quarter of what each embedded-model call computed anew; a
    # choice of seats says the same on its labels. Other questions keep it.
    seat_choices = speeches = 0
    for prompt in adaptive_game.prompts:
        question = prompt.rsplit("Game so far:", 1)[-1].split("\n\n", 1)[-1]
        choices = re.search(r"\nChoices: [^\n]*", question)
        if choices and lists_seats(choices[0][1:]):
            seat_choices += 1
            assert "Facts you noted" not in question, question
        elif "Dead: " in question or "Role claims: " in question:
            speeches += "speech" in question
    assert seat_choices > 50 and speeches > 10, (seat_choices, speeches)


def test_a_wolfs_explosion_is_told_before_the_question_never_among_the_choices(
    adaptive_game: Played,
) -> None:
    # Named last among the choices, 'explode' was chosen at 33 of 36 wolf speeches by the
    # embedded model (docs/agents.md); it stays legal and is told before the question.
    wolves = adaptive_game.wolves
    told = 0
    for prompt in adaptive_game.prompts:
        me = seat_of(prompt)
        question = prompt.rsplit("\n\n", 1)[-1]
        assert "'explode'" not in question, question
        if "answer 'explode' instead" in prompt:
            assert me in wolves
            told += 1
        elif me in wolves and "your turn to speak" in question:
            raise AssertionError(f"a wolf's speech without the explosion note: {prompt[-400:]}")
    assert told > 3


def test_the_witch_sees_whom_she_saved_and_poisoning_them_is_against_her_side() -> None:
    # 12-A: P10 the Witch saved P05 from the wolves on Night 1; on Night 2 she may poison.
    g = Game().night("P05", save=True).no_election().speak_all().answer()
    while g.step != "witch_poison":
        (who,) = g.pending.options
        g.answer({who: "P06" if g.step == "wolves" else g.options(who)[-1]})
    view = seat_view(g.state, g.events, "P10", g.pending)
    memory = remember(view)
    known = Known(saved=memory.ledger.saved())
    assert known.saved == {"P05"}
    choices = choices_text(view, "witch_poison", known)
    assert "P05" not in choices and "the player you saved from the wolves" in choices
    assert against_own_side(view, known, "witch_poison", "P05") is not None
    assert "you saved them from the wolves" in option_labels(view, known)["P05"]


def _witch_at_night_two(**said: str) -> tuple[SeatView, Known]:
    """12-A (P01-P04 wolves, P09 Seer, P10 Witch): seats say `said` in Day 1's discussion;
    the view and knowledge of the Witch at her Night-2 poison."""
    g = Game().night("P05", save=True).no_election()
    while g.step == "discussion":
        (who,) = g.pending.options
        text = said.get(who, f"{who} has nothing to add.")
        g.raw({who: Action(option="speak", text=text)}).auto()
    g.vote()  # every seat abstains or takes its default
    while g.step != "witch_poison":
        (who,) = g.pending.options
        g.answer({who: "P06" if g.step == "wolves" else g.options(who)[-1]})
    view = seat_view(g.state, g.events, "P10", g.pending)
    return view, decision_question(view, "witch_poison").known


def test_without_evidence_the_witch_is_offered_only_to_keep_her_poison() -> None:
    """A poison on a guess usually kills a good player (issue 27: 6 of 8 did); every seat
    stays legal, but only 'none' is listed (RULES.md: the poison kills any living player)."""
    view, known = _witch_at_night_two()
    choices = choices_text(view, "witch_poison", known)
    assert listed_seats(choices) == [], choices
    assert choices.startswith("Choices: none. Also legal: the ")
    assert "nothing you have seen is firm evidence of a wolf" in choices
    assert "P03" in view.options


def test_one_report_of_a_wolf_is_labelled_but_two_list_him_among_the_poison_targets() -> None:
    """Wolves claim the Seer too: on the embedded model every report of a wolf was a bluff or
    a copy, and Witches poisoned the real Seer on them. Two seats' reports are evidence: if
    either is the Seer, the seat is a wolf."""
    report = "I am the Seer, and my check found P03 a wolf: I saw it."
    view, known = _witch_at_night_two(P09=report)
    assert known.named_wolves == {"P03": ["P09"]}
    one = choices_text(view, "witch_poison", known)
    assert listed_seats(one) == [], one
    assert "P09 reported a check that found them a wolf" in option_labels(view, known)["P03"]

    view, known = _witch_at_night_two(P09=report, P06="I am the Seer: my check found P03 a wolf.")
    two = choices_text(view, "witch_poison", known)
    assert listed_seats(two) == ["P03"], two
    assert "P03 (" in two and "reported checks that found them a wolf" in two


def test_a_seat_claiming_the_witchs_own_role_is_listed_as_a_liar() -> None:
    """Each power role is dealt once (RULES.md: the 12-A board), so another seat's claim of
    the Witch's role is a lie only she can see: evidence for her poison. Another role's
    claim is not, and the tag is hers alone: to a villager, it is just a claim."""
    view, known = _witch_at_night_two(P03="I am the Witch: trust me.", P07="I am the Guard.")
    assert known.claims == {"P03": "witch", "P07": "guard"}
    choices = choices_text(view, "witch_poison", known)
    assert listed_seats(choices) == ["P03"], choices
    assert "claims witch, your own role: a lie" in choices
    assert "claims guard" in option_labels(view, known)["P07"]
    assert "a lie" not in option_labels(view, known)["P07"]
    villager = view.model_copy(update={"seat": "P05", "role": Role.VILLAGER})
    assert option_labels(villager, known)["P03"].endswith("claims witch")


def test_the_answer_line_says_what_text_the_step_takes(adaptive_game: Played) -> None:
    """Told nothing, the embedded model wrote an assistant's refusal where the grammar made it
    write a speech (docs/agents.md); the last line before the answer says what it writes."""
    speeches = [p for p in adaptive_game.prompts if "\nChoices: speak" in p]
    ballots = [p for p in adaptive_game.prompts if "exile the player you most suspect" in p]
    assert speeches and ballots
    # A speech in acts (the embedded model's default) is told the acts' phrases.
    told = (ANSWER_LINES["speech"], ANSWER_LINES["acts"])
    assert all(p.endswith(told) for p in speeches)
    # The local default (`focused`) asks a ballot for no private reasoning.
    assert all(p.endswith("\nAnswer with your choice.") for p in ballots)


def _answering(*choices: str) -> tuple[FakeChatModel, list[list[str]]]:
    """A model that answers `choices` in turn, and the choices each call offered it."""
    offered: list[list[str]] = []

    def respond(prompt: list[BaseMessage], schema: dict[str, Any]) -> str:
        offered.append(schema["properties"]["choice"]["enum"])
        answer = json.loads(legal_json(prompt, schema))
        answer["choice"] = choices[min(len(offered), len(choices)) - 1]
        return json.dumps(answer)

    return FakeChatModel(respond=respond), offered


def test_a_poison_on_a_guess_is_asked_again_among_none_and_the_seats_with_evidence() -> None:
    """Over the served model's games every poison on a good player was at a seat nothing
    pointed at (5 of 6 such poisons hit a good player; all 11 with evidence hit a wolf):
    such a poison gets a second look that offers 'none', the first answer and the seats
    with evidence, and the second answer stands."""
    view, _ = _witch_at_night_two(P03="I am the Witch: trust me.")
    fake, offered = _answering("P06", "none")
    answer = LLMPlayer(fake, "fake").decide(DecisionRequest(view=view, seed=1))
    assert answer.action.option == "none"
    assert "reconsidered P06 (a kill with no evidence)" in (answer.record.error or "")
    assert "aimed your poison at a player nothing you have seen points at" in fake.prompts[1]
    first, again = offered
    assert first == list(view.options)
    assert set(again) == {"P06", "P03", "none"}


def test_a_poison_with_evidence_is_asked_once() -> None:
    view, _ = _witch_at_night_two(P03="I am the Witch: trust me.")
    fake, offered = _answering("P03")
    answer = LLMPlayer(fake, "fake").decide(DecisionRequest(view=view, seed=1))
    assert answer.action.option == "P03" and len(offered) == 1
    assert answer.record.error is None
