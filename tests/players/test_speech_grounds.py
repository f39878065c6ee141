"""Grounds (prompts/grounds.py): a structured speaker's reason, and its whisper's, is one of
the public facts it saw, said only where it bears on the act; an answer resting on grounds is
judged by its acts, not as free text; and the grounds a seat is offered hold nothing the rest
of the table did not see (RULES §9: a seat's view)."""

import json
from dataclasses import replace
from random import Random
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from langchain_core.messages import BaseMessage
from pydantic import ValidationError

from autowerewolf.evaluation.export.chat import answer_message
from autowerewolf.players.base import DecisionRequest
from autowerewolf.players.llm.calls import run_calls
from autowerewolf.players.llm.player import LLMPlayer, _choice
from autowerewolf.players.records import DecisionRecord
from autowerewolf.prompts.answers import COMPACT, answer_schema
from autowerewolf.prompts.grounds import NO_GROUND, grounds
from autowerewolf.prompts.recall import FactsLedger
from autowerewolf.prompts.seat_prompt import decision_question, question_grounds
from autowerewolf.prompts.second_look import out_of_character, speech_out_of_character
from autowerewolf.prompts.speech_acts import phrases, render, render_whisper
from autowerewolf.rules.config import BOARDS, make_config
from autowerewolf.rules.decisions import Action
from autowerewolf.rules.engine import apply, is_terminal, new_game, pending_decision
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.random_play import random_answers
from autowerewolf.rules.roles import Role
from autowerewolf.rules.views import SeatView, public_players, seat_view
from tests.fakes.chat import FakeChatModel, legal_json
from tests.players.test_reconsider import wolf_at_night
from tests.players.test_speech_acts import act
from tests.rules.test_properties import legal, variant_sets

ACTS = replace(COMPACT, speech_acts=True)


def test_grounds_are_the_public_facts_about_living_seats_strongest_first() -> None:
    offered = grounds(
        living=("P01", "P02", "P03", "P05"),
        claims={"P03": "seer", "P02": "villager", "P09": "witch"},  # P09 is dead
        named_wolves={"P05": ["P03"]},
        accused={"P01": "P05", "P09": "P11"},  # the dead accusing the dead: no living seat
        votes={1: [("P01", "P09")], 2: [("P01", "P05"), ("P02", None), ("P03", "P05")]},
        wolf_allies={"P02": "P07"},
    )
    assert offered == (
        "P02 claimed to be a villager",
        "P03 claimed to be the Seer",
        "P03 called P05 a wolf",
        "P02 voted with the exposed wolf P07",
        "P01 suspected P05",
        # the latest day's ballots only, an abstention left out
        "P01 voted to exile P05 on day 2",
        "P03 voted to exile P05 on day 2",
    )  # "no evidence yet" only while there is none: a seat with grounds may not pass
    assert grounds((), {}, {}, {}, {}, {}) == (NO_GROUND,)


def test_an_accusation_is_noted_from_the_speech_as_the_table_heard_it() -> None:
    ledger = FactsLedger()
    for actor, text in (
        ("P02", "I suspect P05: P05 voted to exile P03 on day 1."),
        ("P04", "I suspect P04."),  # itself: not an accusation
        ("P02", "I suspect P06."),  # the latest one counts
    ):
        said = Event(kind=EventKind.SPEECH, day=1, phase="day", audience=Audience.PUBLIC,
                     actor=actor, text=text)  # fmt: skip
        ledger.observe(said)
    assert ledger.accused == {"P02": "P06"}


@pytest.mark.parametrize(
    ("said", "heard"),
    [
        (act("accuse", "P05", because="P05 voted to exile P03 on day 1"),
         "I suspect P05: P05 voted to exile P03 on day 1."),
        (act("vouch", "P03", because="P03 called P05 a wolf"),
         "I trust P03: P03 called P05 a wolf."),
        # A ground about someone else reads as nonsense: the act alone.
        (act("accuse", "P05", because="P02 claimed to be the Seer"), "I suspect P05."),
        (act("accuse", "P05", because=NO_GROUND), "I suspect P05."),
        (act("defend", because="P02 suspected P07"), "I am not a wolf: P02 suspected me."),
        (act("vouch", "P01", because="P01 voted to exile P07 on day 3"),
         "I trust P01: P01 voted to exile me on day 3."),
        (act("defend", because="P02 suspected P04"), "I am not a wolf."),
        (act("claim", role="seer", because="P02 claimed to be the Seer"),
         "I am the seer: P02 claimed to be the Seer."),  # a counterclaim
        (act("claim", role="witch", because="P02 claimed to be the Seer"), "I am the witch."),
        # Its own earlier claim would be a second role; another's doubt may be answered.
        (act("claim", role="witch", because="P07 claimed to be the Seer"), "I am the witch."),
        (act("claim", role="seer", because="P02 suspected P07"),
         "I am the seer: P02 suspected me."),
        (act("pass", because="P02 suspected P07"), "I have nothing to add."),
        (act("saved", "P02", because="P02 claimed to be the Witch"),
         "I am the Witch, and I saved P02 from the wolves."),
        (act("accuse", "P06", because="P07 suspected P06"), "I suspect P06."),  # its own
        (act("defend", because="P07 voted to exile P02 on day 1"),
         "I am not a wolf: I voted to exile P02 on day 1."),
        (act("follow_sheriff", because="P02 suspected P07"), "I will vote with the sheriff."),
        (act("check", "P05", result="wolf", because="P05 voted to exile P03 on day 1"),
         "I am the Seer, and my check found P05 a wolf: P05 voted to exile P03 on day 1."),
    ],
)  # fmt: skip
def test_a_ground_is_said_only_where_it_bears_on_the_act(said: dict[str, str], heard: str) -> None:
    assert render([said], "P07") == heard


