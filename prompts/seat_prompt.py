"""A decision's prompt as a pure function of the seat's view: the plain design's question
(its wording, the seat's choices, a wolf's explosion note) and the messages that ask it.

The LLM player asks exactly these messages, and the training environment
(`autowerewolf.env`) and agents across a process boundary read the same text, so what a
policy sees is what an LLM seat sees."""

from collections.abc import Sequence
from dataclasses import dataclass

from autowerewolf.prompts.choices import Known, choices_text, duel_note, explosion_note, lists_seats
from autowerewolf.prompts.grounds import grounds
from autowerewolf.prompts.memory import ledger_text, memory_text
from autowerewolf.prompts.question import (
    attacked_seat,
    decision_instruction,
    decision_message,
    decision_tail,
    identity_line,
    prompt_key,
)
from autowerewolf.prompts.recall import Memory, remember
from autowerewolf.prompts.table_rules import system_prompt
from autowerewolf.rules.step_spec import TextKind
from autowerewolf.rules.steps import takes_text
from autowerewolf.rules.views import SeatView


@dataclass(frozen=True)
class Question:
    """What the plain design asks a seat about its pending decision."""

    memory: Memory
    known: Known
    key: str  # the wording's key (prompts/decisions.yaml)
    instruction: str
    choices: str
    notes: tuple[str, ...]  # options told before the question: a wolf's explosion, a duel
    text: TextKind | None  # the free text the answer carries


def decision_question(view: SeatView, step: str) -> Question:
    """The question of `step` (the view's step, or a probe's name) from the view alone."""
    memory = remember(view)
    attacked = attacked_seat(view)
    attacked = "you" if attacked == view.seat else attacked
    key = prompt_key(step)
    known = Known(
        checks=memory.ledger.checks(),
        claims={s: f.value for s, f in memory.ledger.claims.items()},
        saved=memory.ledger.saved(),
        named_wolves=memory.ledger.named_wolves,
        wolf_allies=memory.ledger.wolf_allies(),
    )
    notes = tuple(note for note in (explosion_note(view), duel_note(view)) if note)
    return Question(
        memory=memory,
        known=known,
        key=key,
        instruction=decision_instruction(key, view.day, attacked, view.rules),
        choices=choices_text(view, key, known),
        notes=notes,
        text=takes_text(step),
    )


def question_grounds(view: SeatView, asked: Question) -> tuple[str, ...]:
    """The public facts a structured answer to `asked` may rest on (prompts/grounds.py):
    built only for a structured speech or whisper, not for every question."""
    known, ledger = asked.known, asked.memory.ledger
    living = [p.seat for p in view.players if p.alive]
    return grounds(
        living, known.claims, known.named_wolves, ledger.accused, ledger.votes, known.wolf_allies
    )


@dataclass(frozen=True)
class Prompt:
    system: str  # the seat's fixed instructions
    user: str  # the game so far, then the question (its tail)
    tail: str  # the question part, new at every call (kept in decision records)


def prompt_messages(
    view: SeatView,
    instruction: str,
    notes: Sequence[str] = (),
    choices: str = "",
    memory: Memory | None = None,
    text: TextKind | None = None,
    system: str | None = None,
    acts: bool = False,
    reasoning: bool = True,
) -> Prompt:
    """The system and user messages of one question; `notes` are an agent design's
    additions (estimates, strategy, experiences); `system` is the seat's system prompt if
    the caller has it already; `acts`: a speech is answered in acts (speech_acts.py);
    `reasoning`: the answer starts with private reasoning (prompts/answers.py)."""
    memory = memory or remember(view)
    ledger = memory.ledger
    # Seats offered as choices carry the ledger's facts on their labels (claims, checks,
    # saves, reveals, evidence) and no dead seat is offered, so the ledger is left out: it
    # was about a quarter of what each call of the embedded model computed anew.
    noted = (
        ""
        if lists_seats(choices)
        else ledger_text(
            view.seat,
            [(f.kind, f.seat, f.value, f.day) for f in ledger.facts],
            [(s, f.value, f.day) for s, f in ledger.claims.items()],
            ledger.votes,
            memory.verbatim_day,
        )
    )
    tail = decision_tail(
        identity_line(view), noted, notes, instruction, choices, text, acts, reasoning
    )
    user = decision_message(memory_text(memory.digest, memory.recent), tail)
    return Prompt(system=system or system_prompt(view), user=user, tail=tail)


def question_prompt(view: SeatView, step: str, notes: Sequence[str] = ()) -> Prompt:
    """The messages the plain design sends for the seat's pending decision."""
    asked = decision_question(view, step)
    return prompt_messages(
        view, asked.instruction, (*notes, *asked.notes), asked.choices, asked.memory, asked.text
    )
