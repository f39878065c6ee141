"""The LLM player's second look (docs/agents.md): a legal answer that works against the
seat's own side (a wolf naming a fellow wolf, anyone choosing to explode...), or a speech
that refuses instead of playing, is asked once more; the second answer stands, whatever it
is, and both calls are recorded."""

import json
from typing import Any

from langchain_core.messages import BaseMessage

from autowerewolf.backends.config import ModelConfig
from autowerewolf.players.base import DecisionRequest
from autowerewolf.players.llm.player import LLMPlayer
from autowerewolf.rules.config import make_config
from autowerewolf.rules.engine import apply, new_game, pending_decision
from autowerewolf.rules.views import SeatView, seat_view
from tests.fakes.chat import FakeChatModel, legal_json


def wolf_at_night() -> tuple[SeatView, str, str]:
    """The first wolf's view of the Night 1 kill, a fellow wolf and a good seat."""
    state, events = new_game(make_config("12-A", seed=3))
    decision = pending_decision(state)
    while decision is None or decision.step != "wolves":
        state, more = apply(state, None, decision) if decision is None else (state, [])
        events += more
        decision = pending_decision(state)
    wolf = next(s for s in state.seats if s.is_wolf and s.id in decision.options)
    view = seat_view(state, events, wolf.id, decision)
    good = next(o for o in view.options if o.startswith("P") and o not in view.teammates)
    return view, view.teammates[0], good


def choosing(*choices: str, messages: tuple[str, ...] = ()) -> FakeChatModel:
    """A model that answers the choices in turn, with the wolf messages in turn if any (then
    keeps the last of each)."""
    asked: list[int] = []

    def respond(prompt: list[BaseMessage], schema: dict[str, Any]) -> str:
        answer = json.loads(legal_json(prompt, schema))
        answer["choice"] = choices[min(len(asked), len(choices) - 1)]
        if messages:
            answer["message"] = messages[min(len(asked), len(messages) - 1)]
        asked.append(1)
        return json.dumps(answer)

    return FakeChatModel(respond=respond)


def test_a_wolf_naming_a_fellow_wolf_is_asked_again_and_the_second_answer_stands() -> None:
    view, teammate, good = wolf_at_night()
    fake = choosing(teammate, good)
    answer = LLMPlayer(fake, "fake").decide(DecisionRequest(view=view, seed=1))
    assert answer.action.option == good
    record = answer.record
    assert len(fake.prompts) == 2 and record.retries == 0 and record.valid
    assert f"reconsidered {teammate} (your fellow wolves)" in (record.error or "")
    assert "your first answer chose your fellow wolves" in fake.prompts[1]
    assert record.raw is not None and record.raw.count("---") == 1  # both answers kept


def test_the_second_look_offers_the_first_answer_and_no_other_choice_against_the_side() -> None:
    # A second look among all the options moved the embedded model's wolves from one
    # teammate to another (seeds 24-28): only the first answer stays of those.
    view, teammate, good = wolf_at_night()
    enums: list[list[str]] = []

    def respond(prompt: list[BaseMessage], schema: dict[str, Any]) -> str:
        enums.append(schema["properties"]["choice"]["enum"])
        answer = json.loads(legal_json(prompt, schema))
        answer["choice"] = teammate if len(enums) == 1 else good
        return json.dumps(answer)

    LLMPlayer(FakeChatModel(respond=respond), "fake").decide(DecisionRequest(view=view, seed=1))
    first, again = enums
    assert first == list(view.options)
    others = {view.seat, *view.teammates} - {teammate}
    assert others and not others & set(again)
    assert again == [o for o in view.options if o not in others]
    assert teammate in again and good in again


def test_an_invalid_second_answer_is_told_the_second_looks_choices() -> None:
    # A model without a grammar may name a choice the second look no longer offers: the
    # re-prompt lists what it does offer, and after two invalid answers the first stands.
    view, teammate, _ = wolf_at_night()
    other = next(s for s in (view.seat, *view.teammates) if s != teammate)
    fake = choosing(teammate, other)
    answer = LLMPlayer(fake, "fake").decide(DecisionRequest(view=view, seed=1))
    assert len(fake.prompts) == 3 and answer.action.option == teammate
    reprompt = fake.prompts[2].rsplit("That answer was invalid", 1)[1]
    assert teammate in reprompt and other not in reprompt


def test_a_model_that_insists_keeps_its_legal_choice() -> None:
    view, teammate, _ = wolf_at_night()
    fake = choosing(teammate)
    answer = LLMPlayer(fake, "fake").decide(DecisionRequest(view=view, seed=1))
    assert answer.action.option == teammate and len(fake.prompts) == 2


def test_a_sensible_choice_and_a_probe_are_asked_once() -> None:
    view, teammate, good = wolf_at_night()
    fake = choosing(good)
    assert LLMPlayer(fake, "fake").decide(DecisionRequest(view=view, seed=1)).action.option == good
    probe = choosing(teammate)
    request = DecisionRequest(view=view, seed=1, purpose="probe")
    assert LLMPlayer(probe, "fake").decide(request).action.option == teammate
    assert len(fake.prompts) == len(probe.prompts) == 1


def test_a_refusal_instead_of_a_message_is_asked_again_and_the_second_answer_stands() -> None:
    view, _, good = wolf_at_night()
    refusal = "I'm sorry, but I can't assist with that request."
    fake = choosing(good, messages=(refusal, f"{good} is too quiet, take them."))
    answer = LLMPlayer(fake, "fake").decide(DecisionRequest(view=view, seed=1))
    assert answer.action.option == good and answer.action.text.startswith(good)
    second_look = "apologised, refused, repeated one word over and over or repeated the"
    assert len(fake.prompts) == 2 and second_look in fake.prompts[1]
    assert fake.prompts[0].endswith("then your message: what you whisper to your fellow wolves.")
    assert f"reconsidered {good} (a speech out of character)" in (answer.record.error or "")


def test_a_message_in_character_is_asked_once_even_when_it_says_i_cannot() -> None:
    view, _, good = wolf_at_night()
    for text in ("I can't trust them.", "I cannot help but notice the quiet one."):
        fake = choosing(good, messages=(text,))
        answer = LLMPlayer(fake, "fake").decide(DecisionRequest(view=view, seed=1))
        assert answer.action.text == text and len(fake.prompts) == 1


def test_with_the_second_look_off_the_first_legal_answer_stands_and_the_record_says_so() -> None:
    """A harness factor a study ablates per contestant (`second_look: false`)."""
    view, teammate, good = wolf_at_night()
    fake = choosing(teammate, good)
    bounds = ModelConfig(backend="simulated", model="m", second_look=False).bounds()
    answer = LLMPlayer(fake, "fake", bounds).decide(DecisionRequest(view=view, seed=1))
    assert answer.action.option == teammate
    assert len(fake.prompts) == 1
    assert answer.record.harness == {"reasoning": 1500, "speech": "free", "second_look": False}


def test_every_llm_record_carries_its_harness() -> None:
    view, _, good = wolf_at_night()
    local = ModelConfig(backend="local", model="m").bounds()
    answer = LLMPlayer(choosing(good), "fake", local).decide(DecisionRequest(view=view, seed=1))
    # `focused` (the local default): private reasoning before a night power such as the kill.
    assert answer.record.harness == {"reasoning": 120, "speech": "acts", "second_look": True}