def test_a_seat_with_grounds_to_speak_to_may_not_pass() -> None:
    seats, roles = ("P01", "P02", "P03"), ("werewolf", "villager")
    assert "pass" in phrases("P01", Role.VILLAGER, seats, roles)
    assert "pass" in phrases("P01", Role.VILLAGER, seats, roles, grounds=(NO_GROUND,))
    grounded = phrases("P01", Role.VILLAGER, seats, roles, grounds=("P02 suspected P03",))
    assert "pass" not in grounded and {"defend", "follow_sheriff", "accuse P03"} <= set(grounded)


def test_a_whisper_is_its_target_and_a_ground_about_it() -> None:
    assert render_whisper("P05", "P05 claimed to be the Seer") == (
        "Let us kill P05: P05 claimed to be the Seer."
    )
    assert render_whisper("P05", "P02 suspected P09") == "Let us kill P05."
    assert render_whisper("P05", NO_GROUND) == "Let us kill P05."
    assert render_whisper("none", "P02 suspected P09") == "Let us kill nobody tonight."


def test_a_structured_answer_offers_only_the_grounds_and_no_free_text() -> None:
    offered = ("P02 suspected P05", NO_GROUND)
    whisper = answer_schema("message", ("P05", "none"), ACTS, (), offered)
    assert "message" not in whisper.model_fields
    chosen = whisper.model_validate({"reasoning": "", "choice": "P05", "because": offered[0]})
    assert _choice(chosen, ("P05", "none"), "P01").text == "Let us kill P05: P02 suspected P05."
    with pytest.raises(ValidationError):
        whisper.model_validate({"reasoning": "", "choice": "P05", "because": "he is loud"})
    speech = answer_schema("speech", ("speak",), ACTS, ("accuse P05", "pass"), offered)
    answer = {"choice": "speak", "acts": [{"because": "I am P05, seat P01", "say": "pass"}]}
    with pytest.raises(ValidationError):
        speech.model_validate({"reasoning": "", **answer})
    # Free speakers keep their free texts.
    free = answer_schema("message", ("P05", "none"), COMPACT, (), offered)
    assert "message" in free.model_fields and "because" not in free.model_fields


def record(text: str, data: dict[str, object], prompt: str) -> DecisionRecord:
    return DecisionRecord(seat="P07", player="llm", day=2, step="discussion", key="discussion",
                          options=("speak",), option="speak", text=text, data=data,
                          prompt=prompt)  # fmt: skip


def test_an_answer_resting_on_grounds_is_judged_by_its_acts_not_as_a_copy() -> None:
    """A grounded answer's words are the renderer's, not a copy of the prompt that holds
    them. A free reason that says the same (games before grounds) is judged as free text."""
    heard = "I suspect P05: P05 voted to exile P03 on day 1, P03 voted to exile P05 on day 1."
    prompt = f"D2 P02: {heard}"
    grounded = {"acts": [act("accuse", "P05", because="P05 voted to exile P03 on day 1")]}
    assert not speech_out_of_character(record(heard, grounded, prompt), Role.VILLAGER, {}, [])
    free = {"acts": [{**act("accuse", "P05"), "reason": "P05 voted ..."}]}
    free["acts"][0].pop("because")
    assert speech_out_of_character(record(heard, free, prompt), Role.VILLAGER, {}, [])
    # Its acts still are: a Seer reporting a check she never made.
    lie = {"acts": [act("check", "P05", result="wolf")]}
    assert speech_out_of_character(record("I am the Seer ...", lie, ""), Role.SEER, {}, [])


SPOKEN = (
    "I suspect {seat}.",
    "I am the Seer, and my check found {seat} a wolf.",
    "I trust {seat}.",
)


