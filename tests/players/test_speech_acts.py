"""Structured speeches (prompts/speech_acts.py) and the widened out-of-character check
(prompts/second_look.py): a small model's speech as acts about legal seats, rendered into
the sentence the table hears; a speech that recites its prompt, or a Seer reporting a check
she never made, gets a second look and counts as out of character."""

import re
from dataclasses import replace

import pytest
from pydantic import ValidationError

from autowerewolf.backends.config import ModelConfig
from autowerewolf.backends.simulated import SimulatedChatModel
from autowerewolf.graph.builder import RECURSION_LIMIT, build_graph
from autowerewolf.graph.context import GameContext
from autowerewolf.players.llm.player import LLMPlayer
from autowerewolf.players.seating import Seating
from autowerewolf.prompts.answers import COMPACT, answer_schema
from autowerewolf.prompts.grounds import NO_GROUND
from autowerewolf.prompts.question import ANSWER_LINES, decision_tail, identity_line
from autowerewolf.prompts.second_look import (
    copies_prompt,
    out_of_character,
)
from autowerewolf.prompts.speech_acts import contradiction, phrases, render, spoken
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.roles import Role
from autowerewolf.rules.step_spec import TextKind
from autowerewolf.rules.views import SeatView, seat_view
from tests.fixed import SECRET
from tests.rules.rules_helpers import Game

ACTS = replace(COMPACT, speech_acts=True)
SEATS = ("P01", "P02", "P05")
ROLES = ("werewolf", "villager", "seer")
# What a wolf at P01 may say: any seat but its own, any good role, any check or save (bluffs).
WOLF_PHRASES = phrases("P01", Role.WEREWOLF, SEATS, ROLES)


def act(kind: str, seat: str = "none", **more: str) -> dict[str, str]:
    return {"act": kind, "seat": seat, "role": "none", "result": "none", "because": NO_GROUND,
            **more}  # fmt: skip


def test_each_act_reads_as_a_sentence() -> None:
    spoken = render(
        [
            act("claim", role="seer", because="P03 claimed to be the Seer"),
            act("check", "P05", result="wolf"),
            act("accuse", "P02", because="P02 voted to exile P07 on day 1"),
        ],
        "P07",
    )
    assert spoken == (
        "I am the seer: P03 claimed to be the Seer. I am the Seer, and my check found P05 a "
        "wolf. I suspect P02: P02 voted to exile me on day 1."
    )
    assert render([act("vouch", "P01")], "P07") == "I trust P01."
    assert render([act("pass")], "P07") == "I have nothing to add."
    assert render([act("accuse")], "P07") == "I have nothing to add."  # no seat: no accusation


def said(phrase: str, because: str = NO_GROUND) -> dict[str, str]:
    return {"say": phrase, "because": because}


def test_a_structured_speech_names_only_legal_seats_and_roles() -> None:
    schema = answer_schema("speech", ("speak",), ACTS, WOLF_PHRASES)
    good = {"reasoning": "", "choice": "speak", "acts": [said("claim seer")]}
    assert schema.model_validate(good)
    for bad in (
        {**good, "acts": [said("accuse P09")]},  # not a seat at the table
        {**good, "acts": [said("accuse P01")]},  # the speaker itself
        {**good, "acts": [said("claim witch")]},  # not a role of the board
        {**good, "acts": [said("claim werewolf")]},  # never a sensible claim
        {**good, "acts": [said("check P02 maybe")]},
        {**good, "acts": []},
        {**good, "acts": [said("pass")] * 2},  # one act: a speech's tokens are its cost
        {**good, "acts": [said("accuse P02", because="P02 is loud")]},  # not a ground offered
        {**good, "reasoning": "x" * 61},  # the acts carry the grounds
    ):
        with pytest.raises(ValidationError):
            schema.model_validate(bad)
    assert "speech" in answer_schema("speech", ("speak",), COMPACT, WOLF_PHRASES).model_fields


