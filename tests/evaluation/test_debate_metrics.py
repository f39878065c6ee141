"""The debate and belief metrics on one hand-built game, worked out by hand with their
chance levels, and their bootstrap over games; a small probed tournament reports all of
them with intervals.

Seats: P01, P02 wolves; P03 villager; P04 seer (and sheriff); P05 witch.
"""

import itertools
import json
import math
from pathlib import Path
from typing import Any

import pytest

from autowerewolf.evaluation.bootstrap import GameTable, Resamples, Sums
from autowerewolf.evaluation.debate.probes import debate_row, entropy
from autowerewolf.evaluation.debate.stats import METRICS, SpeechChart, game_columns, summarize
from autowerewolf.evaluation.games.facts import game_row, roles_of
from autowerewolf.evaluation.report.build import build_report
from autowerewolf.evaluation.tournament.config import TournamentConfig
from autowerewolf.evaluation.tournament.play import run_tournament
from autowerewolf.evaluation.tournament.results import iter_rows
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import Seating
from autowerewolf.rules.events import Audience, Event, EventKind
from tests.fixed import HEX_SECRET

ROLE_NAMES = ("werewolf", "villager", "seer", "witch")


def ev(kind: EventKind, **fields: object) -> Event:
    return Event(kind=kind, day=1, phase="x", audience=Audience.OMNISCIENT, **fields)


SEATS = ("P01", "P02", "P03", "P04", "P05")


def others(seat: str) -> tuple[str, ...]:
    """A ballot's options: every other seat, or abstain (five options)."""
    return (*(s for s in SEATS if s != seat), "abstain")


def rec(seat: str, key: str, option: str, purpose: str = "probe", **fields: Any) -> DecisionRecord:
    step = key.rsplit(":", 1)[-1] if purpose == "probe" else key.split(":")[1]
    options = () if "role_estimates" in key or purpose != "probe" else others(seat)
    return DecisionRecord(
        seat=seat, player="random", purpose=purpose, day=1, step=step, key=key,
        options=options, option=option, **fields,
    )  # fmt: skip


def poll(key: str, votes: dict[str, str]) -> list[DecisionRecord]:
    return [rec(seat, key, target) for seat, target in votes.items()]


def estimate(seat: str, rows: dict[str, tuple[int, int, int, int]]) -> DecisionRecord:
    data = {
        "estimates": {t: dict(zip(ROLE_NAMES, r, strict=True)) for t, r in rows.items()},
        "evidence": dict.fromkeys(rows, "because"),
    }
    return rec(seat, "d1:exile_vote:r1:role_estimates", "none", data=data)


EVENTS = [
    ev(
        EventKind.GAME_START,
        value="custom",
        text="P01=Alex, P02=Blair, P03=Casey, P04=Dana, P05=Eli",
    ),
    ev(EventKind.DEAL, text="P01=werewolf, P02=werewolf, P03=villager, P04=seer, P05=witch"),
    ev(EventKind.SHERIFF, target="P04", value="elected"),
    *(
        ev(EventKind.BALLOT, actor=v, target=t, value="exile", round=1, weight=1.0)
        for v, t in {"P04": "P01", "P01": "P03", "P02": "P01", "P03": "P01", "P05": "P01"}.items()
    ),
    ev(EventKind.GAME_OVER, value="good"),
]
RECORDS = [
    rec("P01", "d1:discussion:P01", "speak", purpose="decision", text="I trust everyone."),
    *poll(
        "d1:discussion:P01:speech_votes",
        {"P02": "P03", "P03": "P04", "P04": "P03", "P05": "abstain"},
    ),
    rec(
        "P02", "d1:discussion:P02", "speak", purpose="decision", text="Casey is lying, and P04 too"
    ),
    *poll(
        "d1:discussion:P02:speech_votes", {"P01": "P03", "P03": "P01", "P04": "P03", "P05": "P03"}
    ),
    *poll(
        "d1:discussion:P04:pre_vote",
        {"P01": "P03", "P02": "P03", "P03": "P01", "P04": "P01", "P05": "P02"},
    ),
    estimate(
        "P03", {"P01": (4, 0, 0, 0), "P02": (2, 2, 0, 0), "P04": (0, 1, 3, 0), "P05": (1, 1, 1, 1)}
    ),
    estimate(
        "P04", {"P01": (2, 2, 0, 0), "P02": (2, 2, 0, 0), "P03": (3, 1, 0, 0), "P05": (0, 0, 0, 4)}
    ),
    estimate(
        "P01", {"P02": (4, 0, 0, 0), "P03": (0, 4, 0, 0), "P04": (0, 0, 4, 0), "P05": (0, 2, 0, 2)}
    ),
]


# The first-round exile ballots as decisions, with their legal options (for chance levels).
BALLOTS = [
    DecisionRecord(
        seat=v,
        player="random",
        day=1,
        step="exile_vote",
        key="d1:exile_vote:r1",
        options=others(v),
        option=t,
    )
    for v, t in {"P04": "P01", "P01": "P03", "P02": "P01", "P03": "P01", "P05": "P01"}.items()
]
RANDOM_ACC = (1 - 5**-4) / 4  # four roles rated 0-4 uniformly: E[rating / sum]


