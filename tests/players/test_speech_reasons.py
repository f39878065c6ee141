"""What a structured speech's reason may say aloud (prompts/speech_acts.py `render`) and
which texts count as out of character (prompts/second_look.py): a good seat's claim of a
role it does not hold, a wolf giving itself away, the prompt's notation, an echo."""

import pytest

from autowerewolf.players.records import DecisionRecord
from autowerewolf.prompts.second_look import out_of_character, speech_out_of_character
from autowerewolf.prompts.speech_acts import claims_another_role, render
from autowerewolf.rules.roles import Role
from tests.players.test_speech_acts import act


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


def test_a_good_seats_reason_that_claims_a_power_it_does_not_hold_is_not_said() -> None:
    """The embedded model's villagers copied a wolf's "I'm the Witch, and I saved P09" into
    their reasons (8 of 15 texts out of character in ten games): the table hears the act
    without it, the record keeps it; a wolf's bluff and a Witch's own claim are said."""
    copied = act("accuse", "P02", reason="I'm the Witch, and I saved P09")
    assert render([copied], Role.VILLAGER) == "I suspect P02."
    assert render([copied], Role.HUNTER) == "I suspect P02."
    said_by_wolf = "I suspect P02: I'm the Witch, and I saved P09."
    assert render([copied], Role.WEREWOLF) == said_by_wolf
    assert render([copied], Role.WITCH) == said_by_wolf
    assert render([act("vouch", "P03", reason="I'm a werewolf, trust me")], Role.GUARD) == (
        "I trust P03."
    )
    hiding = act("defend", reason="I am a villager, like you")
    assert render([hiding], Role.SEER) == "I am not a wolf: I am a villager, like you."


def test_a_wolfs_reason_that_gives_it_away_is_not_said() -> None:
    """The embedded model's wolves wrote their own role into an act's reason ("I am the
    werewolf, and I saved P01"), 22 of their 165 speeches in ten games, and claimed two roles
    at once ("I am the Witch, and I saved P11: ... because I am the Guard"), 6: the table
    hears the act without the reason; the record keeps it. A wolf's single bluff is said."""
    outed = act("accuse", "P02", reason="I am the werewolf, and I was not myself")
    assert render([outed], Role.WEREWOLF) == "I suspect P02."
    assert render([act("pass", reason="I'm a wolf, night 1")], Role.WEREWOLF) == (
        "I have nothing to add."
    )
    second_role = act("saved", "P11", reason="trust me because I am the Guard")
    assert (
        render([second_role], Role.WEREWOLF) == "I am the Witch, and I saved P11 from the wolves."
    )
    two_in_reason = act("pass", reason="I am the Seer, no, I am the hunter")
    assert render([two_in_reason], Role.WEREWOLF) == "I have nothing to add."
    # One bluff, in the reason or matching the act, is play; so is denying being a wolf.
    bluff = act("accuse", "P02", reason="I am the Seer and P02 is loud")
    assert render([bluff], Role.WEREWOLF) == "I suspect P02: I am the Seer and P02 is loud."
    same = act("claim", role="seer", reason="I am the seer, believe me")
    assert render([same], Role.WEREWOLF) == "I am the seer: I am the seer, believe me."
    denial = act("defend", reason="I am not a wolf, ask P03")
    assert render([denial], Role.WEREWOLF) == "I am not a wolf: I am not a wolf, ask P03."


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


def test_a_reason_in_the_prompts_notation_or_echoing_a_speech_is_not_said() -> None:
    """A random sample of 20 texts of ten embedded-model games held a villager's "SEAT is a
    werewolf" (the answer line's placeholder), a whisper "{p08->P09}." and reasons echoing
    rendered speeches ("I have nothing to add: I suspect P08: I have nothing to add"): the
    table hears the act alone."""
    assert render([act("accuse", "P08", reason="SEAT is a werewolf")], Role.VILLAGER) == (
        "I suspect P08."
    )
    assert render([act("vouch", "P02", reason="{p01} voted well")], Role.SEER) == "I trust P02."
    echo = act("pass", reason="I suspect P08: I have nothing to add")
    assert render([echo], Role.VILLAGER) == "I have nothing to add."
    assert render([act("pass", reason="I have nothing to add")], Role.WITCH) == (
        "I have nothing to add."
    )
    witch = act("saved", "P07", reason="I am the Witch, and I saved P07 from the wolves")
    assert render([witch], Role.WITCH) == "I am the Witch, and I saved P07 from the wolves."
    ledger = act("accuse", "P02", reason="I suspect P02 witch (day 1)")
    assert render([ledger], Role.WEREWOLF) == "I suspect P02."
    identity = act("vouch", "P06", reason="trust me, I am Wren and seat P06")
    assert render([identity], Role.WEREWOLF) == "I trust P06."
    question = act("vouch", "P06", reason="The table should trust you because you are a")
    assert render([question], Role.VILLAGER) == "I trust P06."
    denial = act("pass", reason="I am not a wolf: The table should trust you")
    assert render([denial], Role.VILLAGER) == "I have nothing to add."
    again = act("saved", "P03", reason="I am the witch and I saved P01 from the wolves: The")
    assert render([again], Role.WEREWOLF) == "I am the Witch, and I saved P03 from the wolves."
    assert render([act("defend", reason="but I've nothing to add")], Role.SEER) == (
        "I am not a wolf."
    )
    # A reason that accuses in words of its own is said.
    own = act("accuse", "P08", reason="P08 voted with P03, I suspect him")
    assert render([own], Role.VILLAGER) == "I suspect P08: P08 voted with P03, I suspect him."


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
