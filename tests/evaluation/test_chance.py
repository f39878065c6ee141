"""Chance levels worked out by hand on one small game: what a uniformly random player would
score on the same decisions, from each decision's legal options (never a constant).

Deal: P01, P02 wolves; P03, P08 villagers; P04 seer; P05 witch; P06 hunter; P07 guard.
Contestant A holds P01 P03 P04 P07; B holds P02 P05 P06 P08.
N1: P01 proposes P03, P02 proposes itself, the pack bites P03, the guard covers P03, the
seer checks P01 (a wolf), the witch poisons the hunter P06. D1: P02 speaks; P01 is exiled.
"""

from typing import Any

import pytest

from autowerewolf.evaluation.bootstrap import Resamples, Sums
from autowerewolf.evaluation.games.blunders import chances, judgements
from autowerewolf.evaluation.games.facts import game_row
from autowerewolf.evaluation.report.metrics import Aggregator, Base, contestant_metrics
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import Seating
from autowerewolf.rules.events import Audience, Event, EventKind

ROLES = {
    "P01": "werewolf",
    "P02": "werewolf",
    "P03": "villager",
    "P04": "seer",
    "P05": "witch",
    "P06": "hunter",
    "P07": "guard",
    "P08": "villager",
}
SEATS = tuple(ROLES)
A = {"P01", "P03", "P04", "P07"}
DAY1 = [s for s in SEATS if s != "P06"]  # the hunter was poisoned in the night


def ev(kind: EventKind, **fields: Any) -> Event:
    return Event(kind=kind, day=1, phase="x", audience=Audience.OMNISCIENT, **fields)


def dec(seat: str, step: str, key: str, options: tuple[str, ...], option: str) -> DecisionRecord:
    return DecisionRecord(
        seat=seat, player="random", day=1, step=step, key=key, options=options, option=option
    )


BALLOTS = {"P01": "P04", "P02": "P04", "P03": "P01", "P04": "P01", "P05": "P02", "P07": None}
BALLOTS["P08"] = "P01"
EVENTS = [
    ev(EventKind.GAME_START, value="custom", text=", ".join(f"{s}={s}" for s in SEATS)),
    ev(EventKind.DEAL, text=", ".join(f"{s}={r}" for s, r in ROLES.items())),
    ev(EventKind.WOLF_PROPOSAL, actor="P01", target="P03"),
    ev(EventKind.WOLF_PROPOSAL, actor="P02", target="P02"),
    ev(EventKind.WOLF_TARGET, target="P03"),
    ev(EventKind.SEER_RESULT, seat="P04", target="P01", value="wolf"),
    ev(EventKind.GUARD, actor="P07", target="P03"),
    ev(EventKind.WITCH_POISON, actor="P05", target="P06"),
    ev(EventKind.DEATH, target="P06", value="poison"),
    ev(EventKind.SPEECH, actor="P02", value="discussion", text="Hello."),
    *(
        ev(EventKind.BALLOT, actor=v, target=t, value="exile", round=1, weight=1.0)
        for v, t in BALLOTS.items()
    ),
    ev(EventKind.EXILE, target="P01", value="exiled"),
    ev(EventKind.DEATH, target="P01", value="exile"),
    ev(EventKind.GAME_OVER, value="good"),
]
NIGHT = (*SEATS, "none")  # every seat alive, or nobody: nine options
RECORDS = [
    dec("P01", "wolves", "n1:wolves:P01", NIGHT, "P03"),
    dec("P02", "wolves", "n1:wolves:P02", NIGHT, "P02"),
    dec("P04", "seer", "n1:seer", tuple(s for s in SEATS if s != "P04"), "P01"),
    dec("P07", "guard", "n1:guard", NIGHT, "P03"),
    dec(
        "P05", "witch_poison", "n1:witch_poison", (*(s for s in SEATS if s != "P05"), "none"), "P06"
    ),
    dec("P02", "discussion", "d1:discussion:P02", ("speak", "explode"), "speak"),
    *(
        dec(
            v,
            "exile_vote",
            "d1:exile_vote:r1",
            (*(s for s in DAY1 if s != v), "abstain"),
            t or "abstain",
        )
        for v, t in BALLOTS.items()
    ),
]


