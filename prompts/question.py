"""The question a seat is asked: its wording (decisions.yaml, worded for the table's rule
flags), the tail of a decision's message (identity, noted facts, notes, the question and the
choices), the message itself, and the re-prompt after an invalid answer."""

import re
from collections.abc import Sequence

from autowerewolf.prompts.table_rules import fragments
from autowerewolf.prompts.texts import read_yaml
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.step_spec import TextKind
from autowerewolf.rules.steps import STEPS
from autowerewolf.rules.views import SeatView, TableRules


def prompt_key(step: str) -> str:
    """The wording key of a step's question: the step table's, else the step's own name
    (a probe, a bid)."""
    spec = STEPS.get(step)
    return spec.prompt if spec is not None and spec.prompt else step


def attacked_seat(view: SeatView) -> str | None:
    """The wolves' latest victim as the Witch was told (None for anyone else)."""
    return next((e.target for e in reversed(view.events) if e.kind is EventKind.WITCH_INFO), None)


# A part of a decision's wording meant for a model only (advice, "Choose 'speak'."): in
# decisions.yaml as [[...]], left out of what a person reads.
MODEL_ONLY = re.compile(r" ?\[\[(.*?)\]\]")


def decision_instruction(
    prompt_key: str, day: int, attacked: str | None, rules: TableRules, person: bool = False
) -> str:
    """What the seat must decide now, worded for its table's roles and rule flags; changes
    every call, so it goes at the prompt's end. `person`: as a human seat reads it, without
    the parts meant for a model."""
    template = read_yaml("decisions.yaml")[prompt_key]
    assert isinstance(template, str)
    worded = MODEL_ONLY.sub("" if person else r" \1", template)
    return worded.format(day=day, attacked=attacked or "nobody", **fragments(rules))


# Where the step takes a text, the line says what it is: told nothing, the embedded model
# often wrote an assistant's refusal where the grammar made it write a speech.
ANSWER_LINES: dict[str | None, str] = {
    None: "your choice.",
    "speech": "your choice, then your speech: the words your character says aloud to the table.",
    # A structured speech (speech_acts.py): the grammar offers the phrases; this says what
    # they are, with placeholders (a small model copies the seat ids it reads).
    "acts": (
        "your choice, then your speech as one act: the fact it rests on (a claim, a report, "
        "an accusation or a vote you saw), then a phrase (accuse SEAT, vouch SEAT, claim "
        "ROLE, check SEAT wolf or good, saved SEAT, defend, follow_sheriff, pass)."
    ),
    "message": "your choice, then your message: what you whisper to your fellow wolves.",
    # A structured speaker's whisper (prompts/answers.py).
    "grounds": (
        "your choice, then the fact it rests on (a claim, a report, an accusation or a vote "
        "you saw): your fellow wolves hear both."
    ),
}


def answer_line(text: TextKind | None, acts: bool, reasoning: bool) -> str:
    """What the answer holds, in the schema's order (prompts/answers.py)."""
    first = "your private reasoning first, then " if reasoning else ""
    line: str | None = text
    if acts and text is not None:
        line = "acts" if text == "speech" else "grounds"
    return f"Answer with {first}{ANSWER_LINES[line]}"


_IDENTITY = "(You are {name}, seat {seat}, the {role}.)"
# identity_line in a saved prompt: the seat's name, seat and role.
IDENTITY_LINE = re.compile(
    re.escape(_IDENTITY)
    .replace(re.escape("{name}"), r"([^,()\n]+)")
    .replace(re.escape("{seat}"), r"(P\d{2})")
    .replace(re.escape("{role}"), r"([a-z ]+)")
)


def identity_line(view: SeatView) -> str:
    """Who the seat is, at the start of every question: the system prompt names only the
    role, so that the seats sharing a view share it (prompts/table_rules.py). The question
    follows, and its choices mark the seat's own as "(you)" where it may choose itself."""
    return _IDENTITY.format(name=view.name, seat=view.seat, role=view.role.value)


def decision_tail(
    identity: str,
    ledger: str,
    notes: Sequence[str],
    instruction: str,
    choices: str,
    text: TextKind | None = None,
    acts: bool = False,
    reasoning: bool = True,
) -> str:
    """The end of a decision's message, new at every call: who the seat is, the facts it
    noted, its agent's notes (estimates, strategy, experiences), the question and the
    choices. The question comes last, after every other seat id the seat reads. `acts`: a
    speech is answered in acts; `reasoning`: the answer starts with private reasoning."""
    parts = [identity]
    if ledger:
        parts.append(f"Facts you noted:\n{ledger}")
    parts.extend(notes)
    answer = answer_line(text, acts, reasoning)
    parts.append(f"{instruction}\n{choices}\n{answer}" if choices else instruction)
    return "\n\n".join(parts)


def decision_message(memory: str, tail: str) -> str:
    """The user message of one decision: the game so far, then its tail."""
    return f"Game so far:\n{memory}\n\n{tail}"


def reprompt(error: str, options: Sequence[str]) -> str:
    """After an invalid answer: the error, and the legal choices again."""
    return (
        f"That answer was invalid: {error}. Answer again as JSON with "
        f"'choice' one of: {', '.join(options)}."
    )


NO_ANSWER = "(no answer)"
