"""Each metric on one hand-built game whose values were worked out by hand.

Deal: P01-P04 wolves, P05-P08 villagers, P09 seer, P10 witch, P11 hunter, P12 guard.
Contestant A holds P01 P02 P05 P06 P07 P09 P11; B holds P03 P04 P08 P10 P12.
N1 wolves bite P05, the witch saves her, the guard covers P09; D1 P01 is exiled.
N2 wolves bite P11, guarded; the witch poisons P06; D2 a three-way tie, then P02 is exiled.
N3 P11 dies and shoots P03; D3 P04 is exiled and the good camp wins.
"""

import pytest

from autowerewolf.evaluation.bootstrap import Resamples, Sums, wilson
from autowerewolf.evaluation.games.facts import game_row
from autowerewolf.evaluation.report.metrics import Aggregator, Base, contestant_metrics
from autowerewolf.evaluation.tournament.config import Price
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import Seating
from autowerewolf.rules.events import Audience, Event, EventKind

ROLES = ["werewolf"] * 4 + ["villager"] * 4 + ["seer", "witch", "hunter", "guard"]
SEATS = [f"P{i:02d}" for i in range(1, 13)]
A_SEATS = {"P01", "P02", "P05", "P06", "P07", "P09", "P11"}


def ev(kind: EventKind, day: int, **fields: object) -> Event:
    return Event(kind=kind, day=day, phase="x", audience=Audience.OMNISCIENT, **fields)


def votes(day: int, round_: int, ballots: dict[str, str | None]) -> list[Event]:
    return [
        ev(EventKind.BALLOT, day, actor=v, target=t, value="exile", weight=1.0, round=round_)
        for v, t in ballots.items()
    ]


def hand_built_events() -> list[Event]:
    deal = ", ".join(f"{s}={r}" for s, r in zip(SEATS, ROLES, strict=True))
    events = [
        ev(EventKind.GAME_START, 1, value="12-A"),
        ev(EventKind.DEAL, 1, text=deal),
        ev(EventKind.WOLF_TARGET, 1, target="P05"),
        ev(EventKind.SEER_RESULT, 1, seat="P09", target="P01", value="wolf"),
        ev(EventKind.WITCH_CURE, 1, actor="P10", target="P05"),
        ev(EventKind.GUARD, 1, actor="P12", target="P09"),
    ]
    events += votes(
        1,
        1,
        {
            "P01": "P09",
            "P02": "P09",
            "P03": "P10",
            "P04": "P10",
            "P05": "P01",
            "P06": "P07",
            "P07": "P02",
            "P08": "P03",
            "P09": "P01",
            "P10": "P05",
            "P11": "P01",
            "P12": None,
        },
    )
    events += [
        ev(EventKind.EXILE, 1, target="P01", value="exiled"),
        ev(EventKind.DEATH, 1, target="P01", value="exile"),
        ev(EventKind.WOLF_TARGET, 2, target="P11"),
        ev(EventKind.SEER_RESULT, 2, seat="P09", target="P02", value="wolf"),
        ev(EventKind.WITCH_POISON, 2, actor="P10", target="P06"),
        ev(EventKind.GUARD, 2, actor="P12", target="P11"),
        ev(EventKind.DEATH, 2, target="P06", value="poison"),
    ]
    events += votes(
        2,
        1,
        {
            "P02": "P09",
            "P03": "P09",
            "P04": "P09",
            "P05": "P02",
            "P07": "P02",
            "P08": "P03",
            "P09": "P02",
            "P10": "P03",
            "P11": "P03",
            "P12": None,
        },
    )
    events += votes(
        2,
        2,
        {
            "P02": "P09",
            "P03": "P09",
            "P04": "P09",
            "P05": "P02",
            "P07": "P02",
            "P08": "P02",
            "P09": "P02",
            "P10": "P03",
            "P11": "P02",
            "P12": "P02",
        },
    )
    events += [
        ev(EventKind.EXILE, 2, target="P02", value="exiled"),
        ev(EventKind.DEATH, 2, target="P02", value="exile"),
        ev(EventKind.WOLF_TARGET, 3, target="P11"),
        ev(EventKind.SEER_RESULT, 3, seat="P09", target="P01", value="wolf"),
        ev(EventKind.GUARD, 3, actor="P12", target="P09"),
        ev(EventKind.DEATH, 3, target="P11", value="wolf_kill"),
        ev(EventKind.HUNTER_SHOT, 3, actor="P11", target="P03", value="hunter"),
        ev(EventKind.DEATH, 3, target="P03", value="shot"),
    ]
    events += votes(
        3,
        1,
        {
            "P04": "P09",
            "P05": "P04",
            "P07": "P04",
            "P08": "P04",
            "P09": "P04",
            "P10": "P04",
            "P12": "P07",
        },
    )
    events += [
        ev(EventKind.EXILE, 3, target="P04", value="exiled"),
        ev(EventKind.DEATH, 3, target="P04", value="exile"),
        ev(EventKind.GAME_OVER, 3, value="good"),
    ]
    return events


def record(seat: str, **fields: object) -> DecisionRecord:
    base = {
        "seat": seat,
        "player": "llm",
        "day": 1,
        "step": "x",
        "key": "k",
        "options": ("a",),
        "option": "a",
    }
    return DecisionRecord(**{**base, **fields})


RECORDS = [
    record("P05", model="m1", tokens_in=100, tokens_out=20, latency_s=0.5, fallback=i == 0)
    for i in range(4)
] + [record("P08", player="random"), record("P08", player="random")]
SEATING = Seating(contestants={s: "A" if s in A_SEATS else "B" for s in SEATS})


