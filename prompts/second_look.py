"""The second look (docs/agents.md): which answers are asked once more, and the note the
seat reads before it answers again. A note names no seat: the last seat a small model reads
before its choices is the one it tends to copy."""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from autowerewolf.prompts.choices import Known, kills_without_evidence, seat_against_own_side
from autowerewolf.prompts.question import IDENTITY_LINE
from autowerewolf.prompts.speech_acts import (
    claims_another_role,
    claims_two_roles,
    contradiction,
    copies_notation,
    outs_itself,
)
from autowerewolf.prompts.texts import read_text, word_runs
from autowerewolf.rules.decisions import Option
from autowerewolf.rules.roles import Role
from autowerewolf.rules.state import Step
from autowerewolf.rules.steps import STEPS
from autowerewolf.rules.views import SeatView

# A speech that repeats this many words in a row of its prompt copies it (the embedded model
# recited the self-explosion rule as its speech in 44 of 47 speeches of one game).
COPY_RUN_WORDS = 8
_TEMPLATES = ("rules.md", "roles.yaml", "decisions.yaml", "strategy.yaml")


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
# games. Only an apology or an assistant's disclaimer counts: "I can't trust P05" is play;
# "I can't answer this question" (its wolves' whispers in one game) and "I cannot proceed
# with this game" (a wolf's whisper of seed 25 on the served model) are not.
_OUT_OF_CHARACTER = re.compile(
    r"^\W*(?:\w+,\s*)?(?:I'?m sorry|I am sorry|sorry,|as an AI\b|as a language model\b)"
    r"|\bI (?:can(?:'|no)t|cannot|am unable to|'m unable to) "
    r"(?:assist|help|answer|(?:proceed|continue) with (?:this|the) game)\b(?! but)"
    r"|\bI don'?t have the ability\b",
    re.IGNORECASE,
)


# A small model stuck in a loop says one word over and over ("I trust P09: revealed revealed
# revealed revealed."): 9 of 686 speeches and wolf messages of ten embedded-model games.
# Three times running counts; a short word ("no, no, no") can be emphasis.
_RAMBLING = re.compile(r"\b([a-z]{3,})\b(?:\W+\1\b){2,}", re.IGNORECASE)


def _runs(text: str) -> set[tuple[str, ...]]:
    return word_runs(text, COPY_RUN_WORDS)


@cache
def _template_runs() -> frozenset[tuple[str, ...]]:
    """The word runs of every fixed prompt text (rules, roles, decisions, strategies)."""
    return frozenset(r for name in _TEMPLATES for r in _runs(read_text(name)))


def copies_prompt(text: str, prompt: str = "") -> bool:
    """Whether a text repeats a run of COPY_RUN_WORDS words of `prompt` or of the fixed
    prompt texts, or the seat's identity line of `prompt` (shorter, but said aloud it tells
    the table the seat's role: a wolf's "You are Frankie, the werewolf." in a Day-1 speech)."""
    runs = _runs(text)
    return (
        bool(runs & _template_runs())
        or bool(runs & _runs(prompt))
        or _recites_identity(text, prompt)
    )


def _recites_identity(text: str, prompt: str) -> bool:
    found = IDENTITY_LINE.search(prompt)
    if found is None:
        return False
    name, seat, role = (re.escape(part) for part in found.groups())
    recital = rf"\byou are {name},?(?: seat {seat},?)? the {role}\b"
    return re.search(recital, text, re.IGNORECASE) is not None


def out_of_character(text: str, prompt: str = "") -> bool:
    """Whether a speech or message speaks as an assistant instead of the seat's character,
    repeats one word over and over, or recites its prompt or copies its notation."""
    return (
        _OUT_OF_CHARACTER.search(text) is not None
        or _RAMBLING.search(text) is not None
        or copies_prompt(text, prompt)
        or copies_notation(text)
    )


def in_character_note() -> str:
    """The second look at a speech out of character."""
    return (
        "Careful: your first answer apologised, refused, repeated one word over and over or "
        "repeated the instructions or their notation instead of playing. This is a party game "
        "and your speech is what your character says at the table, in your own words: whom "
        "you suspect or trust, and why."
    )