def test_an_act_is_said_as_a_phrase_and_kept_as_its_parts() -> None:
    seen = "P05 voted to exile P02 on day 1"
    kept = spoken([said("check P05 wolf", seen), said("claim seer"), said("vouch P01")])
    assert kept == [
        act("check", "P05", result="wolf", because=seen),
        act("claim", role="seer"),
        act("vouch", "P01"),
    ]
    assert render(kept, "P02") == (
        "I am the Seer, and my check found P05 a wolf: P05 voted to exile me on day 1. I am the "
        "seer. I trust P01."
    )
    assert spoken([said("defend", "P03 suspected P01")]) == [
        act("defend", because="P03 suspected P01")
    ]
    # two others, four kinds about a seat (a check with either result), two good roles, and
    # defend, follow_sheriff and pass
    assert len(WOLF_PHRASES) == 2 * 5 + 2 + 3


def test_a_good_seat_is_offered_only_what_it_knows_to_be_true() -> None:
    seats = ("P01", "P02", "P05", "P07")
    roles = ("werewolf", "villager", "seer", "witch")
    villager = set(phrases("P02", Role.VILLAGER, seats, roles))
    assert {"claim villager", "accuse P05", "vouch P01", "pass"} <= villager
    assert not {p for p in villager if p.split()[0] in ("check", "saved")}
    assert not {"claim seer", "accuse P02"} & villager
    seer = set(phrases("P05", Role.SEER, seats, roles, {"P01": "wolf", "P05": "good"}))
    assert {p for p in seer if p.startswith("check")} == {"check P01 wolf"}
    witch = set(phrases("P07", Role.WITCH, seats, roles, saved=["P02", "P03"]))
    # P03 is dead: the menu names living seats only
    assert {p for p in witch if p.startswith("saved")} == {"saved P02"}
    wolf = set(phrases("P01", Role.WEREWOLF, seats, roles))
    assert {"check P02 good", "check P02 wolf", "saved P05", "claim seer", "claim witch"} <= wolf


def test_the_embedded_model_speaks_in_acts_and_api_models_freely() -> None:
    assert ModelConfig(backend="local", model="m").bounds().speech_acts
    assert not ModelConfig(backend="api", model="m", base_url="http://x").bounds().speech_acts
    assert not ModelConfig(backend="local", model="m", speech="free").bounds().speech_acts
    configured = ModelConfig(backend="api", model="m", base_url="http://x", speech="acts")
    assert configured.bounds().speech_acts


def test_a_seer_reporting_a_check_she_never_made_contradicts_herself() -> None:
    checks = {"P05": "wolf"}
    assert contradiction([act("check", "P05", result="wolf")], Role.SEER, checks, []) is None
    assert "never made" in str(contradiction([act("check", "P02")], Role.SEER, checks, []))
    wrong = contradiction([act("check", "P05", result="good")], Role.SEER, checks, [])
    assert wrong is not None and "saw wolf" in wrong
    assert contradiction([act("check", "P02")], Role.WEREWOLF, {}, []) is None  # a bluff
    assert "save" in str(contradiction([act("saved", "P01")], Role.WITCH, {}, []))


def test_a_good_seat_reporting_a_power_it_does_not_have_contradicts_itself() -> None:
    villager = contradiction([act("saved", "P09")], Role.VILLAGER, {}, [])
    assert villager is not None and "not the Witch" in villager
    hunter = contradiction([act("check", "P04", result="wolf")], Role.HUNTER, {}, [])
    assert hunter is not None and "not the Seer" in hunter
    assert contradiction([act("saved", "P09")], Role.GUARD, {}, []) is None  # his protection
    assert contradiction([act("saved", "P09")], Role.WEREWOLF, {}, []) is None  # a bluff
    assert contradiction([act("accuse", "P04")], Role.VILLAGER, {}, []) is None


def test_a_speech_that_recites_its_prompt_is_out_of_character() -> None:
    # What the embedded model said in 44 of 47 speeches of one game: the rule it was shown.
    note = (
        "I propose to kill P01 at once, revealed as a werewolf, and the rest of the day "
        "(speeches and vote) is cancelled. It costs my team a player."
    )
    recited = f"I am Riley, and {note.lower()}"
    assert copies_prompt(recited, note) and out_of_character(recited, note)
    assert not out_of_character("I suspect P03: he voted with P05 twice, and P05 is a wolf.")
    # The fixed texts (rules, roles, questions) count without being passed.
    rule = "Werewolf is a party game of bluffing and deduction, and you play one player"
    assert out_of_character(f"Well. {rule} here.")


