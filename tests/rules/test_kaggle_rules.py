"""The `kaggle` board and the rule flags it needs (docs/rules.md §1, §2, §5, §6, §8 and §10).

Each test cites the rulebook section of docs/rules.md and the line of Kaggle's engine it
follows, in kaggle-environments 1.33.2 under `kaggle_environments/envs/werewolf/` (cited as
`kaggle:FILE:LINE`). Its `standard` configuration is
`scripts/configs/run/rule_experiment/standard.yaml`. Layout `WWVVVVSG`: P01-P02 wolves,
P03-P06 villagers, P07 seer, P08 guard.
"""

import pytest

from autowerewolf.rules.config import BOARDS, ConfigError, make_config
from autowerewolf.rules.decisions import IllegalAction
from autowerewolf.rules.engine import decision_key, returns
from autowerewolf.rules.events import Audience, EventKind
from autowerewolf.rules.roles import Camp, Role
from autowerewolf.rules.state import Step
from autowerewolf.rules.variants import Variants, WinMode
from autowerewolf.rules.views import SeatView, seat_view
from tests.rules.rules_helpers import Game

SEATS = tuple(f"P{i:02d}" for i in range(1, 9))


def kaggle(**draws: str) -> Game:
    """A `kaggle` game whose draws named here (`n1_wolf_order="P01"`) are fixed."""
    return Game("kaggle", draws={k.replace("_", ":", 1): v for k, v in draws.items()})


def speakers(g: Game, day: int) -> list[str]:
    return [e.actor for e in g.of(EventKind.SPEECH) if e.day == day and e.value == "discussion"]


def ballots(g: Game, day: int) -> list[tuple[str, str | None]]:
    return [(e.actor, e.target) for e in g.of(EventKind.BALLOT) if e.day == day]


# --- §1 the board ------------------------------------------------------------------------


def test_rules_1_kaggle_board_is_the_standard_8_player_game() -> None:
    """docs/rules.md §1, §10: 2 werewolves, 4 villagers, the Seer and the Guard as Kaggle's
    Doctor (kaggle:scripts/configs/run/rule_experiment/standard.yaml:21-103); every other
    rule is a flag on top of the rulebook's defaults."""
    board = BOARDS["kaggle"]
    assert sorted(board.roles) == sorted(
        [Role.WEREWOLF] * 2 + [Role.VILLAGER] * 4 + [Role.SEER, Role.GUARD]
    )
    changed = {
        k: v for k, v in board.variants.model_dump().items() if Variants().model_dump()[k] != v
    }
    assert changed == {
        "allow_wolf_self_knife": False,
        "guard_no_repeat": False,
        "sheriff_enabled": False,
        "allow_wolf_self_explode": False,
        "reveal_role_on_death": True,
        "win_mode": "parity",
        "discussion_rounds": 2,
        "speaking_start": "random_seat",
        "seer_result": "role",
        "wolves_must_kill": True,
        "wolf_proposal_start": "random_seat",
        "guard_told_of_save": True,
        "exile_vote": "roll_call",
        "exile_self_vote": True,
        "exile_tie": "draw",
        "exile_all_abstain": "draw",
        "last_words": False,
        "scoring": "win_only",
    }


def test_rules_1_8_arena_is_unchanged() -> None:
    """docs/rules.md §1: `8-arena` keeps Werewolf Arena's rules; the new flags keep the
    rulebook's defaults there."""
    flags = BOARDS["8-arena"].variants
    assert flags == Variants(
        guard_no_repeat=False,
        sheriff_enabled=False,
        exile_needs_majority=True,
        win_mode=WinMode.PARITY,
    )


def test_rules_6_roll_call_has_no_pk_revote() -> None:
    """docs/rules.md §6: a roll call is a single pass; with a PK tie rule the flags are
    refused."""
    with pytest.raises(ConfigError, match="roll_call needs exile_tie draw or nobody"):
        make_config("12-A", variants={"exile_vote": "roll_call"})


# --- §2 the night ------------------------------------------------------------------------


def test_rules_2_seer_learns_the_role_under_seer_result_role() -> None:
    """docs/rules.md §2: under `seer_result=role` the Seer learns the role; the event keeps the
    camp as its value (kaggle:game/roles.py:153, 200-203)."""
    g = kaggle().night("P03", seer="P02")
    (result,) = g.of(EventKind.SEER_RESULT)
    assert (result.target, result.value, result.text) == ("P02", Camp.WOLF, "werewolf")
    assert result.audience is Audience.SEAT and result.seat == "P07"
    plain = Game("8-arena").night("P03", seer="P02")
    assert plain.of(EventKind.SEER_RESULT)[0].text is None