@settings(max_examples=20, deadline=None)
@given(
    board=st.sampled_from(sorted(BOARDS)),
    variants=variant_sets,
    seed=st.integers(0, 2**32 - 1),
)
@example(  # one discussion speech a day, and the game over before a question follows one
    board="9-standard",
    variants={"allow_wolf_self_knife": True, "last_words": False, "exile_vote": "roll_call",
              "discussion": "bidding", "speaking_start": "after_deaths", "discussion_turns": 1,
              "exile_tie": "pk", "wolves_must_kill": False, "seer_result": "camp"},
    seed=0,
)  # fmt: skip
def test_every_seat_is_offered_the_same_grounds(
    board: str, variants: dict[str, object], seed: int
) -> None:
    """A ground is said aloud, so it must hold only what the whole table saw: at any step,
    every seat, wolf or good, living or dead, is offered the same grounds. A ground drawn
    from a check, a potion or a wolves' whisper would differ between seats and fail here.
    Random speeches claim, accuse and report, so there are grounds to compare."""
    config = make_config(board, variants=legal(board, variants), seed=seed)
    state, events = new_game(config)
    speaker = Random(seed)
    compared = after_speeches = 0
    said: set[str] = set()
    while not is_terminal(state):
        decision = pending_decision(state)
        answers = random_answers(seed, decision) if decision is not None else {}
        if decision is not None and decision.step in ("discussion", "wolves"):
            after_speeches += any(e.kind is EventKind.SPEECH and e.text in said for e in events)
            players = public_players(state)
            views = [seat_view(state, events, s.id, decision, players) for s in state.seats]
            offered = {question_grounds(v, decision_question(v, decision.step)) for v in views}
            assert len(offered) == 1, offered
            compared += len(set(next(iter(offered))) - {NO_GROUND})
            seats = [s.id for s in state.seats]
            answers = {
                seat: Action(
                    option=a.option,
                    text=speaker.choice(SPOKEN).format(seat=speaker.choice(seats)),
                )
                for seat, a in answers.items()
            }
            said.update(a.text for a in answers.values())
        state, new_events = apply(state, answers, decision)
        events.extend(new_events)
    # A game whose every question came before any of these speeches has nothing to compare
    # (one discussion speech a day on a board that ends early).
    assert compared or not after_speeches


def wolf_speaking() -> tuple[SeatView, str]:
    """A wolf's view of its Day-1 discussion speech, and a good seat."""
    state, events = new_game(make_config("12-A", seed=3))
    target = next(s.id for s in state.seats if not s.is_wolf)
    while True:
        decision = pending_decision(state)
        assert not is_terminal(state)
        wolves = [] if decision is None else [s for s in decision.options if state.seat(s).is_wolf]
        if decision is not None and decision.step == "discussion" and wolves:
            return seat_view(state, events, wolves[0], decision), target
        answers = random_answers(3, decision) if decision is not None else None
        state, more = apply(state, answers, decision)
        events.extend(more)


def test_a_grounded_speech_is_judged_by_its_acts_not_the_renderers_words() -> None:
    """The model chose an act and a ground; the sentence is the renderer's. Here it repeats
    a note of the question word for word, which as free text would be a copy of the prompt
    and asked again."""
    view, target = wolf_speaking()
    note = f"Someone said: I am the Seer, and my check found {target} a wolf."

    def respond(prompt: list[BaseMessage], schema: dict[str, Any]) -> str:
        answer = json.loads(legal_json(prompt, schema))
        answer["acts"] = [{**answer["acts"][0], "say": f"check {target} wolf"}]
        return json.dumps(answer)

    fake = FakeChatModel(respond=respond)
    player = LLMPlayer(fake, "fake", ACTS)
    answer = run_calls(player.answer(DecisionRequest(view=view, seed=1), (note,)), fake)
    assert answer.action.text.startswith(f"I am the Seer, and my check found {target} a wolf")
    assert out_of_character(answer.action.text, fake.prompts[0])  # as free text: a copy
    assert len(fake.prompts) == 1 and answer.record.data is not None
    assert answer.record.data["acts"][0]["act"] == "check"


def test_a_structured_whisper_is_recorded_with_its_ground() -> None:
    view, _, good = wolf_at_night()

    def respond(prompt: list[BaseMessage], schema: dict[str, Any]) -> str:
        return json.dumps({**json.loads(legal_json(prompt, schema)), "choice": good})

    answer = LLMPlayer(FakeChatModel(respond=respond), "fake", ACTS).decide(
        DecisionRequest(view=view, seed=1)
    )
    assert answer.record.data == {"because": NO_GROUND}  # nothing seen on Night 1
    assert answer.action.text == f"Let us kill {good}."


def test_a_structured_answer_is_exported_as_it_was_given() -> None:
    """The chat export's answer (evaluation/export/chat.py) has the shape the seat answered
    in: acts with their grounds, a whisper's ground; old acts with a free reason too."""
    grounded = act("check", "P05", result="wolf", because="P05 voted to exile P03 on day 1")
    speech = record("I am the Seer ...", {"acts": [grounded]}, "")
    content = json.loads(answer_message(speech)["content"])
    assert content["acts"] == [{"because": grounded["because"], "say": "check P05 wolf"}]
    assert "speech" not in content
    whisper = DecisionRecord(seat="P01", player="llm", day=1, step="wolves", key="wolves",
                             options=("P05", "none"), option="P05", text="Let us kill P05.",
                             data={"because": NO_GROUND})  # fmt: skip
    assert json.loads(answer_message(whisper)["content"])["because"] == NO_GROUND
    old = {**act("claim", role="seer"), "reason": "trust me"}
    old.pop("because")
    content = json.loads(answer_message(record("I am the seer.", {"acts": [old]}, ""))["content"])
    assert content["acts"] == [{"because": "trust me", "say": "claim seer"}]
