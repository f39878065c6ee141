"""Decision positions: items hold exactly the seat's view (leak scan) and a separate answer
key; the MVP is the documented one; filters; the source database is never written."""

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from autowerewolf.backends.simulated import REASONING as SIMULATED_REASONING
from autowerewolf.cli import app
from autowerewolf.evaluation.bootstrap import MIN_GAMES, wilson
from autowerewolf.evaluation.positions.items import (
    Filters,
    Kept,
    build_items,
    mvp_seat,
    player_kind,
    read_items,
    write_items,
)
from autowerewolf.evaluation.positions.scores import block_text, cluster_mean
from autowerewolf.evaluation.report.cells import SMALL_MARK, SMALL_NOTE
from autowerewolf.players.records import DecisionRecord
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.views import seat_view
from autowerewolf.runner import GameRecord, Games
from tests.evaluation.conftest import files_digest
from tests.fixed import SECRET
from tests.graph.graph_helpers import load_record, load_records

SEED = 7_654_324  # distinctive: must never appear in what a model is shown
DEAL = (
    "werewolf", "villager", "seer", "werewolf", "witch", "villager",
    "hunter", "werewolf", "villager", "guard", "werewolf", "villager",
)  # fmt: skip
WOLVES = {f"P{i + 1:02d}" for i, r in enumerate(DEAL) if r == "werewolf"}


