"""Reading a model's raw answer text: the one parser of every path that gets a model's reply
as text (LLM seats whose server returns text, the verifiers environment, agents).

A reply is expected to hold one JSON object. Real models wrap it: a reasoning model writes
a `<think>` block first (or only its closing tag, when the chat template opened it), a
chat model fences it in Markdown or explains it in prose, and some write a draft object and
then the final one. `read_json_object` takes the last complete top-level object and names
every repair it made, so a caller can count them; a reply with no usable object raises
`UnusableReply` with a one-line reason. `normalise_choice` maps a choice written as the
option's label, in another case, or quoted, to the option, again naming the repair.
"""

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# Repair names, as callers count them.
THINK_BLOCK = "think-block"
CODE_FENCE = "code-fence"
PROSE_AROUND_JSON = "prose-around-json"
SEVERAL_OBJECTS = "several-objects"
PADDED_CHOICE = "padded-choice"
CASE_CHOICE = "case-choice"
LABEL_CHOICE = "label-choice"
ANNOTATED_CHOICE = "annotated-choice"
NUMBER_CHOICE = "number-choice"

_THINK_TAG = r"think(?:ing)?"
_CLOSED_THINK = re.compile(rf"<{_THINK_TAG}>.*?</{_THINK_TAG}>", re.S | re.I)
_OPEN_THINK = re.compile(rf"<{_THINK_TAG}>", re.I)
_CLOSE_THINK = re.compile(rf"</{_THINK_TAG}>", re.I)
_FENCE = re.compile(r"^[ \t]*```[\w+-]*[ \t]*$", re.M)
# "P03 (Kai)": an option or label with a parenthesised note.
_NOTED = re.compile(r"(?P<head>.+?)\s*\((?P<note>[^()]*)\)")
_QUOTES = "\"'`“”‘’"
_DECODER = json.JSONDecoder()


class UnusableReply(ValueError):
    """A reply that holds no usable answer; its message is a one-line reason."""


@dataclass(frozen=True)
class Reply:
    """The JSON object a reply holds and the repairs made to reach it."""

    data: dict[str, Any]
    repairs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Choice:
    """The option a written choice names and the repairs made to reach it."""

    option: str
    repairs: tuple[str, ...] = ()


def read_json_object(text: str) -> Reply:
    """The last complete top-level JSON object of `text`, outside any think block."""
    body, repairs = _without_thinking(text)
    found = _top_level_objects(body)
    if not found:
        if _is_json_value(body.strip()):
            raise UnusableReply("the reply's JSON is not an object")
        raise UnusableReply("no JSON object in the reply")
    if len(found) > 1:
        repairs.append(SEVERAL_OBJECTS)
    data, start, end = found[-1]
    around = body[:start] + body[end:]
    if _FENCE.search(around):
        repairs.append(CODE_FENCE)
        around = _FENCE.sub("", around)
    if around.strip():
        repairs.append(PROSE_AROUND_JSON)
    return Reply(data=data, repairs=tuple(repairs))


@dataclass(frozen=True)
class ChoiceAnswer:
    """A decision answered in text: the option chosen, the free text where the step takes
    one, and every repair made to read them."""

    option: str
    text: str
    repairs: tuple[str, ...] = ()


def read_choice_answer(
    reply: str,
    options: Sequence[str],
    labels: Mapping[str, str] | None = None,
    text_field: str | None = None,
) -> ChoiceAnswer:
    """The `choice` (and the `text_field`, where the step takes text) of the answer format
    a model without structured output is asked for (prompts/environment.py)."""
    found = read_json_object(reply)
    if "choice" not in found.data:
        raise UnusableReply("the answer has no choice")
    chosen = normalise_choice(found.data["choice"], options, labels)
    said = found.data.get(text_field, "") if text_field else ""
    return ChoiceAnswer(
        option=chosen.option,
        text=said if isinstance(said, str) else "",
        repairs=found.repairs + chosen.repairs,
    )