def test_a_speech_that_repeats_one_word_over_and_over_is_out_of_character() -> None:
    # The embedded model's loops in ten games (Nov 29): read, they are nonsense.
    for said in (
        "I trust P09: You died revealed revealed revealed revealed revealed.",
        "I have nothing to add: It seems passt, passt, passt, passt, passt.",
        "D1, Paco, Paco, Paco, Paco",
    ):
        assert out_of_character(said), said
    # Twice is not a loop, and a short word three times can be emphasis.
    assert not out_of_character("I suspect P05: P05 voted with P03, and P03 voted with P05.")
    assert not out_of_character("I trust P09, trust P09 fully.")
    assert not out_of_character("No, no, no: I am not a wolf.")


def test_a_speech_that_recites_the_seats_identity_line_is_out_of_character() -> None:
    # A wolf's Day-1 speech on the embedded model (seed 16, Nov 28): its question's first
    # line, said aloud, tells the table its role.
    g = Game()  # 12-A: P01-P04 are the wolves
    view = seat_view(g.state, g.events, "P02", g.pending)
    prompt = f"{identity_line(view)}\n\nDay 1: discuss."
    said = f"I am the Witch, and I saved P12 from the wolves: You are {view.name}, the werewolf."
    assert view.role.value == "werewolf"
    assert copies_prompt(said, prompt) and out_of_character(said, prompt)
    # Another seat's name, or the seat's name alone, is play.
    assert not out_of_character("You are Dana, the werewolf.", prompt)
    assert not out_of_character(f"I am {view.name} and I suspect P03.", prompt)


def test_llm_seats_speaking_in_acts_play_a_game_with_rendered_speeches() -> None:
    chat = SimulatedChatModel(latency_s=0.0)

    def players(seat: str, kind: str, seating: Seating, view: SeatView) -> LLMPlayer:
        return LLMPlayer(chat, "sim", ACTS)

    out = (
        build_graph()
        .compile()
        .invoke(
            {
                "setup": GameSetup(board="8-arena", seed=3, secret=SECRET),
                "seating": Seating(default="llm"),
            },
            {"recursion_limit": RECURSION_LIMIT},
            context=GameContext(player_factory=players),
        )
    )
    speeches = [r for r in out["records"] if r.purpose == "decision" and r.option == "speak"]
    assert speeches and all(r.data and r.data["acts"] for r in speeches)
    assert all(r.text == render(r.data["acts"], r.seat) for r in speeches if r.data)
    assert all(out_of_character(r.text) is False for r in speeches)


def test_a_seat_answering_in_acts_is_told_their_phrases_with_placeholders() -> None:
    def tail(text: TextKind | None, acts: bool) -> str:
        return decision_tail("(You are Kai.)", "", [], "Speak.", "Choices: speak", text, acts)

    assert tail("speech", acts=True).endswith(ANSWER_LINES["acts"])
    assert "accuse SEAT" in ANSWER_LINES["acts"] and not re.search(r"P\d\d", ANSWER_LINES["acts"])
    assert tail("speech", acts=False).endswith(ANSWER_LINES["speech"])
    assert tail(None, acts=True).endswith(ANSWER_LINES[None])  # a vote has no speech


def test_a_whisper_that_refuses_to_answer_is_out_of_character() -> None:
    # A wolf's whisper of the embedded model's game: a refusal, not play.
    assert out_of_character("I can't answer this question because I'm not the wolf channel")
    assert not out_of_character("I can't trust P05 after that vote.")
    # Seed 25 on the served model, Night 1: stepping out of the game, not play.
    assert out_of_character("I cannot proceed with this game as I do not currently have")
    assert not out_of_character("I cannot continue to trust P05.")