@pytest.fixture(scope="module")
def hand_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two games on a fixed deal: heuristic good seats against random wolves (the good camp
    wins) and all heuristic (the wolves win), so items come from both camps."""
    db = tmp_path_factory.mktemp("positions") / "hand.db"
    games = Games(db, create=True)
    setup = GameSetup(secret=SECRET, seed=SEED, deal=DEAL)
    try:
        random_wolves = Seating(default="heuristic", seats=dict.fromkeys(WOLVES, "random"))
        games.start(f"good-s{SEED}", setup, random_wolves)
        games.start(f"wolf-s{SEED}", setup, Seating(default="heuristic"))
    finally:
        games.close()
    return db


def keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


def test_items_hold_exactly_the_seats_view_and_nothing_hidden(hand_built: Path) -> None:
    before = files_digest(hand_built)
    items = list(build_items(hand_built, Filters()))
    assert files_digest(hand_built) == before  # read-only: no byte, no -wal/-shm file
    assert {i.view.camp.value for i in items} == {"good", "wolf"}
    games = Games(hand_built)
    try:
        # Each game's checkpoints by step, read once (the first one of a step, as at_ply).
        steps: dict[tuple[str, int], Any] = {}
        for game_id in games.ids():
            for snapshot in games.history(game_id):
                steps.setdefault((game_id, snapshot.values["game"].ply), snapshot.values)
        for item in items:
            source = item.answer_key.source
            at = steps[(source.game_id, source.ply)]
            # Exactly the view the game's node built for this seat at this step.
            assert item.view == seat_view(at["game"], at["events"], source.seat)
            assert item.view.options and item.view.decision_key == source.key
            wolf = item.view.camp.value == "wolf"
            for event in item.view.events:
                assert event.visible_to(source.seat, wolf)
                assert event.audience is not Audience.OMNISCIENT
                assert event.kind is not EventKind.DEAL
            assert item.view.teammates == (tuple(sorted(WOLVES - {source.seat})) if wolf else ())
            shown = item.model_dump(mode="json", by_alias=True, exclude={"answer_key"})
            text = json.dumps(shown)
            assert str(SEED) not in text and source.game_id not in text
            hidden = {"seed", "deal", "player_seed", "answer_key", "reference_vote", "opponents"}
            assert not keys(shown) & hidden
    finally:
        games.close()


def test_answer_key_is_the_reference_seats_own_vote_and_the_true_roles(hand_built: Path) -> None:
    items = list(build_items(hand_built, Filters()))
    finals = load_records(hand_built)
    for item in items:
        key = item.answer_key
        final = finals[key.source.game_id]
        ballot = [r for r in final.records if r.key == key.source.key and r.seat == key.source.seat]
        assert [r.option for r in ballot] == [key.reference_vote]
        assert key.roles == {f"P{i + 1:02d}": r for i, r in enumerate(DEAL)}
        assert key.winner == final.game.winner.value == item.view.camp.value
        living = {p.seat for p in item.view.players if p.alive} - {item.view.seat}
        mine = item.view.camp.value
        assert set(key.opponents) == {s for s in living if (s in WOLVES) != (mine == "wolf")}


def test_filters_and_round_trip(hand_built: Path, tmp_path: Path) -> None:
    every = list(build_items(hand_built, Filters()))
    day1 = list(build_items(hand_built, Filters(days=frozenset({1}))))
    good = list(build_items(hand_built, Filters(camps=frozenset({"good"}))))
    random_kind = list(build_items(hand_built, Filters(references=frozenset({"random"}))))
    mvp = list(build_items(hand_built, Filters(mvp_only=True)))
    assert day1 and all(i.view.day == 1 for i in day1) and len(day1) < len(every)
    assert good and {i.view.camp.value for i in good} == {"good"}
    # The good camp won with heuristic seats; the wolves won in the all-heuristic game.
    assert random_kind == []
    assert {i.answer_key.source.seat for i in mvp} <= {
        i.answer_key.source.seat for i in every if i.answer_key.mvp
    }
    assert len({(i.answer_key.source.game_id, i.answer_key.source.seat) for i in mvp}) == 2
    path = tmp_path / "items.jsonl"
    assert write_items(every, path) == len(every)
    assert read_items(path) == every
    assert json.loads(path.read_text().splitlines()[0])["schema"] == "autowerewolf.positions/1"


def test_mvp_by_hand(hand_built: Path) -> None:
    """Good camp won. P03 and P05 each voted for the wolf P01, exiled on day 1; P05 also
    voted for the wolf P04 on day 2 (not exiled), so P05 leads on ballots at opponents.
    P06 voted for a good seat. Expected MVP: P05 (1 decisive ballot each, 2 aimed vs 1)."""
    base = load_record(hand_built, f"good-s{SEED}")
    assert base.game.winner is not None and base.game.winner.value == "good"

    def ballot(seat: str, day: int, target: str) -> DecisionRecord:
        options = (target, "abstain")
        return DecisionRecord(
            seat=seat, player="heuristic", day=day, step="exile_vote",
            key=f"d{day}:exile_vote:r1", options=options, option=target,
        )  # fmt: skip

    exile = Event(kind=EventKind.EXILE, day=1, phase="day", audience=Audience.PUBLIC, target="P01")
    record = GameRecord(
        game_id="x",
        status="finished",
        game=base.game,
        events=[exile],
        records=[
            ballot("P03", 1, "P01"),
            ballot("P05", 1, "P01"),
            ballot("P05", 2, "P04"),
            ballot("P06", 1, "P02"),
        ],
        seating=base.seating,
    )
    assert mvp_seat(record) == "P05"
    # Without P05's second ballot, P03 and P05 tie on everything the game decides:
    # both alive or dead as in the game; the lower seat wins a full tie.
    tied = replace(record, records=record.records[:2])
    dead = {s.id: s.death_day for s in base.game.seats}
    expected = "P03" if (dead["P03"] or 99) >= (dead["P05"] or 99) else "P05"
    assert mvp_seat(tied) == expected


def test_cli_builds_items_from_a_tournament(study_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "items.jsonl"
    result = CliRunner().invoke(
        app, ["positions", "build", str(study_db), "--out", str(out), "--reference", "heuristic"]
    )
    assert result.exit_code == 0, result.output
    items = read_items(out)
    assert items and f"Wrote {len(items)} items" in result.output
    assert {i.answer_key.source.player for i in items} == {"heuristic"}
    said = " ".join(result.output.split())  # rich wraps long lines
    assert f"--reference kept {len(items)} (dropped: random " in said


def test_references_leave_out_random_and_simulated_seats_by_default(study_db: Path) -> None:
    kept = Kept()
    default = list(build_items(study_db, Filters(), kept))
    assert {i.answer_key.source.player for i in default} == {"heuristic"}
    assert kept.dropped_kinds["random"] > 0
    assert len(default) + kept.dropped_kinds["random"] == kept.ballots  # nothing else dropped
    assert kept.steps[0] == ("--reference", len(default))
    # An LLM seat answered by the simulated backend is told apart by its fixed reasoning.
    ballot = DecisionRecord(
        seat="P01", player="llm", day=1, step="exile_vote", key="d1:exile_vote:r1",
        options=("P02",), option="P02", reasoning=SIMULATED_REASONING,
    )  # fmt: skip
    assert player_kind(ballot) == "simulated"
    assert player_kind(ballot.model_copy(update={"reasoning": "P02 lied."})) == "llm"


def test_a_summary_cell_of_few_games_is_flagged_and_keeps_a_width() -> None:
    few = cluster_mean([1.0] * 6, [f"g{i}" for i in range(6)], [0.2] * 6)
    # 6 of 6: Wilson's interval over the 6 games.
    assert few["small"] and (few["lo"], few["hi"]) == pytest.approx(wilson(6, 6))
    many = cluster_mean([1.0, 0.0] * 10, [f"g{i}" for i in range(MIN_GAMES)] * 2, [0.2] * 20)
    assert not many["small"] and many["games"] == MIN_GAMES


def test_a_summary_cell_reads_as_mean_interval_items_and_games() -> None:
    block = cluster_mean([1.0] * 6, [f"g{i}" for i in range(6)], [0.2] * 6)
    lo, hi = wilson(6, 6)
    assert block_text(block, "*") == f"1.000 [{lo:.3f}, {hi:.3f}] (6 items, 6 games*)"
    assert block_text(cluster_mean([], [], [])) == "n/a"


@pytest.mark.long  # building the items of 24 games takes ~10 s on a loaded machine
def test_cli_run_marks_the_cells_of_few_games(study_db: Path, tmp_path: Path) -> None:
    items = tmp_path / "items.jsonl"
    write_items(build_items(study_db, Filters()), items)
    out = tmp_path / "random.jsonl"
    args = ["positions", "run", str(items), "--players", "random", "--decodes", "1"]
    args += ["--limit", "60"]
    result = CliRunner().invoke(app, [*args, "--resamples", "100", "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "random.summary.json").read_text())
    blocks = [summary["overall"], *summary["by_role"].values(), *summary["by_day"].values()]
    cells = [b[m] for b in blocks for m in ("va", "oi") if b[m]["mean"] is not None]
    assert all(c["small"] == (c["games"] < MIN_GAMES) for c in cells)
    few = [c for c in cells if c["small"]]
    assert few and all(c["lo"] < c["hi"] for c in cells)  # no cell without width
    said = " ".join(result.output.split())
    assert f"{few[0]['games']} games{SMALL_MARK})" in said and SMALL_NOTE in said