@pytest.fixture(scope="module")
def seats() -> dict[str, dict[str, list[float]]]:
    row = debate_row(EVENTS, RECORDS + BALLOTS, roles_of(EVENTS))
    assert row is not None
    return row["seats"]


def ratio(seats: dict[str, dict[str, list[float]]], seat: str, metric: str) -> float:
    num, den = seats[seat][metric][:2]
    return num / den


def chance(seats: dict[str, dict[str, list[float]]], seat: str, metric: str) -> float:
    cell = seats[seat][metric]
    assert cell[3] == cell[1]  # every contribution's chance was known
    return cell[2] / cell[3]


def test_sheriff_influence(seats: dict[str, dict[str, list[float]]]) -> None:
    """The sheriff P04 voted P01. Of P01, P02, P03, P05 (pre-vote -> ballot), P02 (P03 -> P01)
    and P05 (P02 -> P01) moved to it; P03 already meant P01, P01 stayed on P03: 2 of 4.
    Chance: a random ballot names P01 with 1/5 for P02 and P05 (five options each), never
    for P01 (not among its own options), and for P03 it would be no change: 0.4 of 4."""
    assert seats["P04"]["sheriff_influence"][:2] == [2, 4]
    assert chance(seats, "P04", "sheriff_influence") == pytest.approx(0.1)
    assert all("sheriff_influence" not in m for s, m in seats.items() if s != "P04")


def test_voting_entropy(seats: dict[str, dict[str, list[float]]]) -> None:
    """After P01: P03 twice, P04 once (the abstention left out); after P02: P03 thrice, P01
    once."""
    h1 = -(2 / 3 * math.log2(2 / 3) + 1 / 3 * math.log2(1 / 3))
    h2 = -(3 / 4 * math.log2(3 / 4) + 1 / 4 * math.log2(1 / 4))
    assert ratio(seats, "P01", "voting_entropy") == pytest.approx(h1)
    assert ratio(seats, "P02", "voting_entropy") == pytest.approx(h2)
    assert entropy({"a": None}) is None
    # Normalised by log2 of the seats the voters could name (all five).
    assert ratio(seats, "P01", "voting_entropy_norm") == pytest.approx(h1 / math.log2(5))


def exact_random_entropy(voters: list[str]) -> float:
    """The expected entropy of uniformly random ballots, by enumerating all of them."""
    total = 0.0
    combos = list(itertools.product(*(others(v) for v in voters)))
    for votes in combos:
        h = entropy({v: None if t == "abstain" else t for v, t in zip(voters, votes, strict=True)})
        total += h or 0.0
    return total / len(combos)


def test_voting_entropy_chance_is_that_of_random_voters(
    seats: dict[str, dict[str, list[float]]],
) -> None:
    """Monte Carlo (2,000 draws) against the exact expectation over 5^4 ballot sets."""
    after_p01 = exact_random_entropy(["P02", "P03", "P04", "P05"])
    assert chance(seats, "P01", "voting_entropy") == pytest.approx(after_p01, abs=0.03)
    assert chance(seats, "P01", "voting_entropy_norm") == pytest.approx(
        after_p01 / math.log2(5), abs=0.015
    )


def test_vote_swing(seats: dict[str, dict[str, list[float]]]) -> None:
    """P02 names Casey (P03) first. Polled before and after, the target excepted: P04
    (already on P03) and P05 (abstain -> P03): 1 of 2. P01's speech names nobody and is the
    day's first. Chance: P04 was on P03 already (0); P05 moves onto it with 1/5: 0.1."""
    assert seats["P02"]["vote_swing"][:2] == [0.5, 1]
    assert chance(seats, "P02", "vote_swing") == pytest.approx(0.1)
    assert "vote_swing" not in seats["P01"]


def test_est(seats: dict[str, dict[str, list[float]]]) -> None:
    """Acc = rating of the true role / the ratings' sum, averaged over the raters."""
    expected = {
        "P01": (4 / 4 + 2 / 4) / 2,
        "P02": (2 / 4 + 2 / 4 + 4 / 4) / 3,
        "P03": (1 / 4 + 4 / 4) / 2,
        "P04": (3 / 4 + 4 / 4) / 2,
        "P05": (1 / 4 + 4 / 4 + 2 / 4) / 3,
    }
    for seat, value in expected.items():
        assert ratio(seats, seat, "est") == pytest.approx(value), seat
        assert chance(seats, seat, "est") == pytest.approx(RANDOM_ACC)