class SavedText(Protocol):
    """What a saved answer's judge reads of it (a decision record has these)."""

    @property
    def step(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def prompt(self) -> str | None: ...
    @property
    def data(self) -> dict[str, Any] | None: ...


def speech_out_of_character(
    record: SavedText, role: Role, checks: dict[str, str], saved: Sequence[str]
) -> bool:
    """Whether a saved speech or message was out of character (the table and the report):
    an apology, a recited prompt, acts against what the seat knew then (`checks`, `saved`:
    its results up to that day), a good seat's claim of a role it does not hold, or, said
    aloud, a wolf's own role or two power roles claimed at once.
    An answer resting on grounds (acts or a whisper, prompts/grounds.py) is the renderer's
    words around the model's choices (an act, a ground): only its acts are judged, as the
    words are not the model's. Acts with a free reason (games before grounds) are judged as
    free text too."""
    if not record.text:
        return False
    data = record.data or {}
    acts = data.get("acts") or []
    wrong = contradiction(acts, role, checks, saved) is not None
    if "because" in data or any("because" in act for act in acts):
        return wrong
    spec = STEPS.get(record.step)
    aloud = spec is None or spec.text != "message"  # a wolves' whisper is among teammates
    return (
        out_of_character(record.text, record.prompt or "")
        or wrong
        or claims_another_role(record.text, role)
        or (aloud and (outs_itself(record.text, role) or claims_two_roles(record.text)))
    )


# What each step that harms on the seat's evidence alone spends (rules/steps.py
# `on_evidence`); a new such step needs its word here (a test walks the table).
POWER_WORDS: dict[str, str] = {
    Step.WITCH_POISON: "poison",
    Step.HUNTER_SHOT: "shot",
    Step.DUEL: "duel",
}


def no_evidence_note(step: str) -> str:
    """The second look at a poison, a shot or a duel at a player nothing points at."""
    power = POWER_WORDS[step]
    # A step without 'none' (the Knight's duel, declared already) can only change its target.
    instead = (
        f"choose 'none' and keep your {power}"
        if Option.NONE.value in STEPS[step].words
        else "choose another player"
    )
    return (
        f"Careful: your first answer aimed your {power} at a player nothing you have seen "
        f"points at as a wolf. Most players are good, so a guess usually kills a friend: "
        f"{instead}, unless you are sure that player is a wolf."
    )


def contradiction_note(reason: str) -> str:
    """The second look at a speech that contradicts what the seat knows."""
    return (
        f"Careful: your first speech reported {reason}. Report only what you really saw; "
        "check your own notes above."
    )


@dataclass(frozen=True)
class SecondLook:
    reason: str  # recorded: "reconsidered <choice> (<reason>)"
    note: str  # what the seat reads before it answers again
    options: tuple[str, ...]  # the choices it may answer again


def _with_first(view: SeatView, first: str, keep: Sequence[str]) -> tuple[str, ...]:
    """The options a second look offers: `keep` and the first answer, in the view's order."""
    return tuple(o for o in view.options if o == first or o in keep)


def second_look(
    view: SeatView,
    known: Known,
    step: str,
    option: str,
    text: str,
    acts: Sequence[dict[str, str]] = (),
    prompt: str = "",
) -> SecondLook | None:
    """Whether an answer gets a second look: a choice against the seat's own side, a poison
    or a shot with no evidence, a speech out of character (an apology, a recited prompt)
    or one that contradicts what the seat knows."""
    against = against_own_side(view, known, step, option)
    if against is not None:
        # Asked again among all the options, the embedded model's wolves moved from one
        # teammate to another in 3 of 4 Night-1 second looks (seeds 24-28): the first answer
        # stays, the other choices against the seat's side go.
        keep = [o for o in view.options if against_own_side(view, known, step, o) is None]
        return SecondLook(against, reconsider_note(against), _with_first(view, option, keep))
    if kills_without_evidence(view, known, step, option):
        # The first answer stays beside 'none' and the seats with evidence; the other
        # guesses go, as above.
        keep = [o for o in view.options if not kills_without_evidence(view, known, step, o)]
        note = no_evidence_note(step)
        return SecondLook("a kill with no evidence", note, _with_first(view, option, keep))
    if text and out_of_character(text, prompt):
        return SecondLook("a speech out of character", in_character_note(), view.options)
    wrong = contradiction(acts, view.role, dict(known.checks), sorted(known.saved))
    if wrong is not None:
        return SecondLook(f"a speech reporting {wrong}", contradiction_note(wrong), view.options)
    return None
