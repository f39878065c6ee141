"""Games whose seats play different agent designs on a fake model: they end, their records
show every module's output, and each seat's prompts are a pure function of what it may
know (a player rebuilt before every question prompts exactly as one kept for the game)."""

from collections import Counter

import pytest

from autowerewolf.players.agents.estimator import NIGHT_STEPS
from autowerewolf.prompts.estimates import ROLE_ESTIMATES
from autowerewolf.prompts.experience import EXPERIENCE
from autowerewolf.prompts.strategy import STRATEGY
from tests.agents.helpers import PLUGIN, FreshPlayers, builder, play
from tests.fakes.chat import FakeChatModel

# Each model call of the first game takes at least this long: its records must show it.
CALL_LATENCY_S = 0.005


@pytest.mark.long
def test_four_designs_and_a_plugin_play_to_the_end_and_record_their_modules() -> None:
    out = play(FakeChatModel(latency_s=CALL_LATENCY_S))
    game, records = out["game"], out["records"]
    assert game.is_over
    agents = {r.seat: r.agent for r in records if r.purpose == "decision"}
    assert {"estimator", "adaptive", "experience", "plain", PLUGIN} <= set(agents.values())
    assert all(r.agent for r in records), "every record an agent makes names its design"
    notes = Counter(r.step for r in records if r.purpose == "note")
    assert notes[ROLE_ESTIMATES] and notes[STRATEGY] and notes[EXPERIENCE], notes
    for note in records:
        if note.step == ROLE_ESTIMATES:
            # Named and shaped as the role_estimates probe's answer, keyed by its decision.
            assert note.data is not None and set(note.data) == {"estimates", "evidence"}
            ratings = next(iter(note.data["estimates"].values()))
            assert set(ratings) == {r.value for r in game.config.roles}
            assert any(r.purpose == "decision" and r.key == note.key for r in records)
            assert note.tokens_in
        if note.step == STRATEGY:
            assert note.data and note.data["strategy"] in ("support", "attack")
            assert note.data["moment"] in ("night", "debate", "vote")
        if note.step == EXPERIENCE:
            assert note.data and "situation" in note.data and note.data["retrieved"] == []
    # A record's latency spans its model calls (one, or two after an invalid answer).
    called = [r for r in records if r.tokens_in]
    assert called and all(r.latency_s >= CALL_LATENCY_S * (1 + r.retries) for r in called)


def test_estimates_are_made_after_the_debate_and_before_night_actions() -> None:
    records = play(FakeChatModel())["records"]
    for note in (r for r in records if r.step == ROLE_ESTIMATES):
        step = next(r.step for r in records if r.purpose == "decision" and r.key == note.key)
        assert (step == "exile_vote" and note.key.endswith(":r1")) or step in NIGHT_STEPS
    estimator_votes = [
        r
        for r in records
        if r.agent == "estimator" and r.step == "exile_vote" and r.key[-3:] == ":r1"
    ]
    assert estimator_votes
    for vote in estimator_votes:
        assert any(n.step == ROLE_ESTIMATES and n.key == vote.key for n in records)
        assert "Your private role estimates" in (vote.prompt or "")


def test_designs_treat_a_roll_call_ballot_as_the_days_vote() -> None:
    """On the `kaggle` board the exile vote is a roll call (docs/rules.md §6): estimator seats
    estimate before their ballot, adaptive seats' strategy shapes it, experience seats
    retrieve before it."""
    records = play(FakeChatModel(), board="kaggle")["records"]
    ballots = [r for r in records if r.purpose == "decision" and r.step == "exile_roll_call"]
    notes = {(n.step, n.key) for n in records if n.purpose == "note"}
    by_design: dict[str, list[str]] = {}
    for ballot in ballots:
        by_design.setdefault(ballot.agent or "", []).append(ballot.key)
    assert by_design.get("estimator") and by_design.get("adaptive") and by_design.get("experience")
    assert all((ROLE_ESTIMATES, key) in notes for key in by_design["estimator"])
    assert all((EXPERIENCE, key) in notes for key in by_design["experience"])
    shaped = [b for b in ballots if b.agent == "adaptive"]
    assert all("Your strategy now:" in (b.prompt or "") for b in shaped)


def test_the_strategy_shapes_speeches_and_votes_of_adaptive_seats() -> None:
    records = play(FakeChatModel())["records"]
    shaped = [
        r
        for r in records
        if r.agent == "adaptive"
        and r.purpose == "decision"
        and r.step in ("discussion", "exile_vote")
    ]
    assert shaped and all("Your strategy now:" in (r.prompt or "") for r in shaped)


@pytest.mark.long
def test_a_player_rebuilt_before_every_question_sends_the_same_prompts() -> None:
    kept, fresh = FakeChatModel(), FakeChatModel()
    one = play(kept)
    rebuilt = play(fresh, context=FreshPlayers(player_factory=builder(fresh)))
    assert one["events"] == rebuilt["events"]
    assert sorted(kept.prompts) == sorted(fresh.prompts)
