"""Decision prompts name the seat's own id and its teammates before the question, never last
before the choices (a small model copies the last seat it read), and label each listed
choice with who that seat is to the player (the seat itself, where listed, as "you")."""

import re

from autowerewolf.players.agents.choice import AgentChoice
from tests.agents.helpers import play
from tests.fakes.chat import FakeChatModel

SEAT = re.compile(r"\bP\d{2}\b")


def test_the_last_seat_named_before_the_choices_is_never_the_seat_itself() -> None:
    fake = FakeChatModel()
    out = play(fake, seed=7, agents=AgentChoice(default="adaptive"))
    wolves = {s.id for s in out["game"].seats if s.is_wolf}
    checked = 0
    for prompt in fake.prompts:
        if "\nChoices: " not in prompt:
            continue
        me = prompt.split("(seat ")[1][:3]
        before, after = prompt.rsplit("\nChoices: ", 1)
        named = SEAT.findall(before.rsplit("Game so far:", 1)[-1])
        choices = after.split("\n")[0]
        listed = SEAT.findall(choices)
        # Only a choice among seats can be copied from the last seat read.
        assert not (listed and named) or named[-1] != me, prompt[-600:]
        if me in listed:  # e.g. a Guard may protect itself: then it is marked as itself
            assert re.search(rf"\b{me} \([^)]*, you\b", choices), choices
        if me in wolves:
            assert not set(listed) & wolves, after
        checked += 1
    assert checked > 50


def test_the_seer_sees_its_results_on_its_choices() -> None:
    fake = FakeChatModel()
    out = play(fake, seed=2, agents=AgentChoice())  # a game whose Seer votes after checking
    seer = next(s.id for s in out["game"].seats if s.role.value == "seer")
    votes = [
        p.rsplit("\nChoices: ", 1)[1]
        for p in fake.prompts
        if p.split("(seat ")[1][:3] == seer and "vote to exile" in p and "Your checks:" in p
    ]
    assert votes
    assert any("you checked: wolf" in v or "players you checked as good" in v for v in votes)
