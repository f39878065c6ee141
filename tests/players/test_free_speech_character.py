"""Which free texts count as out of character (prompts/second_look.py): a good seat's claim
of a role it does not hold, a wolf giving itself away, the prompt's notation."""

import pytest

from autowerewolf.players.records import DecisionRecord
from autowerewolf.prompts.second_look import out_of_character, speech_out_of_character
from autowerewolf.prompts.speech_acts import claims_another_role
from autowerewolf.rules.roles import Role


def said(step: str, text: str) -> DecisionRecord:
    """A seat's saved text at `step` (a speech, or a whisper at "wolves")."""
    return DecisionRecord(seat="P01", player="llm", day=1, step=step, key=step, options=("a",),
                          option="a", text=text)  # fmt: skip


def test_a_good_seat_claiming_a_role_it_does_not_hold_is_out_of_character() -> None:
    # A villager's structured speech of the embedded model, its reason copied from a wolf.
    copied = "I have nothing to add: I am the witch, and I saved P01 from the wolves: You are."
    assert claims_another_role(copied, Role.VILLAGER)
    assert not claims_another_role(copied, Role.WITCH)  # her own role
    assert not claims_another_role(copied, Role.WEREWOLF)  # a bluff
    assert not claims_another_role("I am a villager: keep me out of it.", Role.SEER)  # hiding
    assert not claims_another_role("I suspect P03: he is loud.", Role.HUNTER)
    # A villager of the embedded model mixing up who speaks.
    mixed_up = "I have nothing to add: You are the villager and I am the werewolf, so you should."
    assert claims_another_role(mixed_up, Role.VILLAGER)
    assert not claims_another_role(mixed_up, Role.WEREWOLF)  # said by a wolf: a slip, or bait
    assert not claims_another_role("I am not a wolf: ask P03.", Role.SEER)
    assert claims_another_role("I suspect P04: I was a werewolf, so I was not.", Role.VILLAGER)
    assert not claims_another_role("I am one of the wolves' targets.", Role.VILLAGER)
    # A power claimed by its use: a save from a villager, a check from a Hunter.
    used = "I suspect P01: P01 is the witch, and I am the one who saved P03 from."
    assert claims_another_role(used, Role.VILLAGER)
    assert claims_another_role("I saved P03 from the wolves.", Role.SEER)
    assert not claims_another_role("I saved P03 from the wolves.", Role.WITCH)
    assert not claims_another_role("I saved P03 last night.", Role.GUARD)  # a protection
    assert claims_another_role("My check found P05 a wolf.", Role.HUNTER)
    assert not claims_another_role("My check found P05 a wolf.", Role.SEER)
    assert not claims_another_role("P09 saved P03, and P09's check found P05 good.", Role.IDIOT)


@pytest.mark.parametrize(
    ("step", "text", "role", "counted"),
    [
        ("discussion", "I suspect P01: I am the werewolf, and I was not myself.", "werewolf", True),
        ("last_words", "I am the werewolf and P02 is my teammate.", "werewolf", True),
        (
            "wolves",
            "I am the werewolf, who has not been, and P01 is the target.",
            "werewolf",
            False,
        ),
        ("election_speech", "I am the Witch: trust me because I am the Guard.", "werewolf", True),
        ("discussion", "I suspect P03: I am the Seer and P03 is loud.", "werewolf", False),
        ("discussion", "I am not a wolf: ask P03.", "werewolf", False),
        ("election_speech", "I am on the wolf side, and I want to kill nobody.", "werewolf", True),
        ("discussion", "I'm with the wolves' team tonight.", "werewolf", True),
        ("discussion", "P03 is on the wolf side.", "werewolf", False),
        (
            "discussion",
            "I have nothing to add: The werewolves are P04, P07, P08.",
            "werewolf",
            True,
        ),
        ("discussion", "I suspect P04: the werewolves are P04 and P07.", "villager", False),
    ],
)
def test_a_wolf_saying_aloud_what_it_is_or_two_roles_is_out_of_character(
    step: str, text: str, role: str, counted: bool
) -> None:
    assert speech_out_of_character(said(step, text), Role(role), {}, []) is counted


@pytest.mark.parametrize(
    ("text", "counted"),
    [
        ("{p08->P09}.", True),
        ("Kill SEAT tonight.", True),
        ("P03 -> P05 tonight", True),
        ("P01 is a werewolf and he saved you (exiled day 1).", True),
        ("Kill P05 tonight, the seat by the door.", False),
        ("Claim a role if they press you.", False),
    ],
)
def test_a_text_in_the_prompts_notation_is_out_of_character(text: str, counted: bool) -> None:
    assert speech_out_of_character(said("wolves", text), Role.WEREWOLF, {}, []) is counted
    assert out_of_character(text) is counted  # a free text is asked again