@pytest.fixture(scope="module")
def metrics() -> dict[str, dict]:
    row = game_row("g1", hand_built_events(), RECORDS, SEATING, {"m1": Price(input=1, output=2)})
    agg = Aggregator().add_all([row])
    sums = Sums(agg.table, Resamples(agg.table.games, 100, 0))
    base = Base.of(sums)
    return {name: contestant_metrics(name, sums, base) for name in agg.contestants}


def value(cell: dict) -> float | None:
    assert set(cell) == {"value", "lo", "hi", "n", "games", "chance"}
    return cell["value"]


def test_wilson_interval_matches_the_textbook_value() -> None:
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4)
    assert hi == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_interval_holds_the_rate_at_the_extremes() -> None:
    for n in range(1, 60):
        assert wilson(0, n)[0] == 0.0 and wilson(n, n)[1] == 1.0


def test_win_rates(metrics: dict[str, dict]) -> None:
    a, b = metrics["A"], metrics["B"]
    assert value(a["win"]) == pytest.approx(5 / 7)
    assert value(b["win"]) == pytest.approx(3 / 5)
    assert a["win"]["games"] == 1 and a["win"]["n"] == 1
    assert value(a["win_by_role"]["werewolf"]) == 0
    assert value(a["win_by_role"]["seer"]) == 1
    # A: werewolf 0, villager 1, seer 1, hunter 1; B: werewolf 0, villager, witch, guard 1.
    assert value(a["balanced_win_rate"]) == pytest.approx(0.75)
    assert value(b["balanced_win_rate"]) == pytest.approx(0.75)
    assert value(a["head_to_head"]["B"]) == 1.0 and a["head_to_head"]["B"]["n"] == 1
    # Chance of an outcome: the camp's rate over these games. The good camp won the only
    # game: A's seats are 5 good of 7, so a contestant without influence wins 5/7.
    assert a["win"]["chance"] == pytest.approx(5 / 7)
    assert a["win_by_role"]["werewolf"]["chance"] == 0
    assert a["head_to_head"]["B"]["chance"] == 0.5


def test_survival(metrics: dict[str, dict]) -> None:
    assert value(metrics["A"]["key_role_survival"]) == pytest.approx(0.5)  # seer alive, hunter dead
    assert value(metrics["B"]["key_role_survival"]) == pytest.approx(1.0)  # witch, guard alive
    assert value(metrics["A"]["wolf_survival"]) == 0
    assert value(metrics["B"]["survival_by_role"]["villager"]) == 1
    # Chance: every seat of the role in these games (3 of 4 key roles, 3 of 4 villagers).
    assert metrics["A"]["key_role_survival"]["chance"] == pytest.approx(3 / 4)
    assert metrics["B"]["survival_by_role"]["villager"]["chance"] == pytest.approx(3 / 4)


def test_irp_and_vss_both_definitions(metrics: dict[str, dict]) -> None:
    a, b = metrics["A"], metrics["B"]
    assert value(a["irp_ballot"]) == pytest.approx(15 / 16)
    assert a["irp_ballot"]["n"] == 16 and a["irp_ballot"]["games"] == 1
    assert value(b["irp_ballot"]) == pytest.approx(8 / 12)
    assert value(a["vss_ballot"]) == pytest.approx(10 / 12)
    assert value(b["vss_ballot"]) == pytest.approx(4 / 9)
    assert value(a["irp_game"]) == pytest.approx(15 / 16)
    assert value(a["vss_game"]) == pytest.approx(1.0)  # three exiles, all wolves
    # This game's records carry no ballot options: no chance level, rather than a guess.
    assert a["irp_ballot"]["chance"] is None


def test_role_kpis(metrics: dict[str, dict]) -> None:
    assert value(metrics["A"]["role_kpi"]["seer"]) == pytest.approx(2 / 4)
    assert value(metrics["A"]["role_kpi"]["hunter"]) == pytest.approx(1.0)
    assert value(metrics["B"]["role_kpi"]["witch"]) == pytest.approx(1 / 2)
    assert value(metrics["B"]["role_kpi"]["guard"]) == pytest.approx(1 / 3)
    assert value(metrics["B"]["role_kpi"]["werewolf"]) == 0
    assert value(metrics["A"]["role_kpi"]["witch"]) is None


def test_a_game_without_probes_has_no_debate_measurements() -> None:
    row = game_row("g1", hand_built_events(), RECORDS, SEATING, {})
    assert row["debate"] is None
    assert all(s["probe_calls"] == 0 for s in row["seats"].values())


def test_validity_tokens_cost_latency(metrics: dict[str, dict]) -> None:
    a, b = metrics["A"], metrics["B"]
    assert value(a["fallback_rate"]) == pytest.approx(0.25) and a["fallback_rate"]["n"] == 4
    assert value(a["illegal_rate"]) == pytest.approx(0.25)  # the fallback's first answer
    assert value(b["fallback_rate"]) == 0 and b["fallback_rate"]["chance"] == 0
    assert value(a["tokens_per_game"]) == 480
    assert value(a["cost_usd_per_game"]) == pytest.approx(4 * (100 * 1 + 20 * 2) / 1e6)
    assert value(a["latency_s_per_game"]) == pytest.approx(2.0)
    assert a["cost_complete"] and b["cost_complete"]


def test_unpriced_model_is_flagged() -> None:
    row = game_row("g1", hand_built_events(), RECORDS, SEATING, {})
    assert row["seats"]["P05"]["unpriced"]
    assert row["seats"]["P05"]["cost_usd"] == 0