@pytest.fixture(scope="module")
def row() -> Any:
    seating = Seating(contestants={s: "A" if s in A else "B" for s in SEATS})
    return game_row("g", EVENTS, RECORDS, seating)


def test_blunder_chances_by_hand() -> None:
    odds = chances(judgements(EVENTS, RECORDS))
    # A wolf's proposal: two wolves among nine options (the seats and an empty knife).
    assert odds["P01"]["wolf_self_kill"] == [pytest.approx(2 / 9), 1]
    # P02's discussion speech: exploding there (one of speak/explode) would be needless
    # (two wolves alive, no election, no PK, two villagers and three gods alive).
    assert odds["P02"]["wolf_needless_explosion"] == [pytest.approx(1 / 2), 1]
    # A wolf's ballot: its one teammate among seven options (six seats and abstain).
    assert odds["P02"]["wolf_votes_teammate_out"] == [pytest.approx(1 / 7), 1]
    # The witch's poison, once cast: five good seats among the seven she could poison.
    assert odds["P05"]["witch_poisons_good"] == [pytest.approx(5 / 7), 1]
    assert odds["P05"]["witch_poisons_revealed_good"] == [0, 1]
    # Overall: per decision, any metric's blunder options; P02 decided three times.
    assert odds["P02"]["overall"] == [pytest.approx(2 / 9 + 1 / 2 + 1 / 7), 3]
    assert odds["P05"]["overall"] == [pytest.approx(5 / 7), 2]  # the poison and its ballot


def test_row_and_contestant_chances_by_hand(row: Any) -> None:
    seats = row["seats"]
    # Each good ballot: the two living wolves among seven options.
    assert seats["P03"]["irp_chance"] == pytest.approx(2 / 7)
    # The deciding round exiled P01: one of seven options per good ballot.
    assert seats["P05"]["vss_chance"] == pytest.approx(1 / 7)
    assert row["exile_chance"] == pytest.approx(2 / 7)  # two wolves of seven candidates
    # KPIs: the seer's check hits a wolf not yet found with 2/7 (over 2 wolves); the
    # witch's poison a wolf with 2/7; the guard the bitten seat with 1/9.
    assert (seats["P04"]["kpi_num"], seats["P04"]["kpi_den"]) == (1, 2)
    assert seats["P04"]["kpi_chance"] == pytest.approx(2 / 7)
    assert seats["P05"]["kpi_chance"] == pytest.approx(2 / 7)
    assert (seats["P07"]["kpi_num"], seats["P07"]["kpi_chance"]) == (1, pytest.approx(1 / 9))
    assert seats["P01"]["kpi_chance"] is None  # the werewolf KPI is an outcome
    assert seats["P02"]["blunders"]["wolf_self_kill"] == [1, 1, pytest.approx(2 / 9), 1]
    agg = Aggregator().add_all([row])
    sums = Sums(agg.table, Resamples(1, 50, 0))
    a = contestant_metrics("A", sums, Base.of(sums))
    assert a["irp_ballot"]["value"] == pytest.approx(2 / 3)  # P03, P04 at P01; P07 abstained
    assert a["irp_ballot"]["chance"] == pytest.approx(2 / 7)
    assert a["vss_ballot"]["chance"] == pytest.approx(1 / 7)
    assert a["vss_game"]["chance"] == pytest.approx(2 / 7)
    assert a["role_kpi"]["seer"]["chance"] == pytest.approx(1 / 7)  # (2/7) / 2 wolves
    assert a["role_kpi"]["guard"]["chance"] == pytest.approx(1 / 9)
    # A's decisions: P01's proposal and ballot, P04's check and ballot, P03's and P07's
    # ballots, P07's guard is no blunder metric.
    overall = a["blunders"]["overall"]
    assert overall["n"] == 6
    assert overall["chance"] == pytest.approx((2 / 9 + 1 / 7) / 6)