def test_rules_2_wolves_target_only_the_good_side() -> None:
    """docs/rules.md §2: no self-knife on `kaggle` (kaggle:game/engine.py:284)."""
    g = kaggle(n1_wolf_order="P01")
    assert g.options("P01") == ("P03", "P04", "P05", "P06", "P07", "P08", "none")


def test_rules_2_wolves_propose_from_a_drawn_seat() -> None:
    """docs/rules.md §2: under `wolf_proposal_start=random_seat` the wolves propose clockwise
    from a seeded seat, living or dead (kaggle:game/protocols/ordering.py:32,
    game/protocols/vote.py:299-306)."""
    for start, first in (("P02", "P02"), ("P05", "P01"), ("P01", "P01")):
        g = kaggle(n1_wolf_order=start)
        assert decision_key(g.state) == f"n1:wolves:{first}"
    seen = set()
    for seed in range(20):
        g = Game("kaggle", seed=seed)
        (first,) = g.pending.options
        seen.add(first)
    assert seen == {"P01", "P02"}


def test_rules_2_wolf_abstention_is_not_counted() -> None:
    """docs/rules.md §2: under `wolves_must_kill`, 'none' is an abstention
    (kaggle:game/protocols/vote.py:46)."""
    g = kaggle().night(proposals={"P01": "P05", "P02": "none"})
    (target,) = g.of(EventKind.WOLF_TARGET)
    assert (target.target, target.value) == ("P05", "plurality")
    assert not g.alive("P05")


def test_rules_2_every_wolf_abstaining_draws_the_victim() -> None:
    """docs/rules.md §2: if every wolf abstains a seeded draw picks the victim among those the
    wolves may target (kaggle:game/protocols/vote.py:55-58)."""
    g = kaggle(n1_wolf_no_vote="P06").night(proposals={"P01": "none", "P02": "none"})
    (target,) = g.of(EventKind.WOLF_TARGET)
    assert (target.target, target.value) == ("P06", "all_abstained")
    assert target.targets == ("P03", "P04", "P05", "P06", "P07", "P08")
    assert not g.alive("P06")
    drawn = {
        Game("kaggle", seed=seed)
        .night(proposals={"P01": "none", "P02": "none"})
        .of(EventKind.WOLF_TARGET)[0]
        .target
        for seed in range(30)
    }
    assert drawn <= set(target.targets) and len(drawn) > 1


def test_rules_2_wolf_tie_is_drawn() -> None:
    """docs/rules.md §2: a tie among proposals is drawn (kaggle:game/protocols/vote.py:66-68);
    a script fixes the draw (docs/scripts.md)."""
    g = kaggle(n1_wolf_tie="P04").night(proposals={"P01": "P03", "P02": "P04"})
    (target,) = g.of(EventKind.WOLF_TARGET)
    assert (target.target, target.targets, target.value) == ("P04", ("P03", "P04"), "tie_broken")


def test_rules_2_guard_is_told_his_protection_saved_the_victim() -> None:
    """docs/rules.md §2: under `guard_told_of_save` the Guard learns, alone, that he saved the
    wolves' victim (kaggle:game/night_elimination_manager.py:63-73); he is told nothing
    otherwise, and by default never."""
    g = kaggle().night("P05", guard="P05")
    saved = [e for e in g.of(EventKind.GUARD) if e.value == "saved"]
    assert [(e.seat, e.target, e.audience) for e in saved] == [("P08", "P05", Audience.SEAT)]
    assert g.alive("P05")
    missed = kaggle().night("P05", guard="P04")
    assert not [e for e in missed.of(EventKind.GUARD) if e.value == "saved"]
    rulebook = Game("8-arena").night("P05", guard="P05")
    assert not [e for e in rulebook.of(EventKind.GUARD) if e.value == "saved"]


def test_rules_2_guard_may_protect_himself_and_repeat() -> None:
    """docs/rules.md §2: Kaggle's Doctor may save himself and the same player twice running
    (standard.yaml:43-44; kaggle:game/roles.py:61, 87-94)."""
    g = kaggle().night("P03", guard="P08").to_vote()
    g.roll_call({v: "P04" for v in ("P01", "P02", "P05", "P06", "P07", "P08")})
    while g.step != Step.GUARD:
        g.answer({g.pending.seats[0]: "P05" if g.step == Step.WOLVES else "P01"})
    assert "P08" in g.options("P08")


