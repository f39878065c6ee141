"""The one answer parser (prompts/replies.py) against a table of the reply shapes real
models write: think blocks, prose and fences around the object, drafts, cut answers."""

import pytest

from autowerewolf.prompts.replies import (
    Choice,
    ChoiceAnswer,
    Reply,
    UnusableReply,
    normalise_choice,
    read_choice_answer,
    read_json_object,
)

ANSWER = '{"reasoning": "P03 dodged the vote", "choice": "P03"}'
DATA = {"reasoning": "P03 dodged the vote", "choice": "P03"}

READ = [
    ("plain object", ANSWER, DATA, ()),
    ("surrounding whitespace", f"\n  {ANSWER}\n", DATA, ()),
    ("think block", f"<think>P03 or P05? {{not json}}</think>\n{ANSWER}", DATA, ("think-block",)),
    ("thinking tag", f"<thinking>hmm</thinking>{ANSWER}", DATA, ("think-block",)),
    ("think block holding a draft object",
     f'<think>maybe {{"choice": "P05"}}</think>{ANSWER}', DATA, ("think-block",)),
    ("closing tag only (template opened it)",
     f'so P03.\n</think>\n\n{ANSWER}', DATA, ("think-block",)),
    ("uppercase think tag", f"<THINK>x</THINK>{ANSWER}", DATA, ("think-block",)),
    ("braces in the prose before",
     f"Options are {{P03, P05}}; set {{x}} aside.\n{ANSWER}", DATA, ("prose-around-json",)),
    ("trailing text", f"{ANSWER}\nHope that helps!", DATA, ("prose-around-json",)),
    ("json code fence", f"```json\n{ANSWER}\n```", DATA, ("code-fence",)),
    ("bare code fence with prose",
     f"Here is my answer:\n```\n{ANSWER}\n```\nDone.", DATA, ("code-fence", "prose-around-json")),
    ("a broken draft, then the answer",
     f'Draft: {{"choice": "P05",}}\nFinal: {ANSWER}', DATA, ("prose-around-json",)),
    ("two objects: the last is the answer",
     f'Draft: {{"choice": "P05"}}\nFinal: {ANSWER}', DATA,
     ("several-objects", "prose-around-json")),
    ("nested objects", '{"vote": {"choice": "P03", "why": {"seen": [1, 2]}}, "ok": true}',
     {"vote": {"choice": "P03", "why": {"seen": [1, 2]}}, "ok": True}, ()),
    ("braces and escaped quotes inside strings",
     r'{"speech": "I said \"{P03}\" and {", "choice": "P03"}',
     {"speech": 'I said "{P03}" and {', "choice": "P03"}, ()),
    ("think block, fence and prose",
     f"<think>long</think>\nMy vote:\n```json\n{ANSWER}\n```",
     DATA, ("think-block", "code-fence", "prose-around-json")),
]  # fmt: skip


@pytest.mark.parametrize(("text", "data", "repairs"), [r[1:] for r in READ],
                         ids=[r[0] for r in READ])  # fmt: skip
def test_reply_shapes_are_read_with_their_repairs(
    text: str, data: dict[str, object], repairs: tuple[str, ...]
) -> None:
    assert read_json_object(text) == Reply(data=data, repairs=repairs)


REFUSED = [
    ("empty", "", "no JSON object"),
    ("prose only", "I vote for P03 (Kai).", "no JSON object"),
    ("braces of prose only", "I pick {P03}.", "no JSON object"),
    ("cut answer", '{"reasoning": "P03 dodged", "choi', "unfinished JSON object"),
    ("cut answer holding a complete inner object",
     '{"vote": {"choice": "P03"}, "speech": "I think', "unfinished JSON object"),
    ("cut answer after a think block", '<think>x</think>{"choice": "P0', "unfinished JSON object"),
    ("unclosed think block", f"<think>I would say {ANSWER} but", "never closes"),
    ("trailing comma, holding a complete inner object",
     '{"vote": {"choice": "P03"}, "speech": "x",}', "object does not parse"),
    ("a JSON list", '["P03"]', "not an object"),
    ("a JSON string", '"P03"', "not an object"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "reason"), [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED])
def test_unusable_replies_raise_one_line_reasons(text: str, reason: str) -> None:
    with pytest.raises(UnusableReply, match=reason) as raised:
        read_json_object(text)
    assert "\n" not in str(raised.value)
    assert isinstance(raised.value, ValueError)  # callers that catch ValueError still do


OPTIONS = ("P03", "P05", "P07")
LABELS = {"P03": "Kai", "P05": "Mira", "P07": "Oleg"}
CHOICES = [
    ("the option", "P03", "P03", ()),
    ("lower case", "p03", "P03", ("case-choice",)),
    ("padded", "  P05 ", "P05", ("padded-choice",)),
    ("quoted", '"P05"', "P05", ("padded-choice",)),
    ("the label", "Kai", "P03", ("label-choice",)),
    ("the label in another case", "mira", "P05", ("label-choice", "case-choice")),
    ("option with its label", "P03 (Kai)", "P03", ("label-choice",)),
    ("label with its option", "Oleg (P07)", "P07", ("label-choice",)),
    ("option with a note", "P07 (quiet)", "P07", ("annotated-choice",)),
    ("quoted, lower case, labelled", " 'p03 (kai)' ", "P03",
     ("padded-choice", "case-choice", "label-choice")),
]  # fmt: skip


@pytest.mark.parametrize(("value", "option", "repairs"), [r[1:] for r in CHOICES],
                         ids=[r[0] for r in CHOICES])  # fmt: skip
def test_choice_shapes_map_to_their_option(
    value: str, option: str, repairs: tuple[str, ...]
) -> None:
    assert normalise_choice(value, OPTIONS, LABELS) == Choice(option, repairs)


def test_a_number_names_a_numeric_option() -> None:
    assert normalise_choice(3, ("0", "1", "2", "3")) == Choice("3", ("number-choice",))


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("P04", "not one of P03, P05, P07"),
        ("P03 (Mira)", "names both P03 and P05"),
        ("", "not one of"),
        (None, "not a string"),
        (True, "not a string"),
        (["P03"], "not a string"),
    ],
)
def test_choices_naming_no_option_or_two_are_refused(value: object, reason: str) -> None:
    with pytest.raises(UnusableReply, match=reason):
        normalise_choice(value, OPTIONS, LABELS)


def test_a_label_shared_by_two_options_names_neither() -> None:
    with pytest.raises(UnusableReply, match="not one of"):
        normalise_choice("Kai", OPTIONS, {"P03": "Kai", "P05": "Kai"})


def test_an_answer_in_text_gives_its_choice_text_and_every_repair() -> None:
    reply = '<think>Kai lied.</think>\n```json\n{"choice": "kai", "speech": "Kai lied."}\n```'
    assert read_choice_answer(reply, OPTIONS, LABELS, "speech") == ChoiceAnswer(
        option="P03",
        text="Kai lied.",
        repairs=("think-block", "code-fence", "label-choice", "case-choice"),
    )
    assert (
        read_choice_answer('{"choice": "P05", "speech": 3}', OPTIONS, LABELS, "speech").text == ""
    )
    assert read_choice_answer('{"choice": "P05", "speech": "x"}', OPTIONS, LABELS).text == ""


def test_an_answer_in_text_without_a_choice_is_refused() -> None:
    with pytest.raises(UnusableReply, match="the answer has no choice"):
        read_choice_answer('{"vote": "P03"}', OPTIONS, LABELS)
