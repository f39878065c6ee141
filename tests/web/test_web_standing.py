"""The end and a seat's answer in words: the winner and why from the rules' own reasons,
and an answer that names no question is refused in one line."""

import pytest
from starlette.exceptions import HTTPException

from autowerewolf.prompts.texts import read_yaml
from autowerewolf.web.humans import answered_key
from autowerewolf.web.standing import ending_words


def test_the_end_says_who_won_and_why_without_jargon() -> None:
    assert (
        ending_words("wolf", "every god is dead") == "The wolves win: every special role is dead."
    )
    assert ending_words("good", "every werewolf is dead") == (
        "The good side wins: every werewolf is dead."
    )
    assert ending_words(None, "day limit") == "The game ends in a draw: day limit."


@pytest.mark.parametrize("body", [{"option": "P02"}, {"key": ""}, {"key": 3}, ["key"]])
def test_an_answer_without_its_question_is_refused(body: object) -> None:
    with pytest.raises(HTTPException) as refused:
        answered_key(body)
    assert refused.value.status_code == 400 and "names its question" in refused.value.detail


def test_the_wolf_question_does_not_forbid_the_choices_it_offers() -> None:
    # The pack's choices include its own members: the question must not rule them out.
    question = read_yaml("decisions.yaml")["wolves"]
    assert "choices" in question and "never yourself" not in question