# --- §5 deaths, reveals and last words --------------------------------------------------------


def test_rules_5_roles_revealed_on_death_and_exile() -> None:
    """docs/rules.md §1, §5: under `reveal_role_on_death` every announced death and every exile
    shows the role (kaggle:game/night_elimination_manager.py:87-90, game/engine.py:495-499)."""
    g = kaggle(d1_speaking_start="P01", d1_vote_start="P01").night("P07")
    (announced,) = g.of(EventKind.DEATHS_ANNOUNCED)
    assert (announced.targets, announced.text) == (("P07",), "P07=seer")
    g.to_vote().roll_call({v: "P01" for v in ("P02", "P03", "P04", "P05", "P06", "P08")})
    exiled = [e for e in g.of(EventKind.EXILE) if e.target]
    assert [(e.target, e.text) for e in exiled] == [("P01", "role=werewolf")]
    view = seat_view(g.state, g.events, "P03")
    assert {p.seat: p.revealed_role for p in view.players if p.revealed_role} == {
        "P01": Role.WEREWOLF,
        "P07": Role.SEER,
    }


def test_rules_5_no_last_words() -> None:
    """docs/rules.md §5: without `last_words` neither a Night-1 death nor an exile speaks
    again (Kaggle has no such step: kaggle:game/engine.py:484-520)."""
    g = kaggle(d1_vote_start="P01").night("P03").to_vote()
    g.roll_call({v: "P04" for v in ("P01", "P02", "P05", "P06", "P07", "P08")})
    assert not g.speeches("last_words")
    assert not g.alive("P03") and not g.alive("P04")
    with_words = Game("8-arena").night("P03")
    assert with_words.step == Step.LAST_WORDS


# --- §6 discussion and exile vote ----------------------------------------------------------


def test_rules_6_two_round_robin_rounds_from_a_drawn_seat() -> None:
    """docs/rules.md §6: `discussion_rounds=2` and `speaking_start=random_seat`: every living
    player speaks twice, in the same order, clockwise from a seeded seat, living or dead,
    drawn once a day (kaggle:game/protocols/chat.py:58-69, ordering.py:32)."""
    g = kaggle(d1_speaking_start="P03").night("P03")  # the drawn seat died: P04 starts
    keys = []
    while g.step == Step.DISCUSSION:
        keys.append(decision_key(g.state))
        g.answer({g.pending.seats[0]: "speak"})
    order = ["P04", "P05", "P06", "P07", "P08", "P01", "P02"]
    assert speakers(g, 1) == order * 2
    assert keys[0] == "d1:discussion:t1:P04" and keys[-1] == "d1:discussion:t14:P02"


def test_rules_6_speaking_start_is_drawn_among_all_seats() -> None:
    """docs/rules.md §6: the drawn seat is any seat, so the first speaker is the first living
    seat at or after it."""
    firsts = set()
    for seed in range(40):
        g = Game("kaggle", seed=seed).night("P03")
        firsts.add(g.pending.seats[0])
    assert "P03" not in firsts and "P04" in firsts and len(firsts) > 3


def test_rules_6_roll_call_one_voter_at_a_time_each_ballot_public() -> None:
    """docs/rules.md §6: under `exile_vote=roll_call` the living vote one at a time, clockwise
    from a seeded seat, living or dead, and each ballot is public as it is cast
    (kaggle:game/protocols/vote.py:293-308, 327-346, 441-447)."""
    g = kaggle(d1_vote_start="P06").night("P07").to_vote()
    order = []
    while g.step == Step.EXILE_ROLL_CALL:
        (voter,) = g.pending.options
        assert decision_key(g.state) == f"d1:exile_roll_call:{voter}"
        cast = [e.actor for e in g.of(EventKind.BALLOT)]
        assert cast == order  # every earlier ballot is already public
        order.append(voter)
        g.answer({voter: "P02"})
    assert order == ["P06", "P08", "P01", "P02", "P03", "P04", "P05"]
    assert all(e.audience is Audience.PUBLIC for e in g.of(EventKind.BALLOT))
    assert not g.alive("P02")


def test_rules_6_self_vote() -> None:
    """docs/rules.md §6: under `exile_self_vote` a ballot may name the voter himself
    (kaggle:game/engine.py:448); by default it may not."""
    g = kaggle(d1_vote_start="P01").night("P07").to_vote()
    assert "P01" in g.options("P01")
    plain = Game("8-arena").night("P07").to_vote()
    assert "P01" not in plain.options("P01")


