"""The second look (docs/agents.md): which answers are asked once more, and the note the
seat reads before it answers again. A note names no seat: the last seat a small model reads
before its choices is the one it tends to copy."""

import re
from dataclasses import dataclass

from autowerewolf.prompts.player import Known, seat_against_own_side
from autowerewolf.rules.views import SeatView


def against_own_side(view: SeatView, known: Known, step: str, option: str) -> str | None:
    """Why choosing `option` would work against the seat's own side, if it would."""
    if option == "explode":
        return "self-explosion (your team loses a player)"
    if option not in {p.seat for p in view.players}:
        return None
    return seat_against_own_side(view, known, step, option)


def reconsider_note(reason: str) -> str:
    """The second look at a choice that works against the seat's own side."""
    return (
        f"Careful: your first answer chose {reason}, which works against your own side. Keep "
        "it only if you are sure it helps your side; otherwise choose another option."
    )


# A small model sometimes answers the game as an assistant would ("I'm sorry, but I can't
# assist with that request"): seen in 34 of 139 speeches of the embedded model's 8-arena
# games. Only an apology or an assistant's disclaimer counts: "I can't trust P05" is play.
_OUT_OF_CHARACTER = re.compile(
    r"^\W*(?:\w+,\s*)?(?:I'?m sorry|I am sorry|sorry,|as an AI\b|as a language model\b)"
    r"|\bI (?:can(?:'|no)t|cannot|am unable to|'m unable to) (?:assist|help)\b(?! but)"
    r"|\bI don'?t have the ability\b",
    re.IGNORECASE,
)


def out_of_character(text: str) -> bool:
    """Whether a speech or message speaks as an assistant instead of the seat's character."""
    return _OUT_OF_CHARACTER.search(text) is not None


def in_character_note() -> str:
    """The second look at a speech out of character."""
    return (
        "Careful: your first answer apologised or refused instead of playing. This is a party "
        "game and your speech is what your character says at the table, in your own words: "
        "whom you suspect or trust, and why."
    )


@dataclass(frozen=True)
class SecondLook:
    reason: str  # recorded: "reconsidered <choice> (<reason>)"
    note: str  # what the seat reads before it answers again


def second_look(
    view: SeatView, known: Known, step: str, option: str, text: str
) -> SecondLook | None:
    """Whether an answer gets a second look: a choice against the seat's own side, or a
    speech out of character."""
    against = against_own_side(view, known, step, option)
    if against is not None:
        return SecondLook(against, reconsider_note(against))
    if text and out_of_character(text):
        return SecondLook("a speech out of character", in_character_note())
    return None