def test_irp_belief(seats: dict[str, dict[str, list[float]]]) -> None:
    """P03's top wolf suspect is P01 (a wolf); P04's is P03 (3 of 4): a miss. The wolf P01's
    estimate does not count."""
    assert seats["P03"]["irp_belief"][:2] == [1, 1]
    assert seats["P04"]["irp_belief"][:2] == [0, 1]
    assert "irp_belief" not in seats["P01"]
    # Each rated four seats, two of them wolves; all four werewolf ratings 0 is a miss.
    for seat in ("P03", "P04"):
        assert chance(seats, seat, "irp_belief") == pytest.approx(2 / 4 * (1 - 5**-4))


def test_deception(seats: dict[str, dict[str, list[float]]]) -> None:
    """1 - the good observers' mean wolf likelihood: P01 1 - (1 + 1/2)/2, P02 1 - 1/2."""
    assert ratio(seats, "P01", "deception") == pytest.approx(0.25)
    assert ratio(seats, "P02", "deception") == pytest.approx(0.5)
    assert chance(seats, "P01", "deception") == pytest.approx(1 - RANDOM_ACC)


def test_probe_calls_are_counted_apart() -> None:
    seating = Seating(contestants={f"P0{i}": "A" for i in range(1, 6)})
    row = game_row("g", EVENTS, RECORDS, seating)
    assert row["seats"]["P03"]["decisions"] == 0 and row["seats"]["P03"]["probe_calls"] == 4
    assert row["seats"]["P01"]["decisions"] == 1


def row(game: str, deception: tuple[float, float], day_entropy: list[float | None]) -> Any:
    return {
        "game_id": game,
        "seats": {"P01": {"contestant": "A", "role": "werewolf"}},
        "debate": {
            "seats": {"P01": {"deception": [*deception, deception[1] * 0.8, deception[1]]}},
            "entropy": {"1": day_entropy},
            "series": {"1": [{"speaker": "P01", "votes": {"P02": 1}}]},
        },
    }


def test_bootstrap_over_games() -> None:
    """Ratio of sums over games; the 95% interval lies between the games' own ratios."""
    table, chart = GameTable(), SpeechChart(plot_game="g2")
    games = [
        row("g1", (0.25, 1), [1.0, None, 0.5]),
        row("g2", (1.5, 2), [0.25]),
        {"game_id": "g3", "seats": {}, "debate": None},  # played without probes
    ]
    for game in games:
        values: dict[Any, float] = {}
        game_columns(game, values)
        table.add(values)
        chart.add(game)
    results = summarize(Sums(table, Resamples(table.games, 500, 1)), ["A"])
    assert results["games"] == 2
    for cells in (
        results["contestants"]["A"]["all"],
        results["contestants"]["A"]["by_role"]["werewolf"],
    ):
        cell = cells["deception"]
        assert cell["value"] == pytest.approx(1.75 / 3) and cell["n"] == 3
        assert cell["games"] == 2 and cell["chance"] == pytest.approx(0.8)
        # Two games: at least the span of their own ratios, and a share's Wilson width.
        assert 0.0 <= cell["lo"] < 0.25 < cell["value"] < 0.75 < cell["hi"] <= 1.0
        assert cells["est"]["value"] is None
    day = results["voting_entropy_by_day"]["1"]
    assert day["value"] == pytest.approx((0.75 + 0.25) / 2) and day["games"] == 2
    assert [s["value"] for s in day["by_speech"]] == [pytest.approx(0.625), None, 0.5]
    assert chart.series is not None and chart.series[0] == "g2"


@pytest.mark.long
def test_a_probed_tournament_reports_every_metric_with_intervals(tmp_path: Path) -> None:
    config = TournamentConfig.model_validate(
        {
            "name": "probed",
            "games": 4,
            "seed": 3,
            "secret": HEX_SECRET,  # the same games every run: a stable finding
            "variants": {"discussion": "bidding"},
            "probes": ["pre_vote", "speech_votes", "role_estimates"],
            "contestants": [
                {"name": "heuristic", "kind": "heuristic"},
                {"name": "random", "kind": "random"},
            ],
        }
    )
    db = tmp_path / "games.db"
    run_tournament(config, db)
    report = build_report(iter_rows(db, "probed"), tmp_path / "report", resamples=200)
    data = json.loads((tmp_path / "report" / "metrics.json").read_text())
    assert data["debate"]["games"] == 4 and data["debate"]["plot_game"] == "probed-00000"
    for m in data["contestants"]:
        for metric in ("sheriff_influence", "voting_entropy", "est", "irp_belief", "deception"):
            cell = m[metric]
            assert cell["lo"] <= cell["value"] <= cell["hi"], (m["contestant"], metric)
            assert cell["games"] >= 1 and cell["chance"] is not None, (m["contestant"], metric)
        assert set(METRICS) <= set(m) and m["probe_calls_per_game"]["value"] > 0
        assert "werewolf" in m["debate_by_role"]
    assert (tmp_path / "report" / "plots" / "speech_votes.png").is_file()
    assert (tmp_path / "report" / "debate.csv").read_text().count("\n") > 12
    assert "Debate and beliefs" in (tmp_path / "report" / "report.md").read_text()
    assert report.games == 4
