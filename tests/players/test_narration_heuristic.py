"""Narration sees only public events; the heuristic baseline beats random."""

from collections import Counter

import pytest
from langchain_core.messages import AIMessage, BaseMessage

from autowerewolf.graph.builder import RECURSION_LIMIT, build_graph
from autowerewolf.graph.context import GameContext
from autowerewolf.narration import LLMNarrator, TemplateNarrator
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup, make_config
from autowerewolf.rules.engine import new_game
from autowerewolf.rules.random_play import play_random_game
from autowerewolf.rules.roles import Camp
from autowerewolf.web.frames import GOD, record_detail
from tests.fixed import SECRET


class EchoChat:
    """Records what the moderator model is given."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def invoke(self, messages: list[BaseMessage]) -> AIMessage:
        self.seen.append(str(messages[-1].content))
        return AIMessage("The village wakes.")


def test_narrators_only_receive_public_events() -> None:
    """RULES §9: the moderator's narration never leaks hidden facts."""
    _, events = play_random_game(make_config(seed=5))
    chat = EchoChat()
    narrator = LLMNarrator(chat)  # type: ignore[arg-type]
    assert narrator.narrate(events) == "The village wakes."
    template = TemplateNarrator().narrate(events) or ""
    for text in (chat.seen[0], template):
        assert "role is" not in text
        assert "[seer]" not in text and "[wolves]" not in text and "[witch]" not in text
        assert "(moderator)" not in text and "Roles:" not in text


def test_llm_narrator_falls_back_to_the_template_when_the_model_fails() -> None:
    class Broken:
        def invoke(self, messages: list[BaseMessage]) -> AIMessage:
            raise TimeoutError("model down")

    _, events = play_random_game(make_config(seed=5))
    assert LLMNarrator(Broken()).narrate(events) == TemplateNarrator().narrate(events)  # type: ignore[arg-type]


@pytest.mark.long
def test_heuristic_good_side_beats_random_good_side() -> None:
    graph = build_graph().compile()
    wins: Counter[str] = Counter()
    for seed in range(30):
        wolves = {s.id for s in new_game(make_config(seed=seed))[0].seats if s.is_wolf}
        for kind in ("heuristic", "random"):
            seats = {f"P{i:02d}": kind for i in range(1, 13)} | dict.fromkeys(wolves, "random")
            out = graph.invoke(
                {"setup": GameSetup(secret=SECRET, seed=seed), "seating": Seating(seats=seats)},
                {"recursion_limit": RECURSION_LIMIT},
                context=GameContext(),
            )
            wins[kind] += out["game"].winner is Camp.GOOD
    assert wins["heuristic"] > wins["random"] + 5, wins


def test_heuristic_records_say_what_each_rule_went_on() -> None:
    # The god view's drill-down shows this for a non-model seat (web/frames.py): the
    # private reasoning of the record, never sent to the seat or the public.
    out = (
        build_graph()
        .compile()
        .invoke(
            {"setup": GameSetup(secret=SECRET, seed=3), "seating": Seating(default="heuristic")},
            {"recursion_limit": RECURSION_LIMIT},
            context=GameContext(),
        )
    )
    records = [r for r in out["records"] if r.player == "heuristic" and r.purpose == "decision"]
    assert records and all(
        r.reasoning is not None and r.reasoning.startswith(f"rule for {r.step}: ") for r in records
    )
    wolves = {s.id for s in out["game"].seats if s.is_wolf}
    seer = next(s.id for s in out["game"].seats if s.role.value == "seer")
    # What the Seer goes on is true in this game: every seat she names as a wolf is one.
    named = {
        seat.strip(",")
        for r in records
        if r.seat == seer and r.reasoning is not None
        for seat in r.reasoning.split("wolves it knows of ")[1].split(";")[0].split()
        if seat.startswith("P")
    }
    assert named and named <= wolves
    god = record_detail(records[0], 0, GOD)
    seat = record_detail(records[0], 0, records[0].seat)
    assert god["reasoning"] == records[0].reasoning and "reasoning" not in seat