def normalise_choice(
    value: object, options: Sequence[str], labels: Mapping[str, str] | None = None
) -> Choice:
    """The option `value` names: itself, or written padded or quoted, in another case, as
    the option's label (`labels` maps an option to it: "Kai" for "P03"), as "P03 (Kai)", or
    as a number for a numeric option; UnusableReply when it names none or several."""
    repairs: list[str] = []
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
        repairs.append(NUMBER_CHOICE)
    if not isinstance(value, str):
        raise UnusableReply(f"choice {value!r} is not a string")
    if value in options:
        return Choice(value, tuple(repairs))
    cleaned = value.strip().strip(_QUOTES).strip()
    if cleaned != value:
        repairs.append(PADDED_CHOICE)
    named = _named(cleaned, options, labels or {})
    if named is None:
        noted = _NOTED.fullmatch(cleaned)
        head = _named(noted["head"], options, labels or {}) if noted else None
        if noted is None or head is None:
            raise UnusableReply(f"choice {value!r} is not one of {', '.join(options)}")
        note = _named(noted["note"].strip(_QUOTES).strip(), options, labels or {})
        if note is not None and note.option != head.option:
            raise UnusableReply(f"choice {value!r} names both {head.option} and {note.option}")
        extra = (LABEL_CHOICE,) if note is not None else (ANNOTATED_CHOICE,)
        named = Choice(head.option, head.repairs + (note.repairs if note else ()) + extra)
    return Choice(named.option, _unique((*repairs, *named.repairs)))


def _named(written: str, options: Sequence[str], labels: Mapping[str, str]) -> Choice | None:
    """The one option `written` is, or is the label of, exactly or ignoring case."""
    if written in options:
        return Choice(written)
    by_label = [o for o in options if labels.get(o) == written]
    if len(by_label) == 1:
        return Choice(by_label[0], (LABEL_CHOICE,))
    folded = written.casefold()
    by_case = [o for o in options if o.casefold() == folded]
    if len(by_case) == 1:
        return Choice(by_case[0], (CASE_CHOICE,))
    by_label_case = [o for o in options if labels.get(o, "").casefold() == folded]
    if len(by_label_case) == 1:
        return Choice(by_label_case[0], (LABEL_CHOICE, CASE_CHOICE))
    return None


def _without_thinking(text: str) -> tuple[str, list[str]]:
    """The reply without its think blocks: closed ones, a closing tag whose opening tag was
    in the prompt (everything before it is thinking), and an opening tag never closed."""
    repairs: list[str] = []
    body = _CLOSED_THINK.sub("", text)
    if body != text:
        repairs.append(THINK_BLOCK)
    closing = list(_CLOSE_THINK.finditer(body))
    if closing:
        body = body[closing[-1].end() :]
        repairs.append(THINK_BLOCK)
    opening = _OPEN_THINK.match(body.lstrip())
    if opening is not None:
        # The model was still thinking when it stopped: any object in there is a draft.
        raise UnusableReply("the reply is all thinking: its think block never closes")
    return body, list(_unique(repairs))


def _top_level_objects(text: str) -> list[tuple[dict[str, Any], int, int]]:
    """Every complete JSON object of `text` not inside another, with its span; an object
    the text ends inside (a cut answer) raises UnusableReply."""
    found: list[tuple[dict[str, Any], int, int]] = []
    malformed: json.JSONDecodeError | None = None
    position = 0
    while (start := text.find("{", position)) != -1:
        try:
            value, end = _DECODER.raw_decode(text, start)
        except json.JSONDecodeError as err:
            if not _opens_json_object(text, start):
                position = start + 1  # a brace of the prose
                continue
            closing = _closing_brace(text, start)
            if closing is None:
                raise UnusableReply("the reply ends inside an unfinished JSON object") from None
            # A broken object: what it holds is a part of it, not an answer of its own.
            malformed, position = err, closing + 1
            continue
        found.append((value, start, end))
        position = end
    if not found and malformed is not None:
        raise UnusableReply(f"the reply's JSON object does not parse ({malformed.msg})")
    return found


def _opens_json_object(text: str, start: int) -> bool:
    """Whether the brace at `start` opens what reads as a JSON object (a quoted key next)."""
    rest = text[start + 1 :].lstrip()
    return rest.startswith('"')


def _closing_brace(text: str, start: int) -> int | None:
    """The index of the brace closing the one at `start`, honouring JSON strings and their
    escapes; None when the text ends first."""
    depth = 0
    in_string = escaped = False
    for index in range(start, len(text)):
        char = text[index]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index
    return None


def _is_json_value(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _unique(names: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(names))