def test_rules_6_tie_is_drawn_among_the_tied() -> None:
    """docs/rules.md §6: `exile_tie=draw`: a seeded draw exiles one of the tied players
    (kaggle:game/protocols/vote.py:52-69); the exile names the players it was drawn among."""
    g = kaggle(d1_vote_start="P01", d1_exile_tie="P05").night("P07").to_vote()
    g.roll_call({"P01": "P04", "P02": "P04", "P03": "P05", "P04": "P05"})
    (result,) = g.of(EventKind.VOTE_RESULT)
    assert result.targets == ("P04", "P05")
    (exile,) = g.of(EventKind.EXILE)
    assert (exile.target, exile.targets) == ("P05", ("P04", "P05"))
    assert not g.alive("P05") and g.alive("P04")


def test_rules_6_tie_exiles_nobody_under_exile_tie_nobody() -> None:
    """docs/rules.md §6: `exile_tie=nobody` (Kaggle's `no_elected`,
    kaggle:game/protocols/vote.py:25-26, 69): a tie exiles nobody."""
    g = Game("8-arena", variants={"exile_tie": "nobody", "exile_needs_majority": False})
    g.night("P07").to_vote().vote({"P01": "P04", "P02": "P04", "P03": "P05", "P04": "P05"})
    (exile,) = g.of(EventKind.EXILE)
    assert (exile.target, exile.value, exile.text) == (None, "nobody", "tie")
    assert g.step == Step.WOLVES


def test_rules_6_everyone_abstaining_exiles_a_drawn_player() -> None:
    """docs/rules.md §6: `exile_all_abstain=draw`: if everyone abstains a seeded draw among the
    players who could be voted for is exiled (kaggle:game/protocols/vote.py:55-58); by
    default nobody is."""
    g = kaggle(d1_vote_start="P01", d1_exile_no_vote="P02").night("P07").to_vote().roll_call()
    (exile,) = g.of(EventKind.EXILE)
    assert exile.target == "P02"
    assert exile.targets == ("P01", "P02", "P03", "P04", "P05", "P06", "P08")
    plain = Game("8-arena").night("P07").to_vote().vote()
    assert [e.value for e in plain.of(EventKind.EXILE)] == ["nobody"]


def test_rules_6_simultaneous_vote_with_draws() -> None:
    """docs/rules.md §6: the tie and abstention draws also settle a simultaneous vote."""
    flags = {"exile_tie": "draw", "exile_all_abstain": "draw", "exile_needs_majority": False}
    g = Game("8-arena", variants=flags, draws={"d1:exile_tie": "P04"})
    g.night("P07").to_vote().vote({"P01": "P04", "P02": "P04", "P03": "P05", "P04": "P05"})
    assert [e.target for e in g.of(EventKind.EXILE)] == ["P04"]


# --- §8 winning and scores ---------------------------------------------------------------


def test_rules_8_kaggle_scores_one_and_zero() -> None:
    """docs/rules.md §8: under `scoring=win_only` the winners score 1 and the losers 0
    (kaggle:game/engine.py:535-536, 543-544); the rulebook's +1/-1 elsewhere."""
    g = kaggle(d1_vote_start="P01").night("P03").to_vote()
    g.roll_call({v: "P01" for v in ("P02", "P04", "P05", "P06", "P07", "P08")})
    g.night(proposals={"P02": "P04"}).to_vote().roll_call(
        {v: "P02" for v in ("P04", "P05", "P06", "P07", "P08")}
    )
    assert g.over and g.state.winner is Camp.GOOD
    scores = returns(g.state)
    assert {scores[s] for s in ("P01", "P02")} == {0.0}
    assert {scores[s] for s in SEATS[2:]} == {1.0}


# --- scripts fix the moderator's draws ---------------------------------------------------------


def test_a_fixed_draw_must_be_one_of_the_draws_items() -> None:
    """docs/scripts.md, "Draws": a script's outcome that the draw could not give is refused."""
    with pytest.raises(IllegalAction, match=r"draw n1:wolf_tie: the script's 'P07'"):
        kaggle(n1_wolf_tie="P07").night(proposals={"P01": "P03", "P02": "P04"})


def test_fixed_draws_are_never_in_a_seats_view() -> None:
    """RULES §9: the script's draws are the moderator's, never a player's."""
    g = kaggle(n1_wolf_tie="P04")
    assert g.state.draws == {"n1:wolf_tie": "P04"}
    assert "draws" not in SeatView.model_fields
    assert "wolf_tie" not in seat_view(g.state, g.events, "P01").model_dump_json()
